import { useEffect, useState } from 'react';
import { useApp, useT } from '../../store/StoreContext';
import type { WritePlan } from '../../store/reviewSlice';
import type { ViewTile } from '../../store/reviewViewerSlice';
import { DownloadButton } from './DownloadButton';
import { Modal } from './Modal';

type PlannedItem = WritePlan['items'][number];
const PREVIEW_EDGE = 200;

/** The file name of a path as the host wrote it (Windows or POSIX separators). */
export const baseName = (path: string): string => path.split(/[\\/]/).pop() ?? path;

/**
 * A small picture of the drawing where the leader goes, with the leader drawn over it (the drawing
 * of the run must be open; otherwise the row has no picture).
 */
function LeaderPreview({ item, layout }: { item: PlannedItem; layout: string }) {
  const t = useT();
  const viewImage = useApp((s) => s.viewImage);
  const [tile, setTile] = useState<ViewTile | null>(null);
  const xs = item.points.map((p) => p.x);
  const ys = item.points.map((p) => p.y);
  const span = Math.max(Math.max(...xs) - Math.min(...xs), Math.max(...ys) - Math.min(...ys), item.height * 12);
  const cx = (Math.max(...xs) + Math.min(...xs)) / 2;
  const cy = (Math.max(...ys) + Math.min(...ys)) / 2;
  const half = span * 0.8;
  const key = JSON.stringify([layout, cx, cy, half]);
  useEffect(() => {
    let live = true;
    void viewImage({ layout, maxEdge: PREVIEW_EDGE, hiddenLayers: [], bbox: { minX: cx - half, minY: cy - half, maxX: cx + half, maxY: cy + half } }).then((result) => {
      if (live && !('error' in result)) setTile(result);
    });
    return () => {
      live = false;
    };
    // The key stands for the numbers it is made of.
  }, [key, viewImage]);
  if (!tile) return <span className="write-thumb write-thumb-empty" aria-hidden="true" />;
  const r = tile.region;
  const toPx = (p: { x: number; y: number }) => ({ x: ((p.x - r.minX) / (r.maxX - r.minX)) * tile.widthPx, y: ((r.maxY - p.y) / (r.maxY - r.minY)) * tile.heightPx });
  const pts = item.points.map(toPx);
  return (
    <svg className="write-thumb" viewBox={`0 0 ${tile.widthPx} ${tile.heightPx}`} role="img" aria-label={t('review.write.previewOf', { text: item.text })} data-testid="write-thumb">
      <image href={tile.url} width={tile.widthPx} height={tile.heightPx} />
      <polyline points={pts.map((p) => `${p.x},${p.y}`).join(' ')} fill="none" stroke="#d4660f" strokeWidth={2} />
      {pts[0] && <circle cx={pts[0].x} cy={pts[0].y} r={3} fill="#d4660f" />}
    </svg>
  );
}

/**
 * Confirmation before anything is written, in the user's terms: each annotation with its marker
 * number, rule, problem, sheet, leader text and a picture of where it goes, and what happens to
 * the drawing. Confirming sends the payload hashes of exactly these rows, so a plan that changed
 * meanwhile is refused instead of written.
 */
export function WriteDialog() {
  const t = useT();
  const plan = useApp((s) => s.writePlan);
  const result = useApp((s) => s.writeResult);
  const writing = useApp((s) => s.writing);
  const confirmWrite = useApp((s) => s.confirmWrite);
  const closeWrite = useApp((s) => s.closeWrite);
  const run = useApp((s) => s.run);
  const drawing = useApp((s) => s.drawing);
  const browser = useApp((s) => s.appInfo?.transport === 'browser');
  const findings = new Map((run?.findings ?? []).map((f, i) => [f.id, { finding: f, n: i + 1 }]));
  const frames = new Map((run?.frames ?? []).map((f) => [f.frame.id, f.frame]));
  const rules = new Map((run?.checklistItems ?? []).map((i) => [i.id, i.description]));
  const live = drawing !== null && run !== null && drawing.source.label === run.run.source;
  const copyNote = (path: string): string => (browser ? t('review.write.copyDownload', { name: baseName(path) }) : t('review.write.copyDesktop', { path }));

  if (result) {
    return (
      <Modal title={t('review.write.doneTitle')} onClose={closeWrite} testId="write-result">
        <p data-testid="write-summary">{t('review.write.done', { written: result.written.length, recognised: result.recognised.length, failed: result.failed.length })}</p>
        {result.savedPath && (
          <>
            <p>{copyNote(result.savedPath)}</p>
            <p>
              <DownloadButton kind="dxf" label={t('review.download.dxf')} primary />
            </p>
            <details className="hint">
              <summary>{t('review.write.whereKept')}</summary>
              <span className="mono" data-testid="saved-path">
                {result.savedPath}
              </span>
            </details>
          </>
        )}
        {result.failed.map((f) => (
          <p key={f.findingId} className="form-error">
            {t('review.write.failedOne', { n: findings.get(f.findingId)?.n ?? '?' })} <span className="banner-code">{f.error.code}</span>
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
          <p>{t('review.write.introUser', { count: plan.items.length, target: baseName(plan.target) })}</p>
          <table className="table write-table" data-testid="write-items">
            <thead>
              <tr>
                <th>{t('review.write.number')}</th>
                <th>{t('review.write.rule')}</th>
                <th>{t('review.write.problem')}</th>
                <th>{t('review.write.sheet')}</th>
                <th>{t('review.write.text')}</th>
                <th>{t('review.write.preview')}</th>
              </tr>
            </thead>
            <tbody>
              {plan.items.map((item) => {
                const known = findings.get(item.findingId);
                const frame = known?.finding.frameId ? frames.get(known.finding.frameId) : undefined;
                const rule = known?.finding.checklistItemId;
                return (
                  <tr key={item.findingId} data-testid="write-item">
                    <td>{known ? <span className={`marker-static sev-${known.finding.severity}`}>{known.n}</span> : '—'}</td>
                    <td>{rule ? rules.get(rule) || rule : '—'}</td>
                    <td>{known?.finding.message ?? '—'}</td>
                    <td>{frame ? frame.titleBlock.title || frame.sheetName || frame.label : '—'}</td>
                    <td>{item.text}</td>
                    <td>{live && frame ? <LeaderPreview item={item} layout={frame.layout} /> : '—'}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
          <p className="hint">{plan.saveTo ? copyNote(plan.saveTo) : t('review.write.autocad')}</p>
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
