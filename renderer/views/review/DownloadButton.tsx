import { base64Bytes, saveFile } from '../../shell/saveFile';
import { useApp } from '../../store/StoreContext';

/** Saves a run file through the browser's download manager (the desktop app shows its save dialog). */
/** `primary`: the main thing the surrounding dialog offers (the annotated drawing after writing). */
export function DownloadButton({ kind, label, primary = false }: { kind: 'dxf' | 'markdown' | 'json'; label: string; primary?: boolean }) {
  const downloadRunFile = useApp((s) => s.downloadRunFile);
  return (
    <button
      type="button"
      className={primary ? 'btn-primary' : 'btn-ghost btn-small'}
      data-testid={`download-${kind}`}
      onClick={async () => {
        const file = await downloadRunFile(kind);
        if (file) saveFile(base64Bytes(file.dataBase64), file.fileName, file.mimeType);
      }}
    >
      {label}
    </button>
  );
}

