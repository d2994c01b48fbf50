import { useEffect, useRef } from 'react';
import { setDrawings } from '../../store/reviewSetSlice';
import { useApp, useT } from '../../store/StoreContext';

/** A name for a new set: the chosen folder's, else "<first file> and N more". */
export function setName(files: readonly File[], folder: string | null, t: ReturnType<typeof useT>): string {
  const drawings = setDrawings(files);
  const fromPath = files.map((f) => (f as File & { webkitRelativePath?: string }).webkitRelativePath ?? '').find((p) => p.includes('/'))?.split('/')[0];
  const name = folder ?? fromPath;
  if (name) return name;
  const first = drawings[0]?.name ?? files[0]?.name ?? 'DXF';
  return drawings.length > 1 ? t('reviewSet.defaultName', { first, more: drawings.length - 1 }) : first;
}

/** Drawing sets: choose several DXF files or a folder (or drop them), and the sets so far. */
export function SetPanel() {
  const t = useT();
  const sets = useApp((s) => s.sets);
  const open = useApp((s) => s.set?.set.id ?? null);
  const upload = useApp((s) => s.setUpload);
  const initSets = useApp((s) => s.initSets);
  const createSet = useApp((s) => s.createSet);
  const selectSet = useApp((s) => s.selectSet);
  const locale = useApp((s) => s.locale);
  const filesInput = useRef<HTMLInputElement>(null);
  const folderInput = useRef<HTMLInputElement>(null);
  useEffect(() => {
    void initSets();
  }, [initSets]);
  useEffect(() => {
    // A folder picker is not a standard attribute: set it on the element itself.
    folderInput.current?.setAttribute('webkitdirectory', '');
  }, []);

  const picked = (input: HTMLInputElement): void => {
    const files = Array.from(input.files ?? []);
    input.value = '';
    if (files.length > 0) void createSet(setName(files, null, t), files);
  };

  return (
    <div className="card review-sets" data-testid="review-sets">
      <h2>{t('reviewSet.panel.title')}</h2>
      <div className="review-source-actions">
        <button type="button" className="btn-ghost" data-testid="set-pick-files" disabled={upload !== null} onClick={() => filesInput.current?.click()}>
          {t('reviewSet.panel.files')}
        </button>
        <button type="button" className="btn-ghost" data-testid="set-pick-folder" disabled={upload !== null} onClick={() => folderInput.current?.click()}>
          {t('reviewSet.panel.folder')}
        </button>
        <input ref={filesInput} type="file" multiple accept=".dxf" className="visually-hidden" tabIndex={-1} aria-label={t('reviewSet.panel.files')} data-testid="set-files-input" onChange={(e) => picked(e.target)} />
        <input ref={folderInput} type="file" multiple className="visually-hidden" tabIndex={-1} aria-label={t('reviewSet.panel.folder')} data-testid="set-folder-input" onChange={(e) => picked(e.target)} />
      </div>
      <p className="hint">{t('reviewSet.panel.hint')}</p>
      {upload && (
        <p className="hint" data-testid="set-uploading">
          {t('reviewSet.panel.uploading', upload)}
        </p>
      )}
      {sets.length === 0 && <p className="hint">{t('reviewSet.panel.empty')}</p>}
      <ul className="run-list">
        {sets.map((s) => (
          <li key={s.id} className={s.id === open ? 'active' : ''}>
            <button type="button" className="run-item" onClick={() => void selectSet(s.id)} data-testid="set-item" data-status={s.status}>
              <span className="run-item-head">
                <strong>{s.name}</strong>
                <span className={`pill status-${s.status}`}>{t(`reviewSet.status.${s.status}`)}</span>
              </span>
              <span className="hint">
                {new Date(s.createdAt).toLocaleString(locale)} · {t('reviewSet.panel.counts', { done: s.done, files: s.files })}
              </span>
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}
