import type { Box, PolyVertex, Vec2 } from './model';

/** 2D affine transform [a b c d e f]: x' = a·x + c·y + e, y' = b·x + d·y + f. */
export type Affine = readonly [number, number, number, number, number, number];

export const IDENTITY: Affine = [1, 0, 0, 1, 0, 0];

export function apply(m: Affine, p: Vec2): Vec2 {
  return { x: m[0] * p.x + m[2] * p.y + m[4], y: m[1] * p.x + m[3] * p.y + m[5] };
}

/** m ∘ n: first n, then m. */
export function compose(m: Affine, n: Affine): Affine {
  return [
    m[0] * n[0] + m[2] * n[1],
    m[1] * n[0] + m[3] * n[1],
    m[0] * n[2] + m[2] * n[3],
    m[1] * n[2] + m[3] * n[3],
    m[0] * n[4] + m[2] * n[5] + m[4],
    m[1] * n[4] + m[3] * n[5] + m[5],
  ];
}

/** INSERT placement: translate(at) · rotate · scale · translate(-base). */
export function insertTransform(at: Vec2, scaleX: number, scaleY: number, rotationDeg: number, base: Vec2): Affine {
  const r = (rotationDeg * Math.PI) / 180;
  const cos = Math.cos(r);
  const sin = Math.sin(r);
  const a = cos * scaleX;
  const b = sin * scaleX;
  const c = -sin * scaleY;
  const d = cos * scaleY;
  return [a, b, c, d, at.x - (a * base.x + c * base.y), at.y - (b * base.x + d * base.y)];
}

/** Uniform scale factor of a transform (geometric mean of the axis scales). */
export function scaleOf(m: Affine): number {
  return Math.sqrt(Math.abs(m[0] * m[3] - m[1] * m[2]));
}

/** Rotation in degrees of the transformed x axis. */
export function rotationOf(m: Affine): number {
  return (Math.atan2(m[1], m[0]) * 180) / Math.PI;
}

/** Segments per full circle: enough to look round at screenshot sizes, bounded for huge arcs. */
const SEGMENTS_PER_TURN = 72;

export function arcPoints(center: Vec2, radius: number, startDeg: number, endDeg: number): Vec2[] {
  let sweep = endDeg - startDeg;
  while (sweep <= 0) sweep += 360;
  if (sweep > 360) sweep = 360;
  const steps = Math.max(2, Math.ceil((sweep / 360) * SEGMENTS_PER_TURN));
  const points: Vec2[] = [];
  for (let i = 0; i <= steps; i++) {
    const t = ((startDeg + (sweep * i) / steps) * Math.PI) / 180;
    points.push({ x: center.x + radius * Math.cos(t), y: center.y + radius * Math.sin(t) });
  }
  return points;
}

export function ellipsePoints(center: Vec2, major: Vec2, ratio: number, startParam: number, endParam: number): Vec2[] {
  let sweep = endParam - startParam;
  while (sweep <= 0) sweep += 2 * Math.PI;
  if (sweep > 2 * Math.PI + 1e-9) sweep = 2 * Math.PI;
  const minor = { x: -major.y * ratio, y: major.x * ratio };
  const steps = Math.max(4, Math.ceil((sweep / (2 * Math.PI)) * SEGMENTS_PER_TURN));
  const points: Vec2[] = [];
  for (let i = 0; i <= steps; i++) {
    const t = startParam + (sweep * i) / steps;
    const cos = Math.cos(t);
    const sin = Math.sin(t);
    points.push({ x: center.x + major.x * cos + minor.x * sin, y: center.y + major.y * cos + minor.y * sin });
  }
  return points;
}

/** Points of a polyline with bulges (arc segments sampled). */
export function bulgePolylinePoints(vertices: PolyVertex[], closed: boolean): Vec2[] {
  const points: Vec2[] = [];
  const count = vertices.length;
  const segments = closed ? count : count - 1;
  for (let i = 0; i < count; i++) {
    const v = vertices[i] as PolyVertex;
    points.push({ x: v.x, y: v.y });
    if (i >= segments || v.bulge === 0) continue;
    const next = vertices[(i + 1) % count] as PolyVertex;
    points.push(...bulgeArcInterior(v, next, v.bulge));
  }
  if (closed && count > 1) points.push({ x: (vertices[0] as PolyVertex).x, y: (vertices[0] as PolyVertex).y });
  return points;
}

