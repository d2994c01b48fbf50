import type { Point } from './regionSelection';

/** Lightbox view: `scale` over the fitted image (1 = fit), then a translation in screen pixels. */
export interface View {
  scale: number;
  x: number;
  y: number;
}

export const MIN_SCALE = 1;
/** 16 × the fitted size: a 4000 px drawing fitted to ~1000 px is then read at 4 screen px per pixel. */
export const MAX_SCALE = 16;

/**
 * Zooms by `factor` keeping the image point under `at` (screen pixels from the frame's origin)
 * where it is. The scale stays within [MIN_SCALE, MAX_SCALE]; at the fitted size the view recentres.
 */
export function zoomAt(view: View, factor: number, at: Point): View {
  const scale = Math.min(MAX_SCALE, Math.max(MIN_SCALE, view.scale * factor));
  if (scale === MIN_SCALE) return { scale, x: 0, y: 0 };
  const ratio = scale / view.scale;
  return { scale, x: at.x - (at.x - view.x) * ratio, y: at.y - (at.y - view.y) * ratio };
}

/** Moves the view by (dx, dy) screen pixels; the fitted view does not move. */
export function panBy(view: View, dx: number, dy: number): View {
  return view.scale === MIN_SCALE ? view : { ...view, x: view.x + dx, y: view.y + dy };
}
