import type { FrameEvidence } from './evidence';
import type { FindingLocation } from './finding';
import type { Frame } from './frame';
import { bboxHeight, bboxWidth, type BBox } from './geometry';

/**
 * A model finding must be confirmed by CAD data: at least one cited entity (handle or geometry
 * fingerprint) lying within this many paper millimetres of the finding's location, or a cited
 * title-block field when the finding sits in the title-block corner. A screenshot or a tool name
 * alone is a hypothesis.
 */
export const SUPPORT_DISTANCE_PAPER_MM = 20;

/** Where each citable entity of a frame is: entities by box, texts and dimensions by position. */
export function entityBoxes(evidence: Pick<FrameEvidence, 'entities' | 'texts' | 'dimensions'>): Map<string, BBox> {
  const boxes = new Map<string, BBox>();
  const at = (p: { x: number; y: number }): BBox => ({ minX: p.x, minY: p.y, maxX: p.x, maxY: p.y });
  for (const e of evidence.entities) if (e.bbox) boxes.set(`entity:${e.handle}`, e.bbox);
  for (const t of evidence.texts) boxes.set(`entity:${t.handle}`, at(t.position));
  for (const d of evidence.dimensions) if (d.position) boxes.set(`entity:${d.handle}`, at(d.position));
  return boxes;
}

function locationBox(location: FindingLocation): BBox {
  return location.kind === 'bbox' ? location.bbox : { minX: location.point.x, minY: location.point.y, maxX: location.point.x, maxY: location.point.y };
}

/** Gap between two boxes (0 when they touch or overlap). */
export function boxGap(a: BBox, b: BBox): number {
  const dx = Math.max(0, a.minX - b.maxX, b.minX - a.maxX);
  const dy = Math.max(0, a.minY - b.maxY, b.minY - a.maxY);
  return Math.hypot(dx, dy);
}

/** GB/T 10609.1 / ISO 7200 title-block corner: the bottom-right part of the frame. */
function titleBlockCorner(frame: Frame): BBox {
  const { bbox } = frame;
  return { minX: bbox.minX + bboxWidth(bbox) * 0.4, minY: bbox.minY, maxX: bbox.maxX, maxY: bbox.minY + bboxHeight(bbox) * 0.35 };
}

/** Whether `refs` contain CAD evidence at or near `location` (see SUPPORT_DISTANCE_PAPER_MM). */
export function isCadSupported(
  refs: readonly string[],
  location: FindingLocation,
  context: { frame: Frame; boxes: ReadonlyMap<string, BBox>; unitsPerPaperMm: number },
): boolean {
  const target = locationBox(location);
  const near = SUPPORT_DISTANCE_PAPER_MM * context.unitsPerPaperMm;
  return refs.some((ref) => {
    const box = context.boxes.get(ref);
    if (box) return boxGap(box, target) <= near;
    return ref.startsWith(`titleblock:${context.frame.id}/`) && boxGap(titleBlockCorner(context.frame), target) <= near;
  });
}
