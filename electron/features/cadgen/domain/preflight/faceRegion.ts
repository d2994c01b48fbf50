import type { EdgeInfo, FaceInfo } from '../topology';
import { cross, dot, normalize, sub } from '../vec3';
import type { Vec3 } from '../vec3';

type P2 = [number, number];

/** Plane coordinates of a planar face (u, v across its normal). */
function planeBasis(normal: Vec3): { u: Vec3; v: Vec3 } {
  const u = normalize(cross(normal, Math.abs(normal[0]) < 0.9 ? [1, 0, 0] : [0, 1, 0])) as Vec3;
  return { u, v: cross(normal, u) };
}

/** An arbitrary, non-axis-aligned ray direction so rays rarely graze vertices of axis-aligned outlines. */
const RAY: P2 = [Math.cos(0.7853), Math.sin(0.7853)];

/** Crossings of the ray p + t·RAY (t > 0) with segment a–b. */
function segmentCrossings(p: P2, a: P2, b: P2): number {
  const [dx, dy] = RAY;
  const ex = b[0] - a[0];
  const ey = b[1] - a[1];
  const den = dx * ey - dy * ex;
  if (Math.abs(den) < 1e-15) return 0;
  const t = ((a[0] - p[0]) * ey - (a[1] - p[1]) * ex) / den;
  const s = ((a[0] - p[0]) * dy - (a[1] - p[1]) * dx) / den;
  return t > 0 && s >= 0 && s < 1 ? 1 : 0;
}

/** Crossings of the ray with a circular arc start → mid → end (a full circle when start = end). */
function arcCrossings(p: P2, centre: P2, radius: number, start: P2, mid: P2, end: P2): number {
  const [dx, dy] = RAY;
  const fx = p[0] - centre[0];
  const fy = p[1] - centre[1];
  const b = fx * dx + fy * dy;
  const disc = b * b - (fx * fx + fy * fy - radius * radius);
  if (disc <= 0) return 0;
  const full = Math.hypot(start[0] - end[0], start[1] - end[1]) < 1e-9;
  const side = (q: P2): number => (end[0] - start[0]) * (q[1] - start[1]) - (end[1] - start[1]) * (q[0] - start[0]);
  let crossings = 0;
  for (const t of [-b - Math.sqrt(disc), -b + Math.sqrt(disc)]) {
    if (t <= 0) continue;
    const x: P2 = [p[0] + t * dx, p[1] + t * dy];
    // The chord start–end splits the circle in two arcs; this edge is the one on the mid point's side.
    if (full || Math.sign(side(x)) === Math.sign(side(mid))) crossings += 1;
  }
  return crossings;
}

/**
 * Whether `point` (in the face's plane) lies on the material of the planar `face`, by ray parity
 * over all of its boundary edges (outer outline and inner loops of holes alike). Null when the
 * boundary has an edge this test cannot trace exactly (ellipse, spline, an arc without a mid
 * point): the caller then has only the bbox check.
 */
export function pointOnPlanarFace(face: FaceInfo, edges: readonly EdgeInfo[], point: Vec3): boolean | null {
  if (face.kind !== 'plane' || !face.normal) return null;
  const { u, v } = planeBasis(face.normal);
  const to2 = (q: Vec3): P2 => [dot(sub(q, face.centroid), u), dot(sub(q, face.centroid), v)];
  const p = to2(point);
  let crossings = 0;
  const boundary = edges.filter((e) => e.adjacent_faces.includes(face.index));
  if (boundary.length === 0) return null;
  for (const edge of boundary) {
    if (edge.kind === 'line') crossings += segmentCrossings(p, to2(edge.start), to2(edge.end));
    else if (edge.kind === 'circle' && edge.centre && edge.radius_mm !== undefined && edge.mid) crossings += arcCrossings(p, to2(edge.centre), edge.radius_mm, to2(edge.start), to2(edge.mid), to2(edge.end));
    else return null;
  }
  return crossings % 2 === 1;
}
