import type { CadgenBuildResult } from '../../../shared/ipc/contracts/cadgen';
import { useT } from '../../store/StoreContext';

const fixed = (value: number, digits = 3): string => value.toFixed(digits);

/** Per-feature status (with the typed error of a failed one) and the part's measurements. */
export function BuildSummary({ result }: { result: CadgenBuildResult }) {
  const t = useT();
  const m = result.measurements;
  return (
    <section className="card cdsl-summary" data-testid="cdsl-summary">
      <h2>{t('cadgen.features.title')}</h2>
      <ol className="cdsl-features">
        {result.features.map((feature) => (
          <li key={feature.id} data-testid={`cdsl-feature-${feature.id}`} data-status={feature.status}>
            <span className="mono">{feature.id}</span> <span className="mono">{feature.atomic_id}</span>{' '}
            <span className={`cdsl-badge cdsl-badge-${feature.status === 'built' ? 'pass' : feature.status === 'failed' ? 'fail' : 'pending'}`}>{t(`cadgen.feature.${feature.status}`)}</span>
            {feature.error && (
              <div className="form-error">
                <span className="banner-code">{feature.error.code}</span> {feature.error.message}
              </div>
            )}
          </li>
        ))}
      </ol>
      {m && (
        <>
          <h2>{t('cadgen.measure.title')}</h2>
          <ul className="cdsl-measures">
            <li>{t('cadgen.measure.volume', { value: fixed(m.volume_mm3) })}</li>
            <li>{t('cadgen.measure.size', { x: fixed(m.bbox.max[0] - m.bbox.min[0]), y: fixed(m.bbox.max[1] - m.bbox.min[1]), z: fixed(m.bbox.max[2] - m.bbox.min[2]) })}</li>
            <li>{t('cadgen.measure.solids', { count: m.solid_count })}</li>
            {result.topology && <li>{t('cadgen.measure.topology', { faces: result.topology.faces ?? 0, edges: result.topology.edges ?? 0 })}</li>}
          </ul>
        </>
      )}
    </section>
  );
}
