import { useApp, useT } from '../../store/StoreContext';
import { DownloadButton } from './DownloadButton';
import { Modal } from './Modal';

const fmt = (n: number): string => (Math.round(n * 100) / 100).toString();

/**
 * Confirmation before anything is written: exactly the leaders that will be sent (tool, points,
 * text, height) and where the drawing is saved. Confirming sends the payload hashes shown here,
 * so a plan that changed meanwhile is refused instead of written.
 */
export function WriteDialog() {
  const t = useT();
  const plan = useApp((s) => s.writePlan);
  const result = useApp((s) => s.writeResult);
  const writing = useApp((s) => s.writing);
  const confirmWrite = useApp((s) => s.confirmWrite);
  const closeWrite = useApp((s) => s.closeWrite);
  if (result) {
    return (
      <Modal title={t('review.write.doneTitle')} onClose={closeWrite} testId="write-result">
        <p data-testid="write-summary">{t('review.write.done', { written: result.written.length, recognised: result.recognised.length, failed: result.failed.length })}</p>
        {result.savedPath && (
          <p>
            {t('review.write.savedTo')} <span className="mono" data-testid="saved-path">{result.savedPath}</span> <DownloadButton kind="dxf" label={t('review.download.dxf')} />
          </p>
        )}
        {result.failed.map((f) => (
          <p key={f.findingId} className="form-error">
            {f.error.code}: {f.error.message}
          </p>
        ))}
        <div className="form-actions">
          <button type="button" className="btn-primary" onClick={closeWrite}>
            {t('review.write.close')}
          </button>
        </div>
      </Modal>
    );
  }
  if (!plan) return null;
  return (
    <Modal title={t('review.write.title')} onClose={closeWrite} wide testId="write-dialog">
      {plan.items.length === 0 ? (
        <p>{t('review.write.nothing')}</p>
      ) : (
        <>
          <p>{t('review.write.intro', { count: plan.items.length, target: plan.target })}</p>
          <table className="table" data-testid="write-items">
            <thead>
              <tr>
                <th>{t('review.write.id')}</th>
                <th>{t('review.write.tool')}</th>
                <th>{t('review.write.points')}</th>
                <th>{t('review.write.text')}</th>
                <th>{t('review.write.height')}</th>
              </tr>
            </thead>
            <tbody>
              {plan.items.map((item) => (
                <tr key={item.findingId} data-testid="write-item">
                  <td className="mono">{item.shortId}</td>
                  <td className="mono">{item.tool}</td>
                  <td className="mono">{item.points.map((p) => `(${fmt(p.x)}, ${fmt(p.y)})`).join(' → ')}</td>
                  <td>{item.text}</td>
                  <td>{fmt(item.height)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <p className="hint">{plan.saveTo ? t('review.write.saveTo', { path: plan.saveTo }) : t('review.write.autocad')}</p>
        </>
      )}
      <div className="form-actions">
        <button type="button" className="btn-ghost" onClick={closeWrite}>
          {t('review.write.cancel')}
        </button>
        <button type="button" className="btn-primary" disabled={writing || plan.items.length === 0} onClick={() => void confirmWrite()} data-testid="write-confirm">
          {writing ? t('review.write.writing') : t('review.write.confirm', { count: plan.items.length })}
        </button>
      </div>
    </Modal>
  );
}
