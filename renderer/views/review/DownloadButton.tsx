import { base64Bytes, saveFile } from '../../shell/saveFile';
import { useApp } from '../../store/StoreContext';

/** Saves a run file through the browser's download manager (the desktop app shows its save dialog). */
export function DownloadButton({ kind, label }: { kind: 'dxf' | 'markdown' | 'json'; label: string }) {
  const downloadRunFile = useApp((s) => s.downloadRunFile);
  return (
    <button
      type="button"
      className="btn-ghost btn-small"
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

