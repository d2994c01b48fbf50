import type { GenTaskDetail } from '../../../../shared/ipc/contracts/generation';
import { saveFile } from '../../../shell/saveFile';
import { useApp, useT } from '../../../store/StoreContext';

type Revision = GenTaskDetail['revisions'][number];

/** STEP, GLB, requirements.md and the task zip of the shown revision, saved through the browser's download manager. */
export function TaskDownloads({ detail, revision }: { detail: GenTaskDetail; revision: Revision }) {
  const t = useT();
  const fetchFile = useApp((s) => s.fetchGenFile);
  const exportZip = useApp((s) => s.exportGenZip);
  const taskId = detail.task.taskId;
  const file = async (name: string, saveAs: string, mimeType: string): Promise<void> => {
    const bytes = await fetchFile(taskId, name);
    if (bytes) saveFile(bytes, saveAs, mimeType);
  };
  const zip = async (): Promise<void> => {
    const result = await exportZip(taskId, revision.revisionId);
    if (result) saveFile(result.bytes, result.fileName, 'application/zip');
  };
  const base = `${taskId}-${revision.revisionId}`;
  return (
    <div className="cdsl-actions gen-downloads">
      <strong>{t('gen.download.title', { revision: revision.revisionId })}</strong>
      <button type="button" className="btn-ghost btn-small" data-testid="gen-download-step" onClick={() => void file(`${revision.dir}/model.step`, `${base}.step`, 'model/step')}>
        {t('cadgen.download.step')}
      </button>
      <button type="button" className="btn-ghost btn-small" data-testid="gen-download-glb" onClick={() => void file(`${revision.dir}/model.glb`, `${base}.glb`, 'model/gltf-binary')}>
        {t('cadgen.download.glb')}
      </button>
      {detail.contract && (
        <button type="button" className="btn-ghost btn-small" data-testid="gen-download-requirements" onClick={() => void file('requirements.md', `${taskId}-requirements.md`, 'text/markdown')}>
          {t('gen.download.requirements')}
        </button>
      )}
      <button type="button" className="btn-ghost btn-small" data-testid="gen-download-zip" onClick={() => void zip()}>
        {t('gen.download.zip')}
      </button>
    </div>
  );
}
