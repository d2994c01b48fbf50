import type { Vec3 } from './viewPresets';

/** glTF is in metres; the part's GLB scales its millimetres by 0.001 (cadgen's glbEncoder). */
export const MM_PER_WORLD_UNIT = 1000;

/** One click of the measure tool: a point on the part (mm) and what was under it. */
export interface MeasurePick {
  point: Vec3;
  /** A cylindrical face's diameter (from the B-rep, exact) or a circular edge's (fitted), mm. */
  diameter_mm?: number;
  source: 'face' | 'edge';
  faceToken?: string;
}

export interface Distance {
  distance_mm: number;
  dx: number;
  dy: number;
  dz: number;
}

/** Straight distance between two picks and its components along X, Y, Z (mm). */
export function distanceBetween(a: Vec3, b: Vec3): Distance {
  const dx = b[0] - a[0];
  const dy = b[1] - a[1];
  const dz = b[2] - a[2];
  return { distance_mm: Math.hypot(dx, dy, dz), dx, dy, dz };
}

/** The picks after one more click: two points make a measurement; a third click starts over. */
export function nextPicks(picks: readonly MeasurePick[], pick: MeasurePick): MeasurePick[] {
  return picks.length >= 2 ? [pick] : [...picks, pick];
}

const sub = (a: Vec3, b: Vec3): Vec3 => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const dot = (a: Vec3, b: Vec3): number => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const cross = (a: Vec3, b: Vec3): Vec3 => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
const length = (a: Vec3): number => Math.hypot(a[0], a[1], a[2]);

/** Centre of the circle through three points, or null when they are (nearly) on one line. */
export function circumcentre(a: Vec3, b: Vec3, c: Vec3): Vec3 | null {
  const ab = sub(b, a);
  const ac = sub(c, a);
  const n = cross(ab, ac);
  const n2 = dot(n, n);
  // |ab × ac|² = |ab|²|ac|² sin²θ: collinear when the angle at `a` is (nearly) zero.
  if (n2 <= 1e-12 * dot(ab, ab) * dot(ac, ac)) return null;
  // a + ((|ac|² (n × ab)) + (|ab|² (ac × n))) / (2 |n|²)
  const t1 = cross(n, ab);
  const t2 = cross(ac, n);
  const s1 = dot(ac, ac);
  const s2 = dot(ab, ab);
  return [a[0] + (s1 * t1[0] + s2 * t2[0]) / (2 * n2), a[1] + (s1 * t1[1] + s2 * t2[1]) / (2 * n2), a[2] + (s1 * t1[2] + s2 * t2[2]) / (2 * n2)];
}

/**
 * The diameter of the circle (or arc) these points lie on, or null when they do not lie on one
 * within `tolerance` (relative to the radius): a straight or free-form edge has no diameter.
 */
export function circleDiameter(points: readonly Vec3[], tolerance = 0.01): number | null {
  if (points.length < 3) return null;
  const a = points[0]!;
  const c = points[points.length - 1]!;
  // The middle point and the two ends are the best-spread triple along an arc; a closed circle's
  // ends meet, so then take the points a third and two thirds along.
  const closed = length(sub(a, c)) < 1e-9;
  const [p, q, r] = closed
    ? [a, points[Math.floor(points.length / 3)]!, points[Math.floor((2 * points.length) / 3)]!]
    : [a, points[Math.floor(points.length / 2)]!, c];
  const centre = circumcentre(p, q, r);
  if (!centre) return null;
  const radius = length(sub(p, centre));
  const normal = cross(sub(q, p), sub(r, p));
  const unit = length(normal);
  for (const point of points) {
    if (Math.abs(length(sub(point, centre)) - radius) > tolerance * radius) return null;
    if (Math.abs(dot(sub(point, centre), normal) / unit) > tolerance * radius) return null;
  }
  return 2 * radius;
}

/**
 * The polyline of one B-rep edge, from the segment list all edges share (pairs of points, as in a
 * glTF LINES primitive): the picked segment and every segment joined to it end to end, in order.
 * Stops where more than two segments meet (a vertex where edges join), so a neighbour edge is not
 * taken in.
 */
export function edgeChain(positions: ArrayLike<number>, segment: number): Vec3[] {
  const point = (i: number): Vec3 => [positions[i * 3]!, positions[i * 3 + 1]!, positions[i * 3 + 2]!];
  const key = (p: Vec3): string => p.map((v) => Math.round(v * 1e6)).join(',');
  const segments = Math.floor(positions.length / 6);
  const byEnd = new Map<string, number[]>();
  for (let s = 0; s < segments; s += 1) {
    for (const end of [2 * s, 2 * s + 1]) {
      const k = key(point(end));
      byEnd.set(k, [...(byEnd.get(k) ?? []), s]);
    }
  }
  const used = new Set<number>([segment]);
  const walk = (from: Vec3): Vec3[] => {
    const out: Vec3[] = [];
    let at = from;
    for (;;) {
      const next = byEnd.get(key(at))?.filter((s) => !used.has(s)) ?? [];
      if (next.length !== 1 || (byEnd.get(key(at))?.length ?? 0) > 2) return out;
      const s = next[0]!;
      used.add(s);
      const [p0, p1] = [point(2 * s), point(2 * s + 1)];
      at = key(p0) === key(at) ? p1 : p0;
      out.push(at);
    }
  };
  const [start, end] = [point(2 * segment), point(2 * segment + 1)];
  const forward = walk(end);
  const backward = walk(start);
  return [...backward.reverse(), start, end, ...forward];
}
