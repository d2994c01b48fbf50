import { useEffect } from 'react';
import { useApp, useT } from '../../../store/StoreContext';
import type { FindingView } from '../../../store/reviewSlice';
import { spreadMarkers } from '../markerGeometry';
import type { OverlayContext } from './DrawingViewer';

/** Entity handles a finding cites ("entity:<handle>" evidence refs), at most a few. */
export const citedHandles = (finding: FindingView): string[] =>
  finding.evidenceRefs.filter((r) => r.startsWith('entity:')).map((r) => r.slice('entity:'.length)).filter((h) => /^[0-9A-Fa-f]{1,16}$/.test(h)).slice(0, 12);

const writes = (f: FindingView): 'preview' | 'written' | null =>
  f.annotation.state === 'written' ? 'written' : f.annotation.state === 'approved' || f.annotation.state === 'edited' ? 'preview' : null;

/**
 * A run's findings over the viewer: numbered markers beside (not on) the value they flag, the
 * selected finding's cited entities highlighted, the leaders that "Write" will add (dashed) and
 * the ones already written (solid).
 */
export function FindingOverlay({ ctx, findings, numbers }: { ctx: OverlayContext; findings: FindingView[]; numbers: Map<string, number> }) {
  const t = useT();
  const selected = useApp((s) => s.selectedFindingId);
  const selectFinding = useApp((s) => s.selectFinding);
  const cited = useApp((s) => s.citedEntities);
  const loadCitedEntity = useApp((s) => s.loadCitedEntity);
  const selectedFinding = findings.find((f) => f.id === selected);
  const handles = selectedFinding ? citedHandles(selectedFinding) : [];
  const handleKey = handles.join(',');
  useEffect(() => {
    if (handleKey) for (const h of handleKey.split(',')) void loadCitedEntity(h);
  }, [handleKey, loadCitedEntity]);

  const boxes = handles.flatMap((h) => {
    const e = cited[h.toUpperCase()];
    return e && !('error' in e) && e.bbox ? [{ handle: e.handle, box: e.bbox }] : [];
  });
  // Without a cited entity on this sheet, the finding's own location is what is highlighted.
  const fallback = selectedFinding && boxes.length === 0 && selectedFinding.location.kind === 'bbox' ? selectedFinding.location.bbox : null;
  const anchors = findings.map((f) => ({ id: f.id, ...ctx.toScreen(f.annotation.anchor), away: ctx.toScreen(f.annotation.textAt) }));
  const inView = (p: { x: number; y: number }) => p.x >= -40 && p.y >= -40 && p.x <= ctx.size.width + 40 && p.y <= ctx.size.height + 40;
  const markers = spreadMarkers(anchors.filter(inView));
  const leaders = findings.flatMap((f) => {
    const kind = writes(f);
    return kind ? [{ f, kind, a: ctx.toScreen(f.annotation.anchor), b: ctx.toScreen(f.annotation.textAt) }] : [];
  });
  const n = (f: FindingView) => numbers.get(f.id) ?? 0;
  return (
    <>
      {boxes.map(({ handle, box }) => {
        const r = ctx.boxToScreen(box);
        return <div key={handle} className="finding-box" data-testid="cited-entity" data-handle={handle} style={{ left: `${r.left - 3}px`, top: `${r.top - 3}px`, width: `${r.width + 6}px`, height: `${r.height + 6}px` }} />;
      })}
      {fallback && (() => {
        const r = ctx.boxToScreen(fallback);
        return <div className="finding-box" data-testid="finding-highlight" style={{ left: `${r.left}px`, top: `${r.top}px`, width: `${Math.max(r.width, 8)}px`, height: `${Math.max(r.height, 8)}px` }} />;
      })()}
      <svg className="viewer-svg" width={ctx.size.width} height={ctx.size.height} aria-hidden="true">
        {leaders.map(({ f, kind, a, b }) => (
          <g key={f.id} className={`leader leader-${kind}`} data-testid={`leader-${kind}-${n(f)}`}>
            <line x1={a.x} y1={a.y} x2={b.x} y2={b.y} />
            <circle cx={a.x} cy={a.y} r={3} />
            <text x={b.x + 4} y={b.y - 4}>
              {f.annotation.text}
            </text>
          </g>
        ))}
        {markers.map((m) => (
          <line key={m.id} className="marker-tick" x1={m.at.x} y1={m.at.y} x2={m.anchor.x} y2={m.anchor.y} />
        ))}
      </svg>
      {markers.map((m) => {
        const f = findings.find((x) => x.id === m.id) as FindingView;
        const isSelected = f.id === selected;
        return (
          <button
            key={f.id}
            type="button"
            className={`marker sev-${f.severity} state-${f.annotation.state}${isSelected ? ' selected' : ''}`}
            style={{ left: `${m.at.x}px`, top: `${m.at.y}px` }}
            data-testid={`marker-${n(f)}`}
            data-selected={isSelected ? 'true' : 'false'}
            title={f.message}
            aria-label={t('review.viewer.marker', { n: n(f), message: f.message })}
            onMouseDown={(e) => e.stopPropagation()}
            onMouseUp={(e) => e.stopPropagation()}
            onClick={() => selectFinding(f.id)}
          >
            {n(f)}
          </button>
        );
      })}
    </>
  );
}
