import { useEffect, useMemo, useState } from 'react';
import { useApp, useT } from '../../store/StoreContext';
import type { FindingView, RunDetail } from '../../store/reviewSlice';
import { findingFocusBox } from './findingGroups';
import { boxToPercent, drawingToPercent, onPicture, pictureToDrawing, type Shot } from './markerGeometry';
import { PanZoom } from './PanZoom';
import { DrawingViewer, type Placing } from './viewer/DrawingViewer';
import { FindingOverlay } from './viewer/FindingOverlay';

type FrameRun = RunDetail['frames'][number];

/** Where a finding's marker goes: the arrow tip of its annotation (what will be written). */
const markerPoint = (finding: FindingView) => finding.annotation.anchor;

/**
 * The selected frame in the live viewer (the run's drawing is open): its layout fitted to the
 * frame, the findings as markers, leaders to be written and written, and arrow placement by
 * click or keyboard.
 */
export function LiveFrameDetail({ frame, findings, numbers, layouts }: { frame: FrameRun; findings: FindingView[]; numbers: Map<string, number>; layouts: string[] }) {
  const t = useT();
  const moving = useApp((s) => s.movingFindingId);
  const setMoving = useApp((s) => s.setMoving);
  const decide = useApp((s) => s.decide);
  const selectedId = useApp((s) => s.selectedFindingId);
  const focusSeq = useApp((s) => s.findingFocusSeq);
  // The selection the user asked to see the whole frame at (a new selection zooms to its finding again).
  // `n` counts button presses: pressing one again after panning away moves the view back.
  const [pick, setPick] = useState({ wholeAt: -1, n: 0 });
  const selectedFinding = findings.find((f) => f.id === selectedId);
  const frameKey = JSON.stringify([frame.frame.layout, frame.frame.bbox]);
  // Every selection centres the drawing on the finding, zoomed to what it points at; the arrow
  // moving later does not move the view (the focus follows the selection, not the finding's data).
  const focus = useMemo(
    () => ({
      layout: frame.frame.layout,
      bbox: selectedFinding && pick.wholeAt !== focusSeq ? findingFocusBox(selectedFinding, frame.frame.bbox) : frame.frame.bbox,
      seq: focusSeq,
    }),
    [frameKey, selectedFinding?.id, focusSeq, pick],
  );
  const movingFinding = findings.find((f) => f.id === moving);
  const placing: Placing | null = useMemo(
    () =>
      movingFinding
        ? {
            start: movingFinding.annotation.anchor,
            label: t('review.finding.moveHint', { n: numbers.get(movingFinding.id) ?? '?' }),
            onPlace: (anchor) => void decide(movingFinding.id, { kind: 'edit', anchor }),
            onCancel: () => setMoving(null),
          }
        : null,
    // The placement restarts only when another finding is moved (not on every re-render).
    [movingFinding?.id],
  );
  return (
    <div className="frame-detail" data-testid="frame-detail" data-live="true">
      {moving && (
        <div className="moving-banner" data-testid="moving-banner" role="status">
          {t('review.finding.moveHint', { n: numbers.get(moving) ?? '?' })} {t('review.viewer.placeKeys')}
          <button type="button" className="btn-ghost" onClick={() => setMoving(null)}>
            {t('review.finding.moveCancel')}
          </button>
        </div>
      )}
      <div className="frame-focus-tools">
        <button type="button" className="btn-ghost btn-small" disabled={!selectedFinding} onClick={() => setPick((p) => ({ wholeAt: -1, n: p.n + 1 }))} data-testid="zoom-to-finding">
          {selectedFinding ? t('review.viewer.zoomToFinding', { n: numbers.get(selectedFinding.id) ?? '?' }) : t('review.viewer.zoomToFindingNone')}
        </button>
        <button type="button" className="btn-ghost btn-small" onClick={() => setPick((p) => ({ wholeAt: focusSeq, n: p.n + 1 }))} data-testid="zoom-to-frame">
          {t('review.viewer.wholeFrame')}
        </button>
      </div>
      <DrawingViewer layouts={layouts} focus={focus} placing={placing} testId="frame-viewer" overlay={(ctx) => (ctx.layout === frame.frame.layout ? <FindingOverlay ctx={ctx} findings={findings} numbers={numbers} /> : null)} />
    </div>
  );
}

