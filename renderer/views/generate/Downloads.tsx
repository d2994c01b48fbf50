import type { ArtifactKind, CadgenBuildArtifacts } from '../../../shared/ipc/contracts/cadgen';
import { saveFile } from '../../shell/saveFile';
import { useApp, useT } from '../../store/StoreContext';

const MEDIA: Partial<Record<ArtifactKind, string>> = { step: 'model/step', glb: 'model/gltf-binary' };

/** STEP and GLB downloads (see saveFile). */
export function Downloads({ artifacts, documentName }: { artifacts: CadgenBuildArtifacts; documentName: string }) {
  const t = useT();
  const fetchArtifact = useApp((s) => s.fetchCadgenArtifact);
  const download = async (kind: 'step' | 'glb'): Promise<void> => {
    const bytes = await fetchArtifact(artifacts[kind], kind);
    if (!bytes) return;
    saveFile(bytes, `${documentName}.${kind}`, MEDIA[kind] ?? 'application/octet-stream');
  };
  return (
    <section className="card cdsl-downloads">
      <h2>{t('cadgen.download.title')}</h2>
      <div className="cdsl-actions">
        <button type="button" className="btn-ghost" data-testid="cdsl-download-step" onClick={() => void download('step')}>
          {t('cadgen.download.step')}
        </button>
        <button type="button" className="btn-ghost" data-testid="cdsl-download-glb" onClick={() => void download('glb')}>
          {t('cadgen.download.glb')}
        </button>
        <span className="muted">{t('cadgen.download.size', { kb: (artifacts.glbBytes / 1024).toFixed(0) })}</span>
      </div>
    </section>
  );
}
