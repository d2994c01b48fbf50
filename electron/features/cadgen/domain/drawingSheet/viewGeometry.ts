import type { SheetEntity, SheetLayer, SheetPoint } from '../../../../../shared/drawingSheet';

/** Sheet entities of one projected view before placement: drawing coordinates (x right, y up), model mm. */
export type ViewEntity = Extract<SheetEntity, { kind: 'line' | 'circle' | 'arc' }>;

const EPS = 1e-6;

interface Segment {
  kind: 'L';
  a: SheetPoint;
  b: SheetPoint;
}
interface ArcPiece {
  kind: 'A';
  center: SheetPoint;
  radius: number;
  /** Counter-clockwise in drawing coordinates. */
  startDeg: number;
  sweepDeg: number;
}

/** Centre of an SVG circular arc (endpoint parameterisation, rx = ry), in SVG coordinates. */
function arcCentre(p: SheetPoint, q: SheetPoint, r: number, large: boolean, sweep: boolean): SheetPoint {
  const mx = (p.x + q.x) / 2;
  const my = (p.y + q.y) / 2;
  const dx = (q.x - p.x) / 2;
  const dy = (q.y - p.y) / 2;
  const half = Math.hypot(dx, dy);
  const h = Math.sqrt(Math.max(0, r * r - half * half));
  const nx = -dy / (half || 1);
  const ny = dx / (half || 1);
  const sign = large !== sweep ? 1 : -1;
  return { x: mx + sign * h * nx, y: my + sign * h * ny };
}

/**
 * Parses replicad's SVG path data (M, L, A with rx = ry, Z; y down) into segments and arcs in
 * drawing coordinates (y up). Elliptical arcs (rx ≠ ry) are sampled as segments.
 */
function parsePath(d: string): (Segment | ArcPiece)[] {
  const tokens = d.match(/[MLAZ]|-?\d*\.?\d+(?:e[-+]?\d+)?/gi) ?? [];
  const out: (Segment | ArcPiece)[] = [];
  let i = 0;
  let cur: SheetPoint = { x: 0, y: 0 };
  let start: SheetPoint = cur;
  let cmd = 'M';
  const next = (): number => Number(tokens[i++]);
  while (i < tokens.length) {
    if (/^[MLAZ]$/i.test(tokens[i] as string)) cmd = (tokens[i++] as string).toUpperCase();
    if (cmd === 'M') {
      cur = { x: next(), y: next() };
      start = cur;
      cmd = 'L';
    } else if (cmd === 'L') {
      const p = { x: next(), y: next() };
      out.push({ kind: 'L', a: cur, b: p });
      cur = p;
    } else if (cmd === 'A') {
      const rx = next();
      const ry = next();
      next();
      const large = next() === 1;
      const sweep = next() === 1;
      const p = { x: next(), y: next() };
      if (Math.abs(rx - ry) > 1e-4 * Math.max(rx, 1)) out.push({ kind: 'L', a: cur, b: p });
      else {
        const c = arcCentre(cur, p, rx, large, sweep);
        // SVG's positive angle runs from +x towards +y (down): sweep=1 is clockwise once y points up.
        const a0 = (Math.atan2(-(cur.y - c.y), cur.x - c.x) * 180) / Math.PI;
        const a1 = (Math.atan2(-(p.y - c.y), p.x - c.x) * 180) / Math.PI;
        const turn = (v: number): number => ((v % 360) + 360) % 360;
        let sweepDeg = sweep ? turn(a0 - a1) : turn(a1 - a0);
        if (sweepDeg < EPS) sweepDeg = 360;
        const startDeg = sweep ? a1 : a0;
        out.push({ kind: 'A', center: { x: c.x, y: -c.y }, radius: rx, startDeg, sweepDeg });
      }
      cur = p;
    } else if (cmd === 'Z') {
      if (Math.hypot(cur.x - start.x, cur.y - start.y) > EPS) out.push({ kind: 'L', a: cur, b: start });
      cur = start;
      cmd = 'M';
      if (i < tokens.length && !/^[MLAZ]$/i.test(tokens[i] as string)) i++;
    } else i++;
  }
  return out.map((p) => (p.kind === 'L' ? { kind: 'L', a: { x: p.a.x, y: -p.a.y }, b: { x: p.b.x, y: -p.b.y } } : p));
}

const cross = (o: SheetPoint, a: SheetPoint, b: SheetPoint): number => (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x);

