import type { RuleParams } from '../checklist';
import type { EntitySummary } from '../evidence';
import { bboxCenter, bboxWidth, boxOfPoints, type BBox, type Point } from '../geometry';
import { draftFor, frameUnitsPerPaperMm, paperScaleKnown, say, type FrameRule } from './context';

type ParamsOf<R extends RuleParams['rule']> = Extract<RuleParams, { rule: R }>;

/** Centre lines overshoot the circle (GB/T 4457.4: 2–5 mm); a line spanning 90 % of the diameter counts. */
const SPAN_SHARE = 0.9;
/** How far off the centre (share of the diameter) a mark may pass, for drawings with rounding noise. */
const CENTRE_SHARE = 0.02;

/** Distance from `c` to the segment a→b. */
function toSegment(c: Point, a: Point, b: Point): number {
  const dx = b.x - a.x;
  const dy = b.y - a.y;
  const t = dx === 0 && dy === 0 ? 0 : Math.max(0, Math.min(1, ((c.x - a.x) * dx + (c.y - a.y) * dy) / (dx * dx + dy * dy)));
  return Math.hypot(c.x - (a.x + t * dx), c.y - (a.y + t * dy));
}

/**
 * Whether an entity marks the centre `c` of a circle of diameter `d`. A LINE is one of its box's
 * diagonals, so a line through the centre (any direction: bolt holes on a pitch circle have radial
 * ones) lies on one of them and spans most of the diameter. A centre-line circle through the
 * centre is a pitch circle. A small insert centred on it is a centre-mark symbol.
 */
function marks(e: EntitySummary, c: Point, d: number, centreLayer: boolean): boolean {
  const b = e.bbox!;
  const tol = d * CENTRE_SHARE;
  if (e.type === 'CIRCLE') {
    return centreLayer && Math.abs(Math.hypot(bboxCenter(b).x - c.x, bboxCenter(b).y - c.y) - bboxWidth(b) / 2) <= tol;
  }
  if (e.type === 'INSERT') return Math.abs(bboxCenter(b).x - c.x) <= tol && Math.abs(bboxCenter(b).y - c.y) <= tol;
  if (Math.hypot(b.maxX - b.minX, b.maxY - b.minY) < d * SPAN_SHARE) return false;
  const diagonals: [Point, Point][] = [
    [{ x: b.minX, y: b.minY }, { x: b.maxX, y: b.maxY }],
    [{ x: b.minX, y: b.maxY }, { x: b.maxX, y: b.minY }],
  ];
  if (e.type !== 'LINE') {
    // Polylines: only axis-parallel ones are judged by their box (a thin box through the centre).
    const thin = b.maxX - b.minX <= tol * 2 || b.maxY - b.minY <= tol * 2;
    return thin && diagonals.some(([p, q]) => toSegment(c, p, q) <= tol);
  }
  return diagonals.some(([p, q]) => toSegment(c, p, q) <= tol);
}

/** Layers drawn dash-dot or named for centre lines (GB/T 4457.4 细点画线). */
const CENTRE_LAYER_NAME = /中心|点画|cent(er|re)|axis/i;
const CENTRE_LINETYPE = /cent(er|re)|dash.?dot|点画|ISO0[4-9]W|ISO1[0-4]W/i;

const MARKERS = new Set(['LINE', 'LWPOLYLINE', 'POLYLINE', 'INSERT', 'CIRCLE']);

/**
 * GEO-004 (GB/T 4457.4): a circle drawn as a hole or boss needs centre lines (or a centre mark)
 * through its centre. Concentric circles share them; circles smaller than minDiameterMm on paper
 * are skipped. One finding per frame lists the unmarked circles.
 */
export const circleCentreMarksRule: FrameRule<ParamsOf<'circle_centre_marks'>> = (item, params, { frame, evidence, locale, annotationLocale }) => {
  if (!paperScaleKnown(frame)) return [];
  const factor = frameUnitsPerPaperMm(frame);
  const centreLayers = new Set((evidence.layers ?? []).filter((l) => CENTRE_LAYER_NAME.test(l.name) || CENTRE_LINETYPE.test(l.lineType)).map((l) => l.name.toUpperCase()));
  const isCentre = (e: EntitySummary): boolean => centreLayers.has(e.layer.toUpperCase()) || CENTRE_LAYER_NAME.test(e.layer);
  const markers = evidence.entities.filter((e) => MARKERS.has(e.type) && e.bbox !== undefined);
  const circles = evidence.entities.filter((e): e is EntitySummary & { bbox: BBox } => e.type === 'CIRCLE' && e.bbox !== undefined && bboxWidth(e.bbox) / factor >= params.minDiameterMm);
  const unmarked = circles.filter((circle) => {
    const c = bboxCenter(circle.bbox);
    // Judge against the largest circle of a concentric group: its centre lines cross the smaller ones too.
    const d = Math.max(...circles.filter((o) => Math.hypot(bboxCenter(o.bbox).x - c.x, bboxCenter(o.bbox).y - c.y) <= bboxWidth(circle.bbox) * CENTRE_SHARE).map((o) => bboxWidth(o.bbox)));
    return !markers.some((m) => m !== circle && marks(m, c, Math.min(d, bboxWidth(circle.bbox)), isCentre(m)));
  });
  if (unmarked.length === 0) return [];
  const box = boxOfPoints(unmarked.flatMap((e) => [{ x: e.bbox.minX, y: e.bbox.minY }, { x: e.bbox.maxX, y: e.bbox.maxY }]))!;
  return [
    draftFor(item, frame.id, {
      message: say(locale, `${unmarked.length} 个圆没有通过圆心的中心线或圆心标记。`, `${unmarked.length} circle(s) have no centre line or centre mark through their centre.`),
      evidenceRefs: ['tool:get_entities', ...unmarked.slice(0, 50).map((e) => `entity:${e.handle}`)],
      location: unmarked.length === 1 ? { kind: 'point', point: bboxCenter(unmarked[0]!.bbox) } : { kind: 'bbox', bbox: box },
      handles: unmarked.map((e) => e.handle),
      annotationText: say(annotationLocale, `${unmarked.length} 个圆缺中心线`, `${unmarked.length} circle(s) lack centre lines`),
    }),
  ];
};
