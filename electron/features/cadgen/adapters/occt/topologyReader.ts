import { createHash } from 'node:crypto';
import type { AnyShape, Edge, Face, Shape3D } from 'replicad';
import { mintToken } from '../../domain/topology';
import type { EdgeInfo, EdgeKind, FaceInfo, FaceKind, FeatureRefInfo, TopologySnapshot } from '../../domain/topology';
import { dot, normalize, quantize, scale, sub } from '../../domain/vec3';
import type { Vec3 } from '../../domain/vec3';
import type { Arena } from './arena';
import { circleOf, edgeLength, exactBoundingBox, midNormal, surfaceAxis, surfaceProperties, volumeOf } from './geometryProbes';
import type { Kernel } from './kernel';

/** The snapshot plus the live kernel entities in snapshot order (index i ↔ faces[i]). */
export interface ReadTopology {
  snapshot: TopologySnapshot;
  faces: Face[];
  edges: Edge[];
}

export const sha256Hex = (text: string): string => createHash('sha256').update(text).digest('hex');

const FACE_KINDS: Record<string, FaceKind> = { PLANE: 'plane', CYLINDRE: 'cylinder', CONE: 'cone', SPHERE: 'sphere', TORUS: 'torus' };
const EDGE_KINDS: Record<string, EdgeKind> = { LINE: 'line', CIRCLE: 'circle', ELLIPSE: 'ellipse', BSPLINE_CURVE: 'bspline', BEZIER_CURVE: 'bspline' };
const Q = 1e-6;

/** Axis origin moved to the foot of the perpendicular from the world origin, so it is canonical. */
function canonicalAxisOrigin(origin: Vec3, direction: Vec3): Vec3 {
  return sub(origin, scale(direction, dot(origin, direction)));
}

function readFace(kernel: Kernel, face: Face, index: number): Omit<FaceInfo, 'token' | 'adjacent_faces'> {
  const kind = FACE_KINDS[face.geomType] ?? 'other';
  const { area, centroid } = surfaceProperties(kernel, face);
  const info: Omit<FaceInfo, 'token' | 'adjacent_faces'> = { index, kind, area_mm2: area, centroid, bbox: exactBoundingBox(kernel, face) };
  if (kind === 'plane') {
    info.normal = normalize(midNormal(kernel, face).normal) ?? [0, 0, 0];
  } else if (kind === 'cylinder' || kind === 'sphere') {
    const axis = surfaceAxis(kernel, face, kind);
    const direction = normalize(axis.direction) ?? [0, 0, 1];
    info.axis = { origin: canonicalAxisOrigin(axis.origin, direction), direction };
    info.radius_mm = axis.radius;
    if (kind === 'cylinder') {
      // A bore's outward normal (away from material) points towards its axis.
      const { point, normal } = midNormal(kernel, face);
      const relative = sub(point, info.axis.origin);
      const radial = sub(relative, scale(direction, dot(relative, direction)));
      info.concave = dot(normal, radial) < 0;
      // A cylinder's u parameter is its angle, so the UV bounds give the face's angular extent.
      const bounds = face.UVBounds;
      info.angle_span_deg = ((bounds.uMax - bounds.uMin) * 180) / Math.PI;
    }
  }
  return info;
}

function faceSignature(face: Omit<FaceInfo, 'token' | 'adjacent_faces'>): string {
  return [face.kind, quantize(face.centroid, Q).join(','), face.area_mm2.toFixed(5), face.normal ? quantize(face.normal, Q).join(',') : '', face.radius_mm?.toFixed(6) ?? ''].join('|');
}

/** Groups edges by hash code, then confirms with IsSame (hash codes may collide). */
function indexOfEdge(buckets: Map<number, number[]>, edges: Edge[], edge: Edge): number | undefined {
  return buckets.get(edge.hashCode)?.find((i) => edges[i]?.isSame(edge));
}