/** Joins consecutive collinear segments (replicad samples circles seen edge-on into many). */
function mergeCollinear(segments: Segment[]): Segment[] {
  const out: Segment[] = [];
  for (const s of segments) {
    const last = out[out.length - 1];
    if (last && Math.hypot(last.b.x - s.a.x, last.b.y - s.a.y) < EPS && Math.abs(cross(last.a, last.b, s.b)) < 1e-6 * Math.max(1, Math.hypot(s.b.x - last.a.x, s.b.y - last.a.y)) && (s.b.x - s.a.x) * (last.b.x - last.a.x) + (s.b.y - s.a.y) * (last.b.y - last.a.y) > 0) {
      last.b = s.b;
    } else out.push({ ...s });
  }
  return out.filter((s) => Math.hypot(s.b.x - s.a.x, s.b.y - s.a.y) > EPS);
}

/**
 * Whether segment `s` is covered by the union of `hosts` (collinear pieces together spanning it:
 * one model edge may come out of the projection in several paths).
 */
function covered(s: Segment, hosts: Segment[]): boolean {
  const len = Math.hypot(s.b.x - s.a.x, s.b.y - s.a.y);
  if (len < EPS) return true;
  const tol = 1e-4;
  const t = (p: SheetPoint): number => ((p.x - s.a.x) * (s.b.x - s.a.x) + (p.y - s.a.y) * (s.b.y - s.a.y)) / (len * len);
  const intervals = hosts
    .filter((h) => Math.abs(cross(s.a, s.b, h.a)) / len < tol && Math.abs(cross(s.a, s.b, h.b)) / len < tol)
    .map((h) => [Math.min(t(h.a), t(h.b)), Math.max(t(h.a), t(h.b))] as const)
    .sort((x, y) => x[0] - y[0]);
  let reach = 0;
  const slack = tol / len;
  for (const [lo, hi] of intervals) {
    if (lo > reach + slack) return false;
    reach = Math.max(reach, hi);
    if (reach >= 1 - slack) return true;
  }
  return reach >= 1 - slack;
}

function toEntities(pieces: (Segment | ArcPiece)[], layer: SheetLayer): ViewEntity[] {
  const out: ViewEntity[] = [];
  const segments = mergeCollinear(pieces.filter((p): p is Segment => p.kind === 'L'));
  for (const s of segments) out.push({ kind: 'line', layer, from: s.a, to: s.b });
  const arcs = pieces.filter((p): p is ArcPiece => p.kind === 'A');
  const circles = new Map<string, { center: SheetPoint; radius: number; sweep: number; arcs: ArcPiece[] }>();
  for (const a of arcs) {
    const key = `${a.center.x.toFixed(4)},${a.center.y.toFixed(4)},${a.radius.toFixed(4)}`;
    const group = circles.get(key) ?? { center: a.center, radius: a.radius, sweep: 0, arcs: [] };
    group.sweep += a.sweepDeg;
    group.arcs.push(a);
    circles.set(key, group);
  }
  for (const g of circles.values()) {
    if (Math.abs(g.sweep - 360) < 1e-3) out.push({ kind: 'circle', layer, center: g.center, radius: g.radius });
    else for (const a of g.arcs) out.push({ kind: 'arc', layer, center: a.center, radius: a.radius, startDeg: a.startDeg, endDeg: a.startDeg + a.sweepDeg });
  }
  return out;
}

const sameCurve = (a: ViewEntity, b: ViewEntity): boolean =>
  a.kind !== 'line' && b.kind !== 'line' && Math.hypot(a.center.x - b.center.x, a.center.y - b.center.y) < 1e-4 && Math.abs(a.radius - b.radius) < 1e-4;

/**
 * Visible edges (粗实线) and hidden edges (虚线) of one HLR view, in drawing coordinates. Hidden
 * edges that lie under a visible edge or repeat another hidden edge are dropped (a dashed line
 * over a solid one, or two dash patterns overlaid, reads as neither).
 */
export function viewEntities(visible: string[], hidden: string[]): ViewEntity[] {
  const shown = toEntities(visible.flatMap(parsePath), '粗实线');
  const visibleSegments: Segment[] = shown.flatMap((e) => (e.kind === 'line' ? [{ kind: 'L' as const, a: e.from, b: e.to }] : []));
  const kept: ViewEntity[] = [];
  for (const h of toEntities(hidden.flatMap(parsePath), '虚线')) {
    if (h.kind === 'line') {
      const seg: Segment = { kind: 'L', a: h.from, b: h.to };
      if (covered(seg, visibleSegments)) continue;
      if (covered(seg, kept.flatMap((k) => (k.kind === 'line' ? [{ kind: 'L' as const, a: k.from, b: k.to }] : [])))) continue;
    } else if (shown.some((v) => sameCurve(v, h)) || kept.some((k) => sameCurve(k, h))) continue;
    kept.push(h);
  }
  return [...shown, ...kept];
}
