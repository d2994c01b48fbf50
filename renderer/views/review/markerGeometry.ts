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

/** A marker's screen position and the anchor (the flagged value) it points at. */
export interface PlacedMarker {
  id: string;
  at: { x: number; y: number };
  anchor: { x: number; y: number };
}

/** Candidate directions around an anchor, up-right first (leaders usually go elsewhere). */
const DIRECTIONS = [-45, -90, 0, -135, 45, 180, 90, 135].map((deg) => (deg * Math.PI) / 180);

/** The directions ordered by how far they point from `away` (the leader's text): opposite first. */
function directionsAwayFrom(anchor: { x: number; y: number }, away: { x: number; y: number } | undefined): number[] {
  if (!away || (away.x === anchor.x && away.y === anchor.y)) return DIRECTIONS;
  const toward = Math.atan2(away.y - anchor.y, away.x - anchor.x);
  const gap = (a: number) => Math.abs(Math.atan2(Math.sin(a - toward), Math.cos(a - toward)));
  return [...DIRECTIONS].sort((a, b) => gap(b) - gap(a));
}

/**
 * Screen positions for numbered markers that do not sit on the value they flag, nor on the
 * leader text (`away`, kept on the far side when there is room), and do not overlap each other:
 * each marker goes `offset` pixels from its anchor in the first free direction (then on wider
 * rings), free meaning at least `size` from every placed marker and `offset` from every anchor.
 * Deterministic in input order.
 */
export function spreadMarkers(anchors: readonly { id: string; x: number; y: number; away?: { x: number; y: number } }[], size = 24, offset = 18): PlacedMarker[] {
  const placed: PlacedMarker[] = [];
  const clear = (p: { x: number; y: number }): boolean =>
    placed.every((m) => Math.hypot(m.at.x - p.x, m.at.y - p.y) >= size) && anchors.every((a) => Math.hypot(a.x - p.x, a.y - p.y) >= offset - 1e-9);
  for (const anchor of anchors) {
    const directions = directionsAwayFrom(anchor, anchor.away);
    let at: { x: number; y: number } | null = null;
    for (let ring = 1; !at; ring++) {
      const r = offset + (ring - 1) * size;
      for (const angle of directions) {
        const candidate = { x: anchor.x + Math.cos(angle) * r, y: anchor.y + Math.sin(angle) * r };
        if (clear(candidate)) {
          at = candidate;
          break;
        }
      }
    }
    placed.push({ id: anchor.id, at, anchor: { x: anchor.x, y: anchor.y } });
  }
  return placed;
}
