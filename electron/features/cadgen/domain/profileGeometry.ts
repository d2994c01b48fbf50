/** 2D profile shapes of a sketch (sketch-plane coordinates, mm) and their polygonal approximation. */
export type Point2 = readonly [number, number];

export type PolylineSegment = { type: 'line'; to: Point2 } | { type: 'arc'; via: Point2; to: Point2 };

export type ProfileShape =
  | { type: 'rectangle'; center: Point2; width_mm: number; height_mm: number }
  | { type: 'rounded_rectangle'; center: Point2; width_mm: number; height_mm: number; corner_radius_mm: number }
  | { type: 'circle'; center: Point2; diameter_mm: number }
  | { type: 'regular_polygon'; center: Point2; sides: number; circumradius_mm: number }
  | { type: 'polyline'; start: Point2; segments: PolylineSegment[] };

export interface Profile {
  outer: ProfileShape;
  inner?: ProfileShape[];
}

const ARC_SAMPLES = 24;

/** Centre and radius of the circle through three points; null when they are collinear. */
export function circleThrough(a: Point2, b: Point2, c: Point2): { center: Point2; radius: number } | null {
  const d = 2 * (a[0] * (b[1] - c[1]) + b[0] * (c[1] - a[1]) + c[0] * (a[1] - b[1]));
  if (Math.abs(d) < 1e-12) return null;
  const sq = (p: Point2): number => p[0] * p[0] + p[1] * p[1];
  const ux = (sq(a) * (b[1] - c[1]) + sq(b) * (c[1] - a[1]) + sq(c) * (a[1] - b[1])) / d;
  const uy = (sq(a) * (c[0] - b[0]) + sq(b) * (a[0] - c[0]) + sq(c) * (b[0] - a[0])) / d;
  return { center: [ux, uy], radius: Math.hypot(a[0] - ux, a[1] - uy) };
}

/** Samples the arc from a through via to b (excluding a, including b); null for collinear points. */
export function sampleArc(a: Point2, via: Point2, b: Point2, samples = ARC_SAMPLES): Point2[] | null {
  const circle = circleThrough(a, via, b);
  if (!circle) return null;
  const angle = (p: Point2): number => Math.atan2(p[1] - circle.center[1], p[0] - circle.center[0]);
  const start = angle(a);
  const turn = (p: Point2): number => {
    const t = angle(p) - start;
    return t < 0 ? t + 2 * Math.PI : t;
  };
  // Counter-clockwise when via comes before b going CCW from a; otherwise sweep clockwise.
  const ccw = turn(via) < turn(b);
  const sweep = ccw ? turn(b) : turn(b) - 2 * Math.PI;
  const points: Point2[] = [];
  for (let i = 1; i <= samples; i += 1) {
    const t = start + (sweep * i) / samples;
    points.push([circle.center[0] + circle.radius * Math.cos(t), circle.center[1] + circle.radius * Math.sin(t)]);
  }
  return points;
}

/**
 * Closed polygon approximating a shape (first point not repeated). Polylines that do not return
 * to their start yield `closed: false`; degenerate arcs yield `degenerate: true`.
 */
export function shapePolygon(shape: ProfileShape): { points: Point2[]; closed: boolean; degenerate: boolean } {
  const [cx, cy] = shape.type === 'polyline' ? shape.start : shape.center;
  switch (shape.type) {
    case 'rectangle':
    case 'rounded_rectangle': {
      const w = shape.width_mm / 2;
      const h = shape.height_mm / 2;
      return { points: [[cx - w, cy - h], [cx + w, cy - h], [cx + w, cy + h], [cx - w, cy + h]], closed: true, degenerate: false };
    }
    case 'circle':
    case 'regular_polygon': {
      const n = shape.type === 'circle' ? 48 : shape.sides;
      const r = shape.type === 'circle' ? shape.diameter_mm / 2 : shape.circumradius_mm;
      const points: Point2[] = [];
      for (let i = 0; i < n; i += 1) points.push([cx + r * Math.cos((2 * Math.PI * i) / n), cy + r * Math.sin((2 * Math.PI * i) / n)]);
      return { points, closed: true, degenerate: false };
    }
    case 'polyline': {
      const points: Point2[] = [shape.start];
      let degenerate = false;
      for (const segment of shape.segments) {
        const last = points[points.length - 1] ?? shape.start;
        if (segment.type === 'line') points.push(segment.to);
        else {
          const arc = sampleArc(last, segment.via, segment.to);
          if (arc) points.push(...arc);
          else degenerate = true;
        }
      }
      const end = points[points.length - 1] ?? shape.start;
      const closed = Math.hypot(end[0] - shape.start[0], end[1] - shape.start[1]) <= 1e-6;
      if (closed) points.pop();
      return { points, closed, degenerate };
    }
  }
}

