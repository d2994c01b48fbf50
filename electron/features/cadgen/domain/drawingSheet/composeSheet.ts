import type { SheetEntity, SheetPoint, SheetSpec } from '../../../../../shared/drawingSheet';
import type { Claim } from '../claims';
import type { ProjectionMethod } from '../drawingViews';
import type { TopologySnapshot } from '../topology';
import { distanceToLine, parallel } from '../vec3';
import type { Vec3 } from '../vec3';
import { findBores } from '../verifiers/bores';
import { planDimensions } from './claimDimensions';
import type { ClaimDimensionEntry, DimView, PlannedDimension } from './claimDimensions';
import { BINDING_MARGIN, frameEntities, SHEET_FORMATS, TITLE_BLOCK } from './sheetFrame';
import type { SheetFormat, SheetLanguage, TitleBlockValues } from './sheetFrame';
import { viewEntities } from './viewGeometry';

/** The three orthographic views as the kernel projected them (SVG path data). */
export interface SheetViews {
  front: { visible: string[]; hidden: string[] };
  top: { visible: string[]; hidden: string[] };
  /** The left view (first angle) or the right view (third angle). */
  side: { visible: string[]; hidden: string[] };
  /** A full section A–A drawn in place of the front view: its visible edges and each cut face's loops ([x, z, …], outer first). */
  section?: { planeY: number; visible: string[]; faces: number[][][] };
}

/**
 * Where a full front section is worth drawing: through the axis of the largest bore not seen
 * end-on from the front (its inside would otherwise be hidden lines). Undefined without one.
 */
export function sectionPlaneY(snapshot: TopologySnapshot): number | undefined {
  const bores = findBores(snapshot).filter((b) => !parallel(b.axis.direction, [0, 1, 0], 1e-6));
  const main = bores.reduce<(typeof bores)[number] | undefined>((best, b) => (!best || b.diameter_mm > best.diameter_mm ? b : best), undefined);
  return main?.axis.origin[1];
}

export interface ComposeSheetInput {
  views: SheetViews;
  snapshot: TopologySnapshot;
  claims: Claim[];
  method: ProjectionMethod;
  format: SheetFormat | 'auto';
  lang: SheetLanguage;
  titleBlock: Omit<TitleBlockValues, 'scale'>;
}

/** Where a view's model origin sits on the sheet (model units): sheet = offset + (u, v). */
export interface ViewPlacement {
  offset: SheetPoint;
}

export interface ComposedSheet {
  spec: SheetSpec;
  format: SheetFormat;
  /** "1:2", "1:1", "2:1". */
  scale: string;
  placements: Record<DimView, ViewPlacement>;
  claims: ClaimDimensionEntry[];
  dimensions: (PlannedDimension & { text: string })[];
}

/** GB/T 14690 preferred scales as paper mm per model mm, largest first. */
const PREFERRED_SCALES = [5, 2, 1, 1 / 2, 1 / 5, 1 / 10, 1 / 20, 1 / 50, 1 / 100];
/** Paper millimetres between views and around them (room for dimensions). */
const VIEW_GAP = 24;
const AREA_MARGIN = 18;

const scaleText = (s: number): string => (s >= 1 ? `${s}:1` : `1:${Math.round(1 / s)}`);

/** Drawing coordinates (u right, v up) of a model point in each view. */
function project(view: DimView, method: ProjectionMethod, p: Vec3): SheetPoint {
  if (view === 'front') return { x: p[0], y: p[2] };
  if (view === 'top') return { x: p[0], y: p[1] };
  return method === 'first_angle' ? { x: -p[1], y: p[2] } : { x: p[1], y: p[2] };
}

function viewBox(view: DimView, method: ProjectionMethod, snapshot: TopologySnapshot): { u0: number; u1: number; v0: number; v1: number } {
  const { min, max } = snapshot.measurements.bbox;
  const pts: SheetPoint[] = [];
  for (const x of [min[0], max[0]]) for (const y of [min[1], max[1]]) for (const z of [min[2], max[2]]) pts.push(project(view, method, [x, y, z]));
  return { u0: Math.min(...pts.map((p) => p.x)), u1: Math.max(...pts.map((p) => p.x)), v0: Math.min(...pts.map((p) => p.y)), v1: Math.max(...pts.map((p) => p.y)) };
}