/**
 * The selected frame's stored screenshot with the findings as numbered markers (a run of a
 * drawing that is not open now). A marker click selects
 * its finding; the selected finding's location is highlighted; in "move" mode a click on the
 * picture places that finding's arrow tip (converted through the screenshot transform).
 */
export function FrameDetail({ frame, findings, numbers }: { frame: FrameRun; findings: FindingView[]; numbers: Map<string, number> }) {
  const t = useT();
  const shot = frame.screenshot;
  const image = useApp((s) => (shot ? s.runImages[shot.file] : undefined));
  const loadRunImage = useApp((s) => s.loadRunImage);
  const selected = useApp((s) => s.selectedFindingId);
  const moving = useApp((s) => s.movingFindingId);
  const selectFinding = useApp((s) => s.selectFinding);
  const setMoving = useApp((s) => s.setMoving);
  const decide = useApp((s) => s.decide);
  useEffect(() => {
    if (shot) void loadRunImage(shot.file);
  }, [shot, loadRunImage]);

  if (frame.status === 'failed') return <p className="form-error">{t('review.frame.failed', { message: frame.error?.message ?? '' })}</p>;
  const llmNotice = frame.status === 'llm_failed' ? (
    <p className="form-error" role="status" data-testid="frame-llm-failed">
      {t('review.frame.llmFailed', { message: frame.error?.message ?? '' })}
    </p>
  ) : null;
  if (!shot) return llmNotice ?? <p className="hint">{frame.status === 'pending' ? t('review.frame.pending') : t('review.frame.noShot')}</p>;
  if (!image) return <p className="hint">{t('review.drawing.rendering')}</p>;
  const geometry: Shot = shot;
  const selectedFinding = findings.find((f) => f.id === selected);
  const highlight = selectedFinding?.location.kind === 'bbox' ? boxToPercent(selectedFinding.location.bbox, geometry) : null;

  return (
    <div className="frame-detail" data-testid="frame-detail">
      {llmNotice}
      {moving && (
        <div className="moving-banner" data-testid="moving-banner">
          {t('review.finding.moveHint', { n: numbers.get(moving) ?? '?' })}
          <button type="button" className="btn-ghost" onClick={() => setMoving(null)}>
            {t('review.finding.moveCancel')}
          </button>
        </div>
      )}
      <PanZoom
        src={image.url}
        widthPx={image.widthPx}
        heightPx={image.heightPx}
        alt={frame.frame.label}
        className="panzoom-detail"
        testId="frame-shot"
        {...(moving ? { onPick: (pixel) => void decide(moving, { kind: 'edit', anchor: pictureToDrawing(pixel, geometry.transform) }) } : {})}
      >
        {highlight && (
          <div
            className="finding-box"
            data-testid="finding-highlight"
            style={{ left: `${highlight.left}%`, top: `${highlight.top}%`, width: `${Math.max(highlight.width, 0.8)}%`, height: `${Math.max(highlight.height, 0.8)}%` }}
          />
        )}
        {findings.map((finding) => {
          const at = drawingToPercent(markerPoint(finding), geometry);
          if (!onPicture(at)) return null;
          const isSelected = finding.id === selected;
          return (
            <button
              key={finding.id}
              type="button"
              className={`marker sev-${finding.severity} state-${finding.annotation.state}${isSelected ? ' selected' : ''}`}
              style={{ left: `${at.left}%`, top: `${at.top}%` }}
              data-testid={`marker-${numbers.get(finding.id)}`}
              data-selected={isSelected ? 'true' : 'false'}
              title={finding.message}
              onMouseDown={(e) => e.stopPropagation()}
              onMouseUp={(e) => e.stopPropagation()}
              onClick={() => selectFinding(finding.id)}
            >
              {numbers.get(finding.id)}
            </button>
          );
        })}
      </PanZoom>
    </div>
  );
}
