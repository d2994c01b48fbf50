import type { TopologySnapshot } from '../topology';
import { cross, dot, normalize, parallel, scale, sub, add } from '../vec3';
import type { Vec3 } from '../vec3';
import { faceCorners } from '../verifiers/angleVerifiers';
import { filletFaces } from '../verifiers/blendVerifiers';
import type { Bore } from '../verifiers/bores';
import type { DimView, PlannedDimension } from './plannedDimension';

const TOL = 1e-3;
const VIEW_AXIS: Record<DimView, Vec3> = { front: [0, 1, 0], top: [0, 0, 1], side: [1, 0, 0] };

/** The view a direction is seen end-on in (top: Z, front: Y, side: X). */
export function endOnView(axis: Vec3): DimView | undefined {
  return (Object.keys(VIEW_AXIS) as DimView[]).find((v) => parallel(axis, VIEW_AXIS[v], 1e-6));
}

/** The two model axes a view shows (its drawing plane), e.g. top: X and Y. */
const inPlaneAxes = (view: DimView): [0 | 1 | 2, 0 | 1 | 2] => (view === 'top' ? [0, 1] : view === 'front' ? [0, 2] : [1, 2]);

/**
 * A fillet of the radius seen end-on (its axis along a view direction), as an "R" dimension
 * pointing from its axis through the middle of its arc. Undefined when no such fillet exists.
 */
export function radiusDimension(snapshot: TopologySnapshot, radius: number, convexity: 'convex' | 'concave' | 'any', id: string): Extract<PlannedDimension, { kind: 'radius' }> | undefined {
  for (const face of filletFaces(snapshot, convexity)) {
    if (!face.axis || Math.abs((face.radius_mm ?? 0) - radius) > TOL) continue;
    const view = endOnView(face.axis.direction);
    if (!view) continue;
    const d = face.axis.direction;
    const rel = sub(face.centroid, face.axis.origin);
    const centre = add(face.axis.origin, scale(d, dot(rel, d)));
    // The arc's middle lies from the axis towards the face's centroid.
    const outward = normalize(sub(face.centroid, centre));
    if (!outward) continue;
    return { id, kind: 'radius', centre, axis: d, radius, value: radius, outward, concave: face.concave === true, view };
  }
  return undefined;
}

/**
 * An angular dimension for two planar faces meeting along an edge seen end-on: the vertex is the
 * edge, the two rays run into the faces (towards their centroids, across the edge). Undefined when
 * no such edge has the angle.
 */
export function angleDimension(snapshot: TopologySnapshot, direction: Vec3, angle: number, toleranceDeg: number, id: string): Extract<PlannedDimension, { kind: 'angle' }> | undefined {
  const view = endOnView(direction);
  if (!view) return undefined;
  const corner = faceCorners(snapshot, direction).find((c) => Math.abs(c.angle_deg - angle) <= toleranceDeg);
  if (!corner) return undefined;
  const vertex = corner.edge.start;
  const rays = corner.faces.map((f) => {
    const across = normalize(cross(direction, f.normal as Vec3)) as Vec3;
    const sign = dot(sub(f.centroid, vertex), across) >= 0 ? 1 : -1;
    return add(vertex, scale(across, sign * 10));
  }) as [Vec3, Vec3];
  return { id, kind: 'angle', vertex, rays, value: corner.angle_deg, view };
}

/**
 * Location dimensions of holes not placed by a pitch circle: in the view that sees them end-on,
 * a chain along each drawing axis from the part's datum edge (its minimum side) through the
 * distinct hole-centre coordinates, so every centre is located once and no distance repeats.
 * A hole on the part's centre in both directions is located by its centre lines and gets none.
 */
export function holeLocations(snapshot: TopologySnapshot, bores: Bore[], nextId: () => string): Extract<PlannedDimension, { kind: 'location' }>[] {
  const { min, max } = snapshot.measurements.bbox;
  const mid = (i: number): number => ((min[i] as number) + (max[i] as number)) / 2;
  const out: Extract<PlannedDimension, { kind: 'location' }>[] = [];
  const byView = new Map<DimView, Bore[]>();
  for (const b of bores) {
    const view = endOnView(b.axis.direction);
    if (!view) continue;
    const [i, j] = inPlaneAxes(view);
    if (Math.abs((b.axis.origin[i] as number) - mid(i)) <= TOL && Math.abs((b.axis.origin[j] as number) - mid(j)) <= TOL) continue;
    byView.set(view, [...(byView.get(view) ?? []), b]);
  }
  for (const [view, group] of byView) {
    for (const axis of inPlaneAxes(view)) {
      const coords = [...new Set(group.map((b) => Math.round((b.axis.origin[axis] as number) / TOL) * TOL))].sort((p, q) => p - q);
      let from: Vec3 | undefined;
      let fromCoord = min[axis] as number;
      for (const c of coords) {
        const bore = group.find((b) => Math.abs((b.axis.origin[axis] as number) - c) <= TOL) as Bore;
        const to = bore.axis.origin;
        const start: Vec3 = from ?? (to.map((v, k) => (k === axis ? fromCoord : v)) as unknown as Vec3);
        const value = c - fromCoord;
        if (value > TOL) out.push({ id: nextId(), kind: 'location', view, axis, from: start, to, value: Number(value.toFixed(6)) });
        from = to;
        fromCoord = c;
      }
    }
  }
  return out;
}