/**
 * Paper area for the views: inside the border, above the title block and its general-tolerance
 * note; wider bands left and below (location chains) and on top (the section's A—A label).
 */
function viewArea(format: SheetFormat): { x0: number; y0: number; x1: number; y1: number } {
  const { width, height, margin } = SHEET_FORMATS[format];
  return { x0: BINDING_MARGIN + AREA_MARGIN + 4, y0: margin + TITLE_BLOCK.rows * TITLE_BLOCK.rowHeight + AREA_MARGIN + 4, x1: width - margin - AREA_MARGIN, y1: height - margin - AREA_MARGIN - 8 };
}

function fits(format: SheetFormat, s: number, w: number, h: number): boolean {
  const a = viewArea(format);
  return w * s + VIEW_GAP <= a.x1 - a.x0 && h * s + VIEW_GAP <= a.y1 - a.y0;
}

/**
 * The sheet and scale: a given format takes the largest preferred scale that fits; "auto" takes
 * the smallest of A4, A3, A2 that holds the views at 1:1 or larger, else A3 at the largest fitting reduction.
 */
export function chooseSheet(format: SheetFormat | 'auto', w: number, h: number): { format: SheetFormat; s: number } {
  const largest = (f: SheetFormat): number => PREFERRED_SCALES.find((s) => fits(f, s, w, h)) ?? (PREFERRED_SCALES[PREFERRED_SCALES.length - 1] as number);
  if (format !== 'auto') return { format, s: largest(format) };
  for (const f of ['A4', 'A3', 'A2'] as const) if (largest(f) >= 1) return { format: f, s: largest(f) };
  return { format: 'A3', s: largest('A3') };
}

const DIM_TEXT: Record<PlannedDimension['kind'], (d: PlannedDimension) => string> = {
  extent: () => '<>',
  location: () => '<>',
  radius: () => 'R<>',
  angle: () => '<>%%d',
  diameter: (d) => (d.kind === 'diameter' && d.count > 1 ? `${d.count}×%%c<>${d.pattern ? ' EQS' : ''}` : '%%c<>'),
  pcd: () => '%%c<>',
};

/**
 * Composes a GB part drawing: frame and title block, the front, top and side views placed per
 * the projection method (front/top share x, front/side share the height), centre lines and
 * centre marks on every bore, and one DIMENSION per planned claim dimension. Pure.
 */