function bulgeArcInterior(a: Vec2, b: Vec2, bulge: number): Vec2[] {
  const chord = Math.hypot(b.x - a.x, b.y - a.y);
  if (chord === 0) return [];
  const theta = 4 * Math.atan(bulge);
  const radius = chord / (2 * Math.sin(theta / 2));
  const mid = { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 };
  const sagittaToCenter = radius * Math.cos(theta / 2);
  const nx = -(b.y - a.y) / chord;
  const ny = (b.x - a.x) / chord;
  const center = { x: mid.x + nx * sagittaToCenter, y: mid.y + ny * sagittaToCenter };
  const start = Math.atan2(a.y - center.y, a.x - center.x);
  const steps = Math.max(2, Math.ceil((Math.abs(theta) / (2 * Math.PI)) * SEGMENTS_PER_TURN));
  const r = Math.abs(radius);
  const out: Vec2[] = [];
  for (let i = 1; i < steps; i++) {
    const t = start + (theta * i) / steps;
    out.push({ x: center.x + r * Math.cos(t), y: center.y + r * Math.sin(t) });
  }
  return out;
}

/**
 * Samples a (rational) B-spline with de Boor's algorithm. Falls back to the control polygon
 * when the knot vector does not fit the control points (the drawing still shows the shape).
 */
export function splinePoints(degree: number, control: Vec2[], knots: number[], weights: number[], samples = 64): Vec2[] {
  const n = control.length;
  if (n < 2 || degree < 1 || knots.length !== n + degree + 1) return control.slice();
  const w = weights.length === n ? weights : control.map(() => 1);
  const lo = knots[degree] as number;
  const hi = knots[n] as number;
  if (!(hi > lo)) return control.slice();
  const points: Vec2[] = [];
  for (let s = 0; s <= samples; s++) {
    const u = lo + ((hi - lo) * s) / samples;
    let k = degree;
    while (k < n - 1 && u >= (knots[k + 1] as number)) k++;
    const dx: number[] = [];
    const dy: number[] = [];
    const dw: number[] = [];
    for (let j = 0; j <= degree; j++) {
      const p = control[k - degree + j] as Vec2;
      const wj = w[k - degree + j] as number;
      dx.push(p.x * wj);
      dy.push(p.y * wj);
      dw.push(wj);
    }
    for (let r = 1; r <= degree; r++) {
      for (let j = degree; j >= r; j--) {
        const i = k - degree + j;
        const denom = (knots[i + degree - r + 1] as number) - (knots[i] as number);
        const alpha = denom === 0 ? 0 : (u - (knots[i] as number)) / denom;
        dx[j] = (1 - alpha) * (dx[j - 1] as number) + alpha * (dx[j] as number);
        dy[j] = (1 - alpha) * (dy[j - 1] as number) + alpha * (dy[j] as number);
        dw[j] = (1 - alpha) * (dw[j - 1] as number) + alpha * (dw[j] as number);
      }
    }
    const weight = dw[degree] as number;
    points.push({ x: (dx[degree] as number) / weight, y: (dy[degree] as number) / weight });
  }
  return points;
}

export function emptyBox(): Box {
  return { minX: Infinity, minY: Infinity, maxX: -Infinity, maxY: -Infinity };
}

export function isEmptyBox(box: Box): boolean {
  return !(box.minX <= box.maxX && box.minY <= box.maxY);
}

export function extendBox(box: Box, p: Vec2): void {
  if (!Number.isFinite(p.x) || !Number.isFinite(p.y)) return;
  if (p.x < box.minX) box.minX = p.x;
  if (p.y < box.minY) box.minY = p.y;
  if (p.x > box.maxX) box.maxX = p.x;
  if (p.y > box.maxY) box.maxY = p.y;
}

export function unionBox(box: Box, other: Box): void {
  if (isEmptyBox(other)) return;
  extendBox(box, { x: other.minX, y: other.minY });
  extendBox(box, { x: other.maxX, y: other.maxY });
}

export function boxesIntersect(a: Box, b: Box): boolean {
  return a.minX <= b.maxX && a.maxX >= b.minX && a.minY <= b.maxY && a.maxY >= b.minY;
}

export function boxContains(outer: Box, inner: Box, tolerance = 0): boolean {
  return inner.minX >= outer.minX - tolerance && inner.maxX <= outer.maxX + tolerance && inner.minY >= outer.minY - tolerance && inner.maxY <= outer.maxY + tolerance;
}

export function transformBox(m: Affine, box: Box): Box {
  const out = emptyBox();
  if (isEmptyBox(box)) return out;
  for (const p of [
    { x: box.minX, y: box.minY },
    { x: box.maxX, y: box.minY },
    { x: box.minX, y: box.maxY },
    { x: box.maxX, y: box.maxY },
  ])
    extendBox(out, apply(m, p));
  return out;
}
