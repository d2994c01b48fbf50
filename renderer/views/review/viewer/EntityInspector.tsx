import { useState } from 'react';
import { useApp, useT } from '../../../store/StoreContext';

/** What a click on the drawing met: the entities nearest first, the chosen one's handle and properties. */
export function EntityInspector() {
  const t = useT();
  const inspected = useApp((s) => s.inspected);
  const clear = useApp((s) => s.clearInspected);
  const [chosen, setChosen] = useState(0);
  if (!inspected) return <p className="hint viewer-inspector">{t('review.viewer.clickHint')}</p>;
  if ('error' in inspected) {
    return (
      <p className="form-error viewer-inspector" role="alert" data-testid="inspector-error" data-code={inspected.error.code}>
        {t('review.viewer.pickFailed', { code: inspected.error.code, message: inspected.error.message })}
      </p>
    );
  }
  if (inspected.entities.length === 0) return <p className="hint viewer-inspector" data-testid="inspector-empty">{t('review.viewer.nothingHere')}</p>;
  const entity = inspected.entities[Math.min(chosen, inspected.entities.length - 1)];
  return (
    <div className="viewer-inspector card" data-testid="entity-inspector" aria-live="polite">
      <div className="viewer-layers-head">
        <strong>{t('review.viewer.found', { count: inspected.total })}</strong>
        <button type="button" className="btn-ghost" onClick={clear} aria-label={t('review.modal.close')}>
          ×
        </button>
      </div>
      {inspected.entities.length > 1 && (
        <select value={chosen} onChange={(e) => setChosen(Number(e.target.value))} aria-label={t('review.viewer.choose')} data-testid="inspector-choose">
          {inspected.entities.map((e, i) => (
            <option key={e.handle} value={i}>
              {e.type} {e.handle} · {e.layer}
            </option>
          ))}
        </select>
      )}
      {entity && (
        <dl className="entity-props">
          <div>
            <dt>{t('review.viewer.handle')}</dt>
            <dd className="mono" data-testid="inspector-handle">{entity.handle}</dd>
          </div>
          <div>
            <dt>{t('review.viewer.type')}</dt>
            <dd className="mono">{entity.type}</dd>
          </div>
          <div>
            <dt>{t('review.layer.name')}</dt>
            <dd>{entity.layer}</dd>
          </div>
          {Object.entries(entity.properties).map(([key, value]) => (
            <div key={key}>
              <dt className="mono">{key}</dt>
              <dd className="mono">{value}</dd>
            </div>
          ))}
        </dl>
      )}
    </div>
  );
}
