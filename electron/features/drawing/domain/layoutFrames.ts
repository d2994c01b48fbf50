import type { Box, DxfLayout } from './model';

/** Share of a viewport's model view that must lie in one model frame for the view to show that frame. */
const SHOWN_SHARE = 0.8;

interface FrameLike {
  kind: string;
  layout: string;
  bbox: Box;
}

/**
 * The model-space rectangle a paper viewport shows (twist ignored: it only matters for clipping,
 * not for which frame is shown). Viewport id 1 is the paper space's own view, not a model view.
 */
export function viewportModelBox(g: { width: number; height: number; viewCenter: { x: number; y: number }; viewHeight: number }): Box | undefined {
  if (!(g.height > 0 && g.width > 0 && g.viewHeight > 0)) return undefined;
  const halfW = (g.width * g.viewHeight) / g.height / 2;
  const halfH = g.viewHeight / 2;
  return { minX: g.viewCenter.x - halfW, minY: g.viewCenter.y - halfH, maxX: g.viewCenter.x + halfW, maxY: g.viewCenter.y + halfH };
}

function overlapShare(view: Box, frame: Box): number {
  const w = Math.min(view.maxX, frame.maxX) - Math.max(view.minX, frame.minX);
  const h = Math.min(view.maxY, frame.maxY) - Math.max(view.minY, frame.minY);
  const area = (view.maxX - view.minX) * (view.maxY - view.minY);
  return w > 0 && h > 0 && area > 0 ? (w * h) / area : 0;
}

/**
 * Drops paper layouts taken as frames only because they have content (no border of their own)
 * when that content is nothing but viewports onto model-space frames (or no model view at all):
 * the sheet is then the model frame seen again, and reviewing it twice doubles every finding.
 */
export function dropLayoutDuplicates<F extends FrameLike>(layouts: readonly DxfLayout[], frames: readonly F[]): F[] {
  const modelFrames = frames.filter((f) => f.layout.toUpperCase() === 'MODEL');
  if (modelFrames.length === 0) return [...frames];
  return frames.filter((frame) => {
    if (frame.kind !== 'layout') return true;
    const layout = layouts.find((l) => l.name === frame.layout);
    if (!layout || layout.entities.some((e) => e.geometry.kind !== 'viewport')) return true;
    const views = layout.entities.flatMap((e) => (e.geometry.kind === 'viewport' && e.geometry.id !== 1 ? [viewportModelBox(e.geometry)] : []));
    return !views.every((view) => view !== undefined && modelFrames.some((m) => overlapShare(view, m.bbox) >= SHOWN_SHARE));
  });
}