export function composeSheet(input: ComposeSheetInput): ComposedSheet {
  const { method, snapshot } = input;
  const boxes = { front: viewBox('front', method, snapshot), top: viewBox('top', method, snapshot), side: viewBox('side', method, snapshot) };
  const wF = boxes.front.u1 - boxes.front.u0;
  const hF = boxes.front.v1 - boxes.front.v0;
  const wS = boxes.side.u1 - boxes.side.u0;
  const hT = boxes.top.v1 - boxes.top.v0;
  const plan = planDimensions(input.claims, snapshot);
  const { format, s } = chooseSheet(input.format, wF + wS, hF + hT);
  const k = 1 / s;
  const area = viewArea(format);
  const needW = (wF + wS) * s + VIEW_GAP;
  const needH = (hF + hT) * s + VIEW_GAP;
  const left = (area.x0 + (area.x1 - area.x0 - needW) / 2) * k;
  const bottom = (area.y0 + (area.y1 - area.y0 - needH) / 2) * k;
  const gap = VIEW_GAP * k;
  // First angle: top view below the front view; third angle: above it. The side view is right of the front.
  const frontBottom = method === 'first_angle' ? bottom + hT + gap : bottom;
  const topBottom = method === 'first_angle' ? bottom : bottom + hF + gap;
  const placements: Record<DimView, ViewPlacement> = {
    front: { offset: { x: left - boxes.front.u0, y: frontBottom - boxes.front.v0 } },
    top: { offset: { x: left - boxes.top.u0, y: topBottom - boxes.top.v0 } },
    side: { offset: { x: left + wF + gap - boxes.side.u0, y: frontBottom - boxes.side.v0 } },
  };
  const place = (view: DimView, p: SheetPoint): SheetPoint => ({ x: placements[view].offset.x + p.x, y: placements[view].offset.y + p.y });
  const at3 = (view: DimView, p: Vec3): SheetPoint => place(view, project(view, method, p));

  const entities: SheetEntity[] = frameEntities(format, k, { ...input.titleBlock, scale: scaleText(s) }, input.lang, method);
  const section = input.views.section;
  for (const view of ['front', 'top', 'side'] as const) {
    const lines = view === 'front' && section ? viewEntities(section.visible, []) : viewEntities(input.views[view].visible, input.views[view].hidden);
    for (const e of lines) {
      if (e.kind === 'line') entities.push({ ...e, from: place(view, e.from), to: place(view, e.to) });
      else entities.push({ ...e, center: place(view, e.center) });
    }
  }
  entities.push(...centreLines(snapshot, method, k, at3, boxes, placements));
  if (section) entities.push(...sectionMarks(section, k, place, boxes, input.lang));

  const dimensions: ComposedSheet['dimensions'] = [];
  const leaderSlots = new Map<DimView, number>();
  const LEADER_ANGLES = [45, 135, 315, 225, 60, 120];
  for (const d of plan.dimensions) {
    const text = DIM_TEXT[d.kind](d);
    dimensions.push({ ...d, text });
    const tolerance = d.tolerance ? { tolerance: d.tolerance } : {};
    if (d.kind === 'extent') {
      const box = boxes[d.view];
      if (d.axis === 2) {
        const p1 = place(d.view, { x: box.u0, y: box.v0 });
        const p2 = place(d.view, { x: box.u0, y: box.v1 });
        entities.push({ kind: 'dimension', type: 'linear', p1, p2, at: { x: p1.x - 10 * k, y: p1.y }, angleDeg: 90, text, ...tolerance });
      } else {
        const p1 = place(d.view, { x: box.u0, y: box.v1 });
        const p2 = place(d.view, { x: box.u1, y: box.v1 });
        entities.push({ kind: 'dimension', type: 'linear', p1, p2, at: { x: p1.x, y: p1.y + 10 * k }, angleDeg: 0, text, ...tolerance });
      }
      continue;
    }
    if (d.kind === 'location') {
      // One chain per view and direction: below the view for horizontal distances, left of it for vertical ones (past the section marks and the front view's height extent).
      const p1 = at3(d.view, d.from);
      const p2 = at3(d.view, d.to);
      const box = boxes[d.view];
      const off = placements[d.view].offset;
      const horizontal = Math.abs(p2.x - p1.x) > Math.abs(p2.y - p1.y);
      const at = horizontal ? { x: p1.x, y: off.y + box.v0 - 10 * k } : { x: off.x + box.u0 - (d.view === 'front' ? 22 : 16) * k, y: p1.y };
      entities.push({ kind: 'dimension', type: 'linear', p1, p2, at, angleDeg: horizontal ? 0 : 90, text, ...tolerance });
      continue;
    }
    if (d.kind === 'angle') {
      const vertex = at3(d.view, d.vertex);
      const rays = d.rays.map((r) => at3(d.view, r));
      const dir = rays.map((r) => Math.atan2(r.y - vertex.y, r.x - vertex.x)) as [number, number];
      const ccw = (((dir[1] - dir[0]) * 180) / Math.PI + 360) % 360;
      // The writer measures counter-clockwise from p1 to p2: start from the ray that sweeps the material angle.
      const forward = Math.abs(ccw - d.value) < Math.abs(360 - ccw - d.value);
      // An angle under 180° is drawn between the faces' extensions beyond the vertex (the vertical angle, equal), off the part.
      const outside = d.value < 180 ? rays.map((r) => ({ x: 2 * vertex.x - r.x, y: 2 * vertex.y - r.y })) : rays;
      const [p1, p2] = (forward ? outside : [...outside].reverse()) as [SheetPoint, SheetPoint];
      const mid = Math.atan2(p1.y - vertex.y, p1.x - vertex.x) + ((forward ? ccw : 360 - ccw) * Math.PI) / 360;
      const reach = 16 * k;
      entities.push({ kind: 'dimension', type: 'angular', center: vertex, p1, p2, at: { x: vertex.x + Math.cos(mid) * reach, y: vertex.y + Math.sin(mid) * reach }, text, ...tolerance });
      continue;
    }
    if (d.kind === 'radius') {
      const centre = at3(d.view, d.centre);
      const tip = at3(d.view, [d.centre[0] + d.outward[0], d.centre[1] + d.outward[1], d.centre[2] + d.outward[2]]);
      const len = Math.hypot(tip.x - centre.x, tip.y - centre.y) || 1;
      // An inside fillet's leader crosses the material to the far side: the text goes clear of the part's corner.
      const reach = d.radius + (d.concave ? 25 : 12) * k;
      entities.push({ kind: 'dimension', type: 'radius', center: centre, radius: d.radius, at: { x: centre.x + ((tip.x - centre.x) / len) * reach, y: centre.y + ((tip.y - centre.y) / len) * reach }, text, ...tolerance });
      continue;
    }
    const slot = leaderSlots.get(d.view) ?? 0;
    leaderSlots.set(d.view, slot + 1);
    const centre = at3(d.view, d.centre);
    const radius = d.kind === 'pcd' ? d.value / 2 : d.radius;
    let angle = ((LEADER_ANGLES[slot % LEADER_ANGLES.length] as number) * Math.PI) / 180;
    if (d.kind === 'diameter' && d.pattern) {
      // Point the hole's leader away from the pattern centre.
      const pc = at3(d.view, d.pattern.centre);
      const away = Math.atan2(centre.y - pc.y, centre.x - pc.x);
      angle = Math.hypot(centre.x - pc.x, centre.y - pc.y) > 1e-9 ? away + Math.PI / 4 : angle;
    }
    const reach = radius + 12 * k;
    entities.push({ kind: 'dimension', type: 'diameter', center: centre, radius, at: { x: centre.x + Math.cos(angle) * reach, y: centre.y + Math.sin(angle) * reach }, text, ...tolerance });
  }
  return { spec: { scaleFactor: k, entities }, format, scale: scaleText(s), placements, claims: plan.claims, dimensions };
}

