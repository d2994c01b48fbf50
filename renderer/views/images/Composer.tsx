import { useCallback, useEffect, useRef, useState, type DragEvent } from 'react';
import { VISION_MAX_UPLOAD_BYTES } from '../../../shared/ipc/contracts/vision';
import { useApp, useT } from '../../store/StoreContext';
import { ModelPicker } from './ModelPicker';
import { readImageFiles } from './readImages';
import { thumbClass } from './SessionImage';

/** Images from a paste or drop: files first, else image items (some browsers only give items). */
function imageFiles(data: DataTransfer | null): File[] {
  if (!data) return [];
  const files = [...data.files];
  if (files.length > 0) return files;
  return [...data.items].filter((item) => item.kind === 'file').flatMap((item) => item.getAsFile() ?? []);
}

/** True for a PDF upload: by its type, or by the "%PDF" magic of base64 "JVBER". */
const isPdfUpload = (upload: { mimeType?: string | undefined; dataBase64: string }) => upload.mimeType === 'application/pdf' || upload.dataBase64.startsWith('JVBER');

/** Drop zone, paste (Ctrl+V), file picker, images waiting to be sent, model picker and prompt box. */
export function Composer() {
  const t = useT();
  const pending = useApp((s) => s.visionPending);
  const busy = useApp((s) => s.visionBusy);
  const session = useApp((s) => s.visionSession);
  const addUploads = useApp((s) => s.addVisionUploads);
  const removeUpload = useApp((s) => s.removeVisionUpload);
  const showError = useApp((s) => s.showVisionError);
  const ask = useApp((s) => s.askVision);
  const [prompt, setPrompt] = useState('');
  const [dragging, setDragging] = useState(false);
  const fileInput = useRef<HTMLInputElement>(null);

  const accept = useCallback(
    async (files: File[]) => {
      if (files.length === 0) return;
      const read = await readImageFiles(pending, files);
      // Adding clears the last error; a file refused in this drop is reported after that.
      if ('uploads' in read) addUploads(read.uploads);
      if (read.error) showError(read.error);
    },
    [pending, addUploads, showError],
  );

  useEffect(() => {
    const onPaste = (event: ClipboardEvent) => {
      const files = imageFiles(event.clipboardData);
      if (files.length === 0) return;
      event.preventDefault();
      void accept(files);
    };
    window.addEventListener('paste', onPaste);
    return () => window.removeEventListener('paste', onPaste);
  }, [accept]);

  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    void accept(imageFiles(event.dataTransfer));
  };
  const canSend = !busy && prompt.trim() !== '' && (session !== null || pending.length > 0);
  const send = async () => {
    if (!canSend) return;
    if (await ask(prompt.trim())) setPrompt('');
  };
  const progress = busy
    ? busy.phase === 'prepare'
      ? t('vision.progress.prepare', { done: busy.done, total: busy.total })
      : t(busy.phase === 'ask' ? 'vision.progress.ask' : 'vision.progress.send')
    : null;

  return (
    <div className="vision-composer">
      <div
        className={`vision-dropzone${dragging ? ' dragging' : ''}`}
        data-testid="vision-dropzone"
        onDragOver={(event) => {
          event.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
      >
        {pending.length > 0 && (
          <ul className="vision-pending">
            {pending.map((upload) => (
              <li key={upload.id} className="vision-pending-item" data-testid="vision-pending">
                {isPdfUpload(upload) ? (
                  // Pages are rendered by the host when sent; an <img> of PDF bytes would show broken.
                  <span className="vision-thumb vision-pdf-thumb" title={t('vision.pending.pdf')} data-testid="vision-pending-pdf">
                    PDF
                  </span>
                ) : (
                  <img
                    className="vision-thumb"
                    src={`data:${upload.mimeType || 'image/png'};base64,${upload.dataBase64}`}
                    alt={upload.name}
                    title={upload.name}
                    // The shape is known once decoded: a strip then fills the box from its start.
                    onLoad={(event) => void (event.currentTarget.className = thumbClass(event.currentTarget.naturalWidth, event.currentTarget.naturalHeight))}
                  />
                )}
                <span className="vision-pending-name">{upload.name}</span>
                <button type="button" className="vision-remove" aria-label={t('vision.pending.remove', { name: upload.name })} onClick={() => removeUpload(upload.id)}>
                  ×
                </button>
              </li>
            ))}
          </ul>
        )}
        <div className="vision-drop-text">
          <strong>{dragging ? t('vision.drop.active') : t('vision.drop.title')}</strong>
          <span className="hint">{t('vision.drop.hint', { mb: VISION_MAX_UPLOAD_BYTES / (1024 * 1024) })}</span>
        </div>
        <button type="button" className="btn-ghost" data-testid="vision-choose" onClick={() => fileInput.current?.click()}>
          {t('vision.drop.choose')}
        </button>
        <input
          ref={fileInput}
          type="file"
          accept="image/png,image/jpeg,image/webp,image/gif,application/pdf"
          multiple
          hidden
          data-testid="vision-file-input"
          onChange={(event) => {
            const files = [...(event.target.files ?? [])];
            event.target.value = '';
            void accept(files);
          }}
        />
      </div>
      <form
        className="vision-ask"
        onSubmit={(event) => {
          event.preventDefault();
          void send();
        }}
      >
        <label className="vision-prompt-label">
          {t('vision.prompt.label')}
          <textarea
            data-testid="vision-prompt"
            rows={3}
            value={prompt}
            placeholder={session ? t('vision.prompt.followUp') : t('vision.prompt.new')}
            onChange={(event) => setPrompt(event.target.value)}
            onKeyDown={(event) => {
              if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
                event.preventDefault();
                void send();
              }
            }}
          />
        </label>
        <div className="vision-ask-actions">
          <ModelPicker />
          <span className="hint">{progress ?? t('vision.sendHint')}</span>
          <button type="submit" className="btn-primary" data-testid="vision-send" disabled={!canSend}>
            {t('vision.send')}
          </button>
        </div>
      </form>
    </div>
  );
}
