import { useEffect } from 'react';
import type { CadgenBuildArtifacts } from '../../../shared/ipc/contracts/cadgen';
import { en, type MessageKey } from '../../i18n/messages';
import { useApp, useT } from '../../store/StoreContext';
import { BuildSummary } from './BuildSummary';
import { ClaimTable } from './ClaimTable';
import { DocumentPanel } from './DocumentPanel';
import { Downloads } from './Downloads';
import { DrawingViews, type ViewName } from './DrawingViews';
import { PartViewer } from './PartViewer';

/** A phase the host reports that this catalog does not know is shown as its raw name. */
function phaseLabel(t: ReturnType<typeof useT>, phase: string): string {
  const key = `cadgen.phase.${phase}`;
  return key in en ? t(key as MessageKey) : phase;
}

/** Generate → "CDSL document": open a CDSL document, build it, inspect the part, claims and drawings. */
export function DocumentMode() {
  const t = useT();
  const examples = useApp((s) => s.cadgenExamples);
  const loadExamples = useApp((s) => s.loadCadgenExamples);
  const validation = useApp((s) => s.cadgenValidation);
  const build = useApp((s) => s.cadgenBuild);
  const runBuild = useApp((s) => s.buildCadgenDocument);
  const method = useApp((s) => s.cadgenProjectionMethod);
  const setMethod = useApp((s) => s.setCadgenProjectionMethod);
  const fetchArtifact = useApp((s) => s.fetchCadgenArtifact);

  useEffect(() => {
    if (examples === null) void loadExamples();
  }, [examples, loadExamples]);

  const result = build.status === 'done' ? build.result : null;
  const artifacts = result?.artifacts ?? null;
  const loadSvg = (built: CadgenBuildArtifacts, view: ViewName): Promise<Uint8Array | null> => {
    const svg = built.views.find((v) => v.view === view)?.svg;
    return svg ? fetchArtifact(svg, 'svg') : Promise.resolve(null);
  };
  return (
    <>
      <p className="muted">{t('cadgen.intro')}</p>
      <DocumentPanel />
      <div className="cdsl-actions cdsl-build-bar">
        <button type="button" className="btn-primary" data-testid="cdsl-build" disabled={validation.status !== 'valid' || build.status === 'running'} onClick={() => void runBuild()}>
          {build.status === 'running' ? t('cadgen.build.running') : t('cadgen.build.run')}
        </button>
        <label className="cdsl-inline">
          {t('cadgen.build.projection')}
          <select value={method} data-testid="cdsl-projection" onChange={(e) => setMethod(e.target.value === 'third_angle' ? 'third_angle' : 'first_angle')}>
            <option value="first_angle">{t('cadgen.build.projection.first_angle')}</option>
            <option value="third_angle">{t('cadgen.build.projection.third_angle')}</option>
          </select>
        </label>
        {build.status === 'running' && (
          <span className="cdsl-progress" data-testid="cdsl-progress">
            <progress max={build.total} value={build.done} />
            {phaseLabel(t, build.phase)}
          </span>
        )}
        {result && (
          <span className={`cdsl-badge ${result.ok ? 'cdsl-badge-pass' : 'cdsl-badge-fail'}`} data-testid="cdsl-build-status" data-ok={String(result.ok)}>
            {result.ok ? t('cadgen.build.ok') : t('cadgen.build.notOk')}
          </span>
        )}
        {build.status === 'failed' && (
          <span className="form-error" data-testid="cdsl-build-error" data-code={build.error.code}>
            {t('cadgen.build.failed')}: <span className="banner-code">{build.error.code}</span> {build.error.message}
          </span>
        )}
      </div>
      {result && (
        <div className="cdsl-results">
          <div className="cdsl-grid">
            {artifacts && <PartViewer loadKey={artifacts.glb} load={() => fetchArtifact(artifacts.glb, 'glb')} />}
            <BuildSummary result={result} />
          </div>
          <ClaimTable claims={result.claims} />
          {artifacts && <DrawingViews views={artifacts.views.map((v) => v.view)} method={artifacts.projectionMethod} loadKey={artifacts.views.map((v) => v.svg).join()} load={(view) => loadSvg(artifacts, view)} />}
          {artifacts && <Downloads artifacts={artifacts} documentName={result.documentName} />}
        </div>
      )}
    </>
  );
}
