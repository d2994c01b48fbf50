import { useApp, useT } from '../../store/StoreContext';

/** Review runs, newest first: status, counts; open one, resume an interrupted or cancelled one. */
export function RunList() {
  const t = useT();
  const runs = useApp((s) => s.runs);
  const open = useApp((s) => s.run?.run.id ?? null);
  const selectRun = useApp((s) => s.selectRun);
  const resumeRun = useApp((s) => s.resumeRun);
  const locale = useApp((s) => s.locale);
  return (
    <div className="card review-runs" data-testid="review-runs">
      <h2>{t('review.runs.title')}</h2>
      {open && (
        <button type="button" className="btn-ghost" onClick={() => void selectRun(null)} data-testid="back-to-drawing">
          {t('review.runs.backToDrawing')}
        </button>
      )}
      {runs.length === 0 && <p className="hint">{t('review.runs.empty')}</p>}
      <ul className="run-list">
        {runs.map((run) => (
          <li key={run.id} className={run.id === open ? 'active' : ''}>
            <button type="button" className="run-item" onClick={() => void selectRun(run.id)} data-testid="run-item" data-status={run.status}>
              <span className="run-item-head">
                <strong>{run.source}</strong>
                <span className={`pill status-${run.status}`}>{t(`review.status.${run.status}`)}</span>
              </span>
              <span className="hint">
                {new Date(run.createdAt).toLocaleString(locale)} · {t('review.runs.counts', { findings: run.findings, done: run.framesDone, total: run.framesTotal })}
                {run.llm ? ` · ${t('review.runs.llm')}` : ''}
              </span>
            </button>
            {(run.status === 'interrupted' || run.status === 'cancelled' || ((run.status === 'completed' || run.status === 'completed_with_errors') && run.framesDone < run.framesTotal)) && (
              <button type="button" className="btn-ghost" onClick={() => void resumeRun(run.id)} data-testid="run-resume">
                {t('review.runs.resume')}
              </button>
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}
