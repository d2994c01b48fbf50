/** Screenshot pixel (origin top-left, y down) ↔ drawing (y up), as the review's screenshots record it. */
export interface PictureTransform {
  origin: { x: number; y: number };
  unitsPerPixel: number;
}

export interface Shot {
  widthPx: number;
  heightPx: number;
  transform: PictureTransform;
}

/** Where a drawing point sits on the picture, in percent of its width and height (for overlays). */
export function drawingToPercent(point: { x: number; y: number }, shot: Shot): { left: number; top: number } {
  const px = (point.x - shot.transform.origin.x) / shot.transform.unitsPerPixel;
  const py = (shot.transform.origin.y - point.y) / shot.transform.unitsPerPixel;
  return { left: (px / shot.widthPx) * 100, top: (py / shot.heightPx) * 100 };
}

/** The drawing point under a picture pixel (a click that places an arrow tip). */
export function pictureToDrawing(pixel: { x: number; y: number }, transform: PictureTransform): { x: number; y: number } {
  return { x: transform.origin.x + pixel.x * transform.unitsPerPixel, y: transform.origin.y - pixel.y * transform.unitsPerPixel };
}

/** A drawing box as a percent rectangle on the picture (y flipped). */
export function boxToPercent(box: { minX: number; minY: number; maxX: number; maxY: number }, shot: Shot): { left: number; top: number; width: number; height: number } {
  const a = drawingToPercent({ x: box.minX, y: box.maxY }, shot);
  const b = drawingToPercent({ x: box.maxX, y: box.minY }, shot);
  return { left: a.left, top: a.top, width: b.left - a.left, height: b.top - a.top };
}

/** Float noise of the round trip through drawing units (percent). */
const EDGE_TOLERANCE = 1e-3;

/** True when a percent position lies on the picture (a finding of another region is not drawn). */
export const onPicture = (p: { left: number; top: number }): boolean =>
  p.left >= -EDGE_TOLERANCE && p.left <= 100 + EDGE_TOLERANCE && p.top >= -EDGE_TOLERANCE && p.top <= 100 + EDGE_TOLERANCE;
