import type { RuleParams } from '../checklist';
import type { EntitySummary } from '../evidence';
import { bboxCenter, bboxWidth, boxOfPoints, type BBox, type Point } from '../geometry';
import { draftFor, frameUnitsPerPaperMm, say, type FrameRule } from './context';

type ParamsOf<R extends RuleParams['rule']> = Extract<RuleParams, { rule: R }>;

/** Centre lines overshoot the circle (GB/T 4457.4: 2–5 mm); a line spanning 90 % of the diameter counts. */
const SPAN_SHARE = 0.9;
/** How far off the centre (share of the diameter) a mark may pass, for drawings with rounding noise. */
const CENTRE_SHARE = 0.02;

/** Whether a line-like entity passes through `c` along x or y across most of the diameter `d`. */
function marks(e: EntitySummary, c: Point, d: number): boolean {
  const b = e.bbox!;
  const thin = d * CENTRE_SHARE;
  const horizontal = b.maxY - b.minY <= thin * 2 && Math.abs((b.minY + b.maxY) / 2 - c.y) <= thin && b.minX <= c.x - (d * SPAN_SHARE) / 2 && b.maxX >= c.x + (d * SPAN_SHARE) / 2;
  const vertical = b.maxX - b.minX <= thin * 2 && Math.abs((b.minX + b.maxX) / 2 - c.x) <= thin && b.minY <= c.y - (d * SPAN_SHARE) / 2 && b.maxY >= c.y + (d * SPAN_SHARE) / 2;
  // A centre-mark block or a DIMCEN cross is a small symmetric insert at the centre.
  const symbol = e.type === 'INSERT' && Math.abs(bboxCenter(b).x - c.x) <= thin && Math.abs(bboxCenter(b).y - c.y) <= thin;
  return horizontal || vertical || symbol;
}

const MARKERS = new Set(['LINE', 'LWPOLYLINE', 'POLYLINE', 'INSERT', 'XLINE', 'RAY']);

/**
 * GEO-004 (GB/T 4457.4): a circle drawn as a hole or boss needs centre lines (or a centre mark)
 * through its centre. Concentric circles share them; circles smaller than minDiameterMm on paper
 * are skipped. One finding per frame lists the unmarked circles.
 */
export const circleCentreMarksRule: FrameRule<ParamsOf<'circle_centre_marks'>> = (item, params, { frame, evidence, locale }) => {
  const factor = frameUnitsPerPaperMm(frame);
  const markers = evidence.entities.filter((e) => MARKERS.has(e.type) && e.bbox !== undefined);
  const circles = evidence.entities.filter((e): e is EntitySummary & { bbox: BBox } => e.type === 'CIRCLE' && e.bbox !== undefined && bboxWidth(e.bbox) / factor >= params.minDiameterMm);
  const unmarked = circles.filter((circle) => {
    const c = bboxCenter(circle.bbox);
    // Judge against the largest circle of a concentric group: its centre lines cross the smaller ones too.
    const d = Math.max(...circles.filter((o) => Math.hypot(bboxCenter(o.bbox).x - c.x, bboxCenter(o.bbox).y - c.y) <= bboxWidth(circle.bbox) * CENTRE_SHARE).map((o) => bboxWidth(o.bbox)));
    return !markers.some((m) => marks(m, c, Math.min(d, bboxWidth(circle.bbox))));
  });
  if (unmarked.length === 0) return [];
  const box = boxOfPoints(unmarked.flatMap((e) => [{ x: e.bbox.minX, y: e.bbox.minY }, { x: e.bbox.maxX, y: e.bbox.maxY }]))!;
  return [
    draftFor(item, frame.id, {
      message: say(locale, `${unmarked.length} 个圆没有通过圆心的中心线或圆心标记。`, `${unmarked.length} circle(s) have no centre line or centre mark through their centre.`),
      evidenceRefs: ['tool:get_entities', ...unmarked.slice(0, 50).map((e) => `entity:${e.handle}`)],
      location: unmarked.length === 1 ? { kind: 'point', point: bboxCenter(unmarked[0]!.bbox) } : { kind: 'bbox', bbox: box },
      handles: unmarked.map((e) => e.handle),
      annotationText: say(locale, `${unmarked.length} 个圆缺中心线`, `${unmarked.length} circle(s) lack centre lines`),
    }),
  ];
};
