import type { VisionRegion } from '../../store/visionSlice';

export interface Point {
  x: number;
  y: number;
}

export interface Box {
  left: number;
  top: number;
  width: number;
  height: number;
}

/** Boxes thinner than this fraction of the image are treated as a click, not a selection. */
const MIN_FRACTION = 0.01;

const clamp01 = (value: number): number => Math.min(1, Math.max(0, value));
/** Rounds to 4 decimals: plenty for a crop, and the numbers stay readable in logs. */
const round = (value: number): number => Math.round(value * 10_000) / 10_000;

/**
 * The region (fractions of the image) spanned by two pointer positions in page pixels over the
 * displayed image `box`. Points outside the image are clamped to its edge; the result always
 * satisfies x + width <= 1 and y + height <= 1. Returns null for a box too small to mean anything.
 */
export function regionFromPoints(a: Point, b: Point, box: Box): VisionRegion | null {
  if (box.width <= 0 || box.height <= 0) return null;
  const ax = clamp01((a.x - box.left) / box.width);
  const bx = clamp01((b.x - box.left) / box.width);
  const ay = clamp01((a.y - box.top) / box.height);
  const by = clamp01((b.y - box.top) / box.height);
  const x = round(Math.min(ax, bx));
  const y = round(Math.min(ay, by));
  const width = round(Math.min(Math.abs(ax - bx), 1 - x));
  const height = round(Math.min(Math.abs(ay - by), 1 - y));
  if (width < MIN_FRACTION || height < MIN_FRACTION) return null;
  return { x, y, width, height };
}
