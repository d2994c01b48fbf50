import { z } from 'zod';

/** A point in drawing coordinates (drawing units, y up). */
export const pointSchema = z.object({ x: z.number().finite(), y: z.number().finite() }).strict();
export type Point = z.infer<typeof pointSchema>;

/** An axis-aligned box in drawing coordinates. */
export const bboxSchema = z
  .object({ minX: z.number().finite(), minY: z.number().finite(), maxX: z.number().finite(), maxY: z.number().finite() })
  .strict()
  .refine((b) => b.minX <= b.maxX && b.minY <= b.maxY, { message: 'bbox min must not exceed max' });
export type BBox = z.infer<typeof bboxSchema>;

export const bboxWidth = (box: BBox): number => box.maxX - box.minX;
export const bboxHeight = (box: BBox): number => box.maxY - box.minY;
export const bboxCenter = (box: BBox): Point => ({ x: (box.minX + box.maxX) / 2, y: (box.minY + box.maxY) / 2 });

export function pointInBox(point: Point, box: BBox, tolerance = 0): boolean {
  return (
    point.x >= box.minX - tolerance && point.x <= box.maxX + tolerance && point.y >= box.minY - tolerance && point.y <= box.maxY + tolerance
  );
}

/** True when `inner` lies entirely inside `outer` (with an absolute tolerance). */
export function boxInBox(inner: BBox, outer: BBox, tolerance = 0): boolean {
  return pointInBox({ x: inner.minX, y: inner.minY }, outer, tolerance) && pointInBox({ x: inner.maxX, y: inner.maxY }, outer, tolerance);
}

export function boxesIntersect(a: BBox, b: BBox): boolean {
  return a.minX <= b.maxX && b.minX <= a.maxX && a.minY <= b.maxY && b.minY <= a.maxY;
}

/** Smallest box containing all points; undefined for an empty list. */
export function boxOfPoints(points: readonly Point[]): BBox | undefined {
  if (points.length === 0) return undefined;
  const xs = points.map((p) => p.x);
  const ys = points.map((p) => p.y);
  return { minX: Math.min(...xs), minY: Math.min(...ys), maxX: Math.max(...xs), maxY: Math.max(...ys) };
}

/**
 * Maps screenshot pixels (origin top-left, y down) to drawing coordinates (y up) and back.
 * `origin` is the drawing point at pixel (0,0); one pixel spans `unitsPerPixel` drawing units
 * on both axes (screenshots are rendered with a uniform scale, so text and circles keep shape).
 */
export const screenshotTransformSchema = z
  .object({
    origin: pointSchema,
    unitsPerPixel: z.number().positive().finite(),
  })
  .strict();
export type ScreenshotTransform = z.infer<typeof screenshotTransformSchema>;

export function pixelToDrawing(transform: ScreenshotTransform, pixel: Point): Point {
  return { x: transform.origin.x + pixel.x * transform.unitsPerPixel, y: transform.origin.y - pixel.y * transform.unitsPerPixel };
}

export function drawingToPixel(transform: ScreenshotTransform, point: Point): Point {
  return { x: (point.x - transform.origin.x) / transform.unitsPerPixel, y: (transform.origin.y - point.y) / transform.unitsPerPixel };
}

/** A pixel box (x,y top-left, w,h) converted to a drawing bbox. */
export function pixelBoxToDrawing(transform: ScreenshotTransform, box: { x: number; y: number; w: number; h: number }): BBox {
  const a = pixelToDrawing(transform, { x: box.x, y: box.y });
  const b = pixelToDrawing(transform, { x: box.x + box.w, y: box.y + box.h });
  return { minX: Math.min(a.x, b.x), minY: Math.min(a.y, b.y), maxX: Math.max(a.x, b.x), maxY: Math.max(a.y, b.y) };
}

/**
 * Splits `frame` into a grid of tiles so that text of height `minTextHeight` (drawing units)
 * renders at least `minTextPixels` tall in images whose long edge is `maxEdge` px. A frame
 * that is legible in one image yields itself; the grid never exceeds `maxTiles` (then
 * legibility is best effort and the caller reports it).
 */
export function planScreenshotTiles(
  frame: BBox,
  options: { minTextHeight: number; minTextPixels: number; maxEdge: number; maxTiles: number },
): BBox[] {
  const width = bboxWidth(frame);
  const height = bboxHeight(frame);
  const longEdge = Math.max(width, height);
  if (longEdge <= 0 || options.minTextHeight <= 0) return [frame];
  const neededPixelsPerUnit = options.minTextPixels / options.minTextHeight;
  const neededLongEdgePx = longEdge * neededPixelsPerUnit;
  let splits = Math.max(1, Math.ceil(neededLongEdgePx / options.maxEdge));
  while (splits > 1 && splits * splits > options.maxTiles) splits--;
  if (splits === 1) return [frame];
  const tiles: BBox[] = [];
  const stepX = width / splits;
  const stepY = height / splits;
  for (let row = 0; row < splits; row++) {
    for (let col = 0; col < splits; col++) {
      tiles.push({
        minX: frame.minX + col * stepX,
        minY: frame.minY + row * stepY,
        maxX: col === splits - 1 ? frame.maxX : frame.minX + (col + 1) * stepX,
        maxY: row === splits - 1 ? frame.maxY : frame.minY + (row + 1) * stepY,
      });
    }
  }
  return tiles;
}
