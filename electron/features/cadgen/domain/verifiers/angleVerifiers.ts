import type { EdgeInfo, FaceInfo, TopologySnapshot } from '../topology';
import { dot, normalize, parallel, sub } from '../vec3';
import type { Vec3 } from '../vec3';
import { closedObject, num, vec3 } from '../contracts/schemaParts';
import { absent, contradicted } from './types';
import type { ClaimOutcome, ClaimVerifier } from './types';

/** A straight edge where two planar faces meet, and the angle between them inside the material. */
export interface FaceCorner {
  edge: EdgeInfo;
  faces: [FaceInfo, FaceInfo];
  /** Degrees inside the material: 90 on a block's corner, 135 where a 45° chamfer meets a side, 270 in an inside corner. */
  angle_deg: number;
}

/**
 * Straight edges along `direction` that join two planar faces, with their material angle: the
 * angle between the outward normals θ gives 180 − θ where the edge is convex (each face lies
 * behind the other's plane) and 180 + θ where it is concave.
 */
export function faceCorners(snapshot: TopologySnapshot, direction: Vec3): FaceCorner[] {
  const out: FaceCorner[] = [];
  for (const edge of snapshot.edges) {
    const along = normalize(sub(edge.end, edge.start));
    if (edge.kind !== 'line' || edge.adjacent_faces.length !== 2 || !along || !parallel(along, direction, 1e-6)) continue;
    const [a, b] = edge.adjacent_faces.map((i) => snapshot.faces[i]);
    if (!a?.normal || !b?.normal || a.kind !== 'plane' || b.kind !== 'plane') continue;
    const theta = (Math.acos(Math.max(-1, Math.min(1, dot(a.normal, b.normal)))) * 180) / Math.PI;
    const convex = dot(sub(b.centroid, edge.start), a.normal) < 0;
    out.push({ edge, faces: [a, b], angle_deg: convex ? 180 - theta : 180 + theta });
  }
  return out;
}

export const faceAngleDeg: ClaimVerifier = {
  kind: 'face_angle_deg',
  summary: 'Two planar faces meet along a straight edge parallel to `edge_direction` at `angle_deg` measured inside the material (135 for a 45° chamfer on a square edge, 270 for an inside corner).',
  deterministic: true,
  pending_rule: 'pending while no straight edge along the direction joins two planar faces; fail when such edges exist and none has the angle.',
  expected_schema: closedObject({
    edge_direction: vec3,
    angle_deg: { type: 'number', exclusiveMinimum: 0, exclusiveMaximum: 360 },
    tolerance_deg: num(1e-9, 10, 'absolute tolerance in degrees'),
  }),
  required_artifacts: ['topology'],
  evaluate(expected, context): ClaimOutcome {
    if (!context.snapshot) return { status: 'fail', message: 'the rebuild produced no solid', evidence: {} };
    const direction = normalize(expected.edge_direction as Vec3);
    const corners = direction ? faceCorners(context.snapshot, direction) : [];
    const wanted = expected.angle_deg as number;
    const hit = corners.find((c) => Math.abs(c.angle_deg - wanted) <= (expected.tolerance_deg as number));
    const evidence = { expected, measured: corners.slice(0, 50).map((c) => ({ edge: c.edge.token, angle_deg: c.angle_deg })) };
    if (hit) return { status: 'pass', message: `faces meet at ${hit.angle_deg.toFixed(4)}° along ${hit.edge.token}`, evidence: { ...evidence, matched: hit.edge.token } };
    if (corners.length === 0) return absent(context, 'no straight edge along the direction joins two planar faces yet', evidence);
    return contradicted(`face angles along the direction: ${[...new Set(corners.map((c) => c.angle_deg.toFixed(3)))].join(', ')}°, none is ${wanted}`, evidence);
  },
};