function orientation(a: Point2, b: Point2, c: Point2): number {
  const v = (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]);
  return Math.abs(v) < 1e-12 ? 0 : Math.sign(v);
}

function onSegment(a: Point2, b: Point2, p: Point2): boolean {
  return Math.min(a[0], b[0]) - 1e-12 <= p[0] && p[0] <= Math.max(a[0], b[0]) + 1e-12 && Math.min(a[1], b[1]) - 1e-12 <= p[1] && p[1] <= Math.max(a[1], b[1]) + 1e-12;
}

/** True when closed segments ab and cd share at least one point. */
export function segmentsIntersect(a: Point2, b: Point2, c: Point2, d: Point2): boolean {
  const o1 = orientation(a, b, c);
  const o2 = orientation(a, b, d);
  const o3 = orientation(c, d, a);
  const o4 = orientation(c, d, b);
  if (o1 !== o2 && o3 !== o4) return true;
  return (o1 === 0 && onSegment(a, b, c)) || (o2 === 0 && onSegment(a, b, d)) || (o3 === 0 && onSegment(c, d, a)) || (o4 === 0 && onSegment(c, d, b));
}

/** True when the closed polygon has two non-adjacent edges that touch, or a repeated vertex. */
export function polygonSelfIntersects(points: readonly Point2[]): boolean {
  const n = points.length;
  if (n < 3) return true;
  for (let i = 0; i < n; i += 1) {
    for (let j = i + 1; j < n; j += 1) {
      const adjacent = j === i + 1 || (i === 0 && j === n - 1);
      if (adjacent) continue;
      const a = points[i] as Point2;
      const b = points[(i + 1) % n] as Point2;
      const c = points[j] as Point2;
      const d = points[(j + 1) % n] as Point2;
      if (segmentsIntersect(a, b, c, d)) return true;
    }
  }
  return Math.abs(polygonArea(points)) < 1e-9;
}

/** Signed area (positive when counter-clockwise). */
export function polygonArea(points: readonly Point2[]): number {
  let sum = 0;
  for (let i = 0; i < points.length; i += 1) {
    const a = points[i] as Point2;
    const b = points[(i + 1) % points.length] as Point2;
    sum += a[0] * b[1] - b[0] * a[1];
  }
  return sum / 2;
}

/** Even-odd point-in-polygon test. */
export function pointInPolygon(p: Point2, points: readonly Point2[]): boolean {
  let inside = false;
  for (let i = 0, j = points.length - 1; i < points.length; j = i, i += 1) {
    const a = points[i] as Point2;
    const b = points[j] as Point2;
    if (a[1] > p[1] !== b[1] > p[1] && p[0] < ((b[0] - a[0]) * (p[1] - a[1])) / (b[1] - a[1]) + a[0]) inside = !inside;
  }
  return inside;
}

/** True when polygons a and b have crossing or touching edges. */
export function polygonsTouch(a: readonly Point2[], b: readonly Point2[]): boolean {
  for (let i = 0; i < a.length; i += 1) {
    for (let j = 0; j < b.length; j += 1) {
      if (segmentsIntersect(a[i] as Point2, a[(i + 1) % a.length] as Point2, b[j] as Point2, b[(j + 1) % b.length] as Point2)) return true;
    }
  }
  return false;
}