/**
 * The section's hatching (剖面线, ANSI31) over the cut faces, the cutting plane in the top view
 * (thick strokes beyond the outline, arrows in the viewing direction, letters A) and the
 * "A–A" label above the sectioned front view (GB/T 4458.6).
 */
function sectionMarks(section: NonNullable<SheetViews['section']>, k: number, place: (view: DimView, p: SheetPoint) => SheetPoint, boxes: Record<DimView, { u0: number; u1: number; v0: number; v1: number }>, lang: SheetLanguage): SheetEntity[] {
  const out: SheetEntity[] = [];
  for (const face of section.faces) {
    const loops = face.map((loop) => {
      const points: SheetPoint[] = [];
      for (let i = 0; i + 1 < loop.length; i += 2) points.push(place('front', { x: loop[i] as number, y: loop[i + 1] as number }));
      return points;
    });
    if ((loops[0]?.length ?? 0) >= 3) out.push({ kind: 'hatch', layer: '剖面线', loops: loops.filter((l) => l.length >= 3) });
  }
  const top = boxes.top;
  for (const [from, to, dir] of [
    [top.u0 - 8 * k, top.u0 - 3 * k, -1],
    [top.u1 + 3 * k, top.u1 + 8 * k, 1],
  ] as const) {
    const a = place('top', { x: from, y: section.planeY });
    const b = place('top', { x: to, y: section.planeY });
    out.push({ kind: 'line', layer: '粗实线', from: a, to: b });
    // Viewing direction +Y: the arrow points up the sheet from the outer end of the stroke.
    const end = dir < 0 ? a : b;
    const tip = { x: end.x, y: end.y + 7 * k };
    out.push({ kind: 'line', layer: '细实线', from: end, to: tip });
    out.push({ kind: 'solid', layer: '细实线', points: [tip, { x: tip.x - 0.5 * k, y: tip.y - 3 * k }, { x: tip.x + 0.5 * k, y: tip.y - 3 * k }] });
    out.push({ kind: 'text', layer: '文字', at: { x: end.x + dir * 3 * k, y: end.y + 2 * k }, height: 5 * k, text: 'A', align: 'center' });
  }
  const label = place('front', { x: (boxes.front.u0 + boxes.front.u1) / 2, y: boxes.front.v1 });
  out.push({ kind: 'text', layer: '文字', at: { x: label.x, y: label.y + 18 * k }, height: 5 * k, text: lang === 'zh-CN' ? 'A—A' : 'A-A', align: 'center' });
  return out;
}

