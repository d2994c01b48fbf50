import { distanceToLine, dot, parallel, sub } from '../vec3';
import type { Vec3 } from '../vec3';
import type { FaceInfo, TopologySnapshot } from '../topology';

/** A connected set of concave cylindrical faces sharing one axis line and radius (one drilled bore). */
export interface Bore {
  diameter_mm: number;
  axis: { origin: Vec3; direction: Vec3 };
  face_tokens: string[];
  /** Neighbouring faces that are not part of the bore. */
  boundary_face_tokens: string[];
  /** Neighbours bounded only by the bore itself (a blind bottom or drill point). */
  cap_face_tokens: string[];
  /**
   * Topological proof of "through": no cap closes the bore and its boundary faces sit at two
   * distinct positions along the axis (entry and exit), so the cylinder connects both.
   */
  through: boolean;
  /** Axial span of the bore faces (mm). */
  length_mm: number;
}

const SAME_AXIS_TOL_MM = 1e-5;

function corners(face: FaceInfo): Vec3[] {
  const { min, max } = face.bbox;
  const out: Vec3[] = [];
  for (const x of [min[0], max[0]]) for (const y of [min[1], max[1]]) for (const z of [min[2], max[2]]) out.push([x, y, z]);
  return out;
}

function sameBoreSurface(a: FaceInfo, b: FaceInfo): boolean {
  if (!a.axis || !b.axis || a.radius_mm === undefined || b.radius_mm === undefined) return false;
  return Math.abs(a.radius_mm - b.radius_mm) <= SAME_AXIS_TOL_MM && parallel(a.axis.direction, b.axis.direction, 1e-7) && distanceToLine(b.axis.origin, a.axis.origin, a.axis.direction) <= SAME_AXIS_TOL_MM;
}

function axialRange(faces: FaceInfo[], origin: Vec3, direction: Vec3): [number, number] {
  let lo = Infinity;
  let hi = -Infinity;
  for (const face of faces) {
    for (const corner of [face.bbox.min, face.bbox.max, face.centroid]) {
      const t = dot(sub(corner, origin), direction);
      lo = Math.min(lo, t);
      hi = Math.max(hi, t);
    }
  }
  return [lo, hi];
}

/** Finds every bore of the solid from the topology snapshot alone (no parameters, no names). */
export function findBores(snapshot: TopologySnapshot): Bore[] {
  const faces = snapshot.faces;
  const candidates = faces.filter((f) => f.kind === 'cylinder' && f.concave === true);
  const seen = new Set<number>();
  const bores: Bore[] = [];
  for (const start of candidates) {
    if (seen.has(start.index)) continue;
    const group: FaceInfo[] = [];
    const queue = [start];
    seen.add(start.index);
    while (queue.length > 0) {
      const face = queue.pop() as FaceInfo;
      group.push(face);
      for (const n of face.adjacent_faces) {
        const neighbour = faces[n];
        if (neighbour && !seen.has(n) && neighbour.kind === 'cylinder' && neighbour.concave === true && sameBoreSurface(start, neighbour)) {
          seen.add(n);
          queue.push(neighbour);
        }
      }
    }
    const members = new Set(group.map((f) => f.index));
    const boundary = [...new Set(group.flatMap((f) => f.adjacent_faces))].filter((n) => !members.has(n)).map((n) => faces[n] as FaceInfo);
    const axis = start.axis as { origin: Vec3; direction: Vec3 };
    const radius = start.radius_mm ?? 0;
    // A cap closes the bore: bounded only by the bore and lying within its cross-section
    // (bbox corners of a disk of radius r sit at r·√2 from the axis).
    const withinBore = (f: FaceInfo): boolean => corners(f).every((c) => distanceToLine(c, axis.origin, axis.direction) <= radius * Math.SQRT2 + 1e-6);
    const caps = boundary.filter((f) => f.adjacent_faces.every((n) => members.has(n)) && withinBore(f));
    const [lo, hi] = axialRange(group, axis.origin, axis.direction);
    const ends = boundary.filter((f) => !caps.includes(f)).map((f) => dot(sub(f.centroid, axis.origin), axis.direction));
    const touchesLow = ends.some((t) => Math.abs(t - lo) <= 1e-4 * Math.max(1, hi - lo) || t < lo);
    const touchesHigh = ends.some((t) => Math.abs(t - hi) <= 1e-4 * Math.max(1, hi - lo) || t > hi);
    bores.push({
      diameter_mm: 2 * (start.radius_mm ?? 0),
      axis,
      face_tokens: group.map((f) => f.token),
      boundary_face_tokens: boundary.map((f) => f.token),
      cap_face_tokens: caps.map((f) => f.token),
      through: caps.length === 0 && touchesLow && touchesHigh,
      length_mm: hi - lo,
    });
  }
  return bores;
}