/**
 * Reads the topology of `body` for the revision `snapshotId`: faces, edges, adjacency,
 * measurements and deterministic tokens. Wrappers are tracked in `arena` and stay valid
 * until the build ends (executors use them to resolve tokens).
 */
export function readTopology(kernel: Kernel, arena: Arena, body: Shape3D, snapshotId: string, features: Omit<FeatureRefInfo, 'token'>[]): ReadTopology {
  const faces = body.faces.map((f) => arena.track(f));
  const edges = body.edges.map((e) => arena.track(e));
  const buckets = new Map<number, number[]>();
  edges.forEach((edge, i) => buckets.set(edge.hashCode, [...(buckets.get(edge.hashCode) ?? []), i]));
  const edgeFaces: number[][] = edges.map(() => []);
  const faceEdges = faces.map((face, faceIndex) => {
    const own = face.edges.map((e) => arena.track(e));
    const indices = own.map((e) => indexOfEdge(buckets, edges, e)).filter((i): i is number => i !== undefined);
    for (const i of new Set(indices)) edgeFaces[i]?.push(faceIndex);
    return [...new Set(indices)];
  });
  const faceInfos: FaceInfo[] = faces.map((face, i) => {
    const info = readFace(kernel, face, i);
    const adjacent = new Set<number>();
    for (const e of faceEdges[i] ?? []) for (const other of edgeFaces[e] ?? []) if (other !== i) adjacent.add(other);
    return { ...info, token: mintToken(sha256Hex, snapshotId, 'face', faceSignature(info)), adjacent_faces: [...adjacent].sort((a, b) => a - b) };
  });
  const edgeInfos: EdgeInfo[] = edges.map((edge, i) => {
    const kind = EDGE_KINDS[edge.geomType] ?? 'other';
    const start = arena.track(edge.startPoint);
    const end = arena.track(edge.endPoint);
    const info: EdgeInfo = { token: '', index: i, kind, length_mm: edgeLength(kernel, edge), start: [start.x, start.y, start.z], end: [end.x, end.y, end.z], adjacent_faces: edgeFaces[i] ?? [] };
    if (kind === 'circle') {
      const circle = circleOf(kernel, edge);
      info.centre = circle.centre;
      info.radius_mm = circle.radius;
    }
    const ends = [quantize(info.start, Q).join(','), quantize(info.end, Q).join(',')].sort();
    const mid = arena.track(edge.pointAt(0.5));
    if (kind === 'circle') info.mid = [mid.x, mid.y, mid.z];
    info.token = mintToken(sha256Hex, snapshotId, 'edge', [kind, ...ends, quantize([mid.x, mid.y, mid.z], Q).join(','), info.length_mm.toFixed(5)].join('|'));
    return info;
  });
  const solidCount = countSolids(kernel, body);
  const { area } = surfaceProperties(kernel, body);
  const snapshot: TopologySnapshot = {
    snapshot_id: snapshotId,
    faces: faceInfos,
    edges: edgeInfos,
    features: features.map((f) => ({ ...f, token: mintToken(sha256Hex, snapshotId, 'feature', `${f.feature_id}|${f.atomic_id}`) })),
    measurements: { solid_count: solidCount, volume_mm3: volumeOf(kernel, body), area_mm2: area, bbox: exactBoundingBox(kernel, body) },
  };
  return { snapshot, faces, edges };
}

/** Number of solids in a shape (a compound of disjoint bodies counts each). */
export function countSolids(kernel: Kernel, shape: AnyShape): number {
  const explorer = new kernel.oc.TopExp_Explorer(shape.wrapped, kernel.oc.TopAbs_ShapeEnum.TopAbs_SOLID, kernel.oc.TopAbs_ShapeEnum.TopAbs_SHAPE);
  let count = 0;
  try {
    for (; explorer.More(); explorer.Next()) count += 1;
  } finally {
    explorer.delete();
  }
  return count;
}