/**
 * Full cylinders (bores and bosses) grouped by axis line; each group's centre lines are sized by
 * its largest radius, so concentric circles share one cross (GB/T 4457.4).
 */
function roundFeatures(snapshot: TopologySnapshot): { origin: Vec3; direction: Vec3; radius: number }[] {
  const groups: { origin: Vec3; direction: Vec3; radius: number }[] = [];
  for (const f of snapshot.faces) {
    if (f.kind !== 'cylinder' || !f.axis || f.radius_mm === undefined || (f.angle_span_deg ?? 360) < 359) continue;
    const same = groups.find((g) => parallel(g.direction, f.axis!.direction, 1e-6) && distanceToLine(f.axis!.origin, g.origin, g.direction) <= 1e-5);
    if (same) same.radius = Math.max(same.radius, f.radius_mm);
    else groups.push({ origin: f.axis.origin, direction: f.axis.direction, radius: f.radius_mm });
  }
  return groups;
}

/**
 * Centre lines (中心线, extending 3 mm past the outline): a cross on every bore seen end-on, the
 * axis of every bore seen from the side, and the pitch circle of bores arranged on one.
 */
function centreLines(snapshot: TopologySnapshot, method: ProjectionMethod, k: number, at3: (view: DimView, p: Vec3) => SheetPoint, boxes: Record<DimView, { u0: number; u1: number; v0: number; v1: number }>, placements: Record<DimView, ViewPlacement>): SheetEntity[] {
  const out: SheetEntity[] = [];
  const over = 3 * k;
  const line = (a: SheetPoint, b: SheetPoint): void => void out.push({ kind: 'line', layer: '中心线', from: a, to: b });
  const viewAxis: Record<DimView, Vec3> = { front: [0, 1, 0], top: [0, 0, 1], side: [1, 0, 0] };
  const seen = new Set<string>();
  for (const round of roundFeatures(snapshot)) {
    for (const view of ['front', 'top', 'side'] as const) {
      const c = at3(view, round.origin);
      const r = round.radius;
      if (parallel(round.direction, viewAxis[view], 1e-6)) {
        line({ x: c.x - r - over, y: c.y }, { x: c.x + r + over, y: c.y });
        line({ x: c.x, y: c.y - r - over }, { x: c.x, y: c.y + r + over });
        continue;
      }
      // Seen from the side: the axis across the part's extent along the axis direction.
      const box = boxes[view];
      const off = placements[view].offset;
      const vertical = Math.abs(project(view, method, round.direction).x) < 1e-9;
      const key = `${view}:${vertical ? 'v' : 'h'}:${(vertical ? c.x : c.y).toFixed(4)}`;
      if (seen.has(key)) continue;
      seen.add(key);
      if (vertical) line({ x: c.x, y: off.y + box.v0 - over }, { x: c.x, y: off.y + box.v1 + over });
      else line({ x: off.x + box.u0 - over, y: c.y }, { x: off.x + box.u1 + over, y: c.y });
    }
  }
  const bores = findBores(snapshot);
  // Pitch circles: three or more equal bores on one axis direction at one distance from their mean.
  const groups = new Map<string, typeof bores>();
  for (const b of bores) {
    const key = `${b.diameter_mm.toFixed(4)}:${b.axis.direction.map((v) => Math.abs(v).toFixed(3)).join(',')}`;
    groups.set(key, [...(groups.get(key) ?? []), b]);
  }
  for (const group of groups.values()) {
    if (group.length < 3) continue;
    const avg = (i: number): number => group.reduce((sum, b) => sum + (b.axis.origin[i] as number), 0) / group.length;
    const mean: Vec3 = [avg(0), avg(1), avg(2)];
    const dists = group.map((b) => Math.hypot(...([0, 1, 2].map((i) => ((b.axis.origin[i] as number) - (mean[i] as number)) * (1 - Math.abs(b.axis.direction[i] as number))) as [number, number, number])));
    const r = dists[0] as number;
    if (r < 1e-6 || dists.some((d) => Math.abs(d - r) > 1e-4)) continue;
    for (const view of ['front', 'top', 'side'] as const) {
      if (!parallel((group[0] as (typeof bores)[number]).axis.direction, viewAxis[view], 1e-6)) continue;
      out.push({ kind: 'circle', layer: '中心线', center: at3(view, mean), radius: r });
    }
  }
  return out;
}
