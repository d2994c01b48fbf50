import { closedObject, vec3 } from '../contracts/schemaParts';
import { distanceToLine, dot, parallel, sub } from '../vec3';
import type { Vec3 } from '../vec3';
import type { FaceInfo } from '../topology';
import { positiveMm, toleranceMm } from './expectedParts';
import { absent, contradicted } from './types';
import type { ClaimVerifier } from './types';

const sameLine = (a: FaceInfo, b: FaceInfo, tolerance: number): boolean =>
  !!a.axis && !!b.axis && parallel(a.axis.direction, b.axis.direction, 1e-6) && distanceToLine(b.axis.origin, a.axis.origin, a.axis.direction) <= tolerance;

export const coaxial: ClaimVerifier = {
  kind: 'coaxial',
  summary: 'Cylindrical surfaces of the listed diameters share one axis.',
  deterministic: true,
  pending_rule: 'pending while a cylinder of one of the listed diameters is missing; fail when all exist and none share an axis.',
  expected_schema: closedObject({ diameters_mm: { type: 'array', items: positiveMm, minItems: 2, maxItems: 8 }, tolerance_mm: toleranceMm }),
  required_artifacts: ['topology'],
  evaluate(expected, context) {
    const faces = context.snapshot?.faces ?? [];
    const tolerance = expected.tolerance_mm as number;
    const byDiameter = (expected.diameters_mm as number[]).map((d) => faces.filter((f) => f.kind === 'cylinder' && Math.abs(2 * (f.radius_mm ?? 0) - d) <= tolerance));
    const missing = (expected.diameters_mm as number[]).filter((_, i) => byDiameter[i]?.length === 0);
    if (missing.length > 0) return absent(context, `no cylinder of diameter ${missing.join(', ')} mm`, { missing_diameters_mm: missing });
    for (const seed of byDiameter[0] ?? []) {
      const chosen = byDiameter.map((group) => group.find((f) => sameLine(seed, f, tolerance)));
      if (chosen.every((f) => f !== undefined)) {
        return { status: 'pass', message: 'cylinders share one axis', evidence: { axis: seed.axis, face_tokens: chosen.map((f) => f?.token), tolerance_mm: tolerance } };
      }
    }
    return contradicted('the cylinders do not share an axis', { axes: byDiameter.map((g) => g.map((f) => ({ token: f.token, axis: f.axis }))), tolerance_mm: tolerance });
  },
};

/** Planar faces containing a point (in the face plane and within its bbox, both within tolerance). */
function planarFacesAt(faces: FaceInfo[], point: Vec3, tolerance: number): FaceInfo[] {
  return faces.filter(
    (f) => f.kind === 'plane' && f.normal && Math.abs(dot(sub(point, f.centroid), f.normal)) <= tolerance && [0, 1, 2].every((k) => (point[k] as number) >= (f.bbox.min[k] as number) - tolerance && (point[k] as number) <= (f.bbox.max[k] as number) + tolerance),
  );
}

export const coplanar: ClaimVerifier = {
  kind: 'coplanar',
  summary: 'The planar faces found at the listed points lie in one plane.',
  deterministic: true,
  pending_rule: 'pending while some listed point has no planar face; fail when every point has one and they are not coplanar.',
  expected_schema: closedObject({ points_mm: { type: 'array', items: vec3, minItems: 2, maxItems: 8 }, tolerance_mm: toleranceMm }),
  required_artifacts: ['topology'],
  evaluate(expected, context) {
    const faces = context.snapshot?.faces ?? [];
    const tolerance = expected.tolerance_mm as number;
    const points = expected.points_mm as Vec3[];
    const found = points.map((p) => planarFacesAt(faces, p, tolerance));
    const evidence = { points_mm: points, faces_at_points: found.map((g) => g.map((f) => ({ token: f.token, normal: f.normal, centroid: f.centroid }))), tolerance_mm: tolerance };
    if (found.some((g) => g.length === 0)) return absent(context, 'no planar face at one of the points', evidence);
    // Any face at the first point may define the plane (a corner point touches several faces).
    for (const reference of found[0] ?? []) {
      const normal = reference.normal as Vec3;
      const inPlane = (f: FaceInfo): boolean => !!f.normal && parallel(f.normal, normal, 1e-6) && Math.abs(dot(sub(f.centroid, reference.centroid), normal)) <= tolerance;
      const chosen = found.map((g) => g.find(inPlane));
      if (chosen.every((f) => f !== undefined)) return { status: 'pass', message: 'faces are coplanar', evidence: { ...evidence, plane_normal: normal, face_tokens: chosen.map((f) => f?.token) } };
    }
    return contradicted('faces lie in different planes', evidence);
  },
};

export const visual: ClaimVerifier = {
  kind: 'visual',
  summary: 'A look-and-feel claim judged by an independent reviewer from the line drawings (non-deterministic).',
  deterministic: false,
  pending_rule: 'never decided by the server: pending until the independent final reviewer gives a verdict with evidence.',
  expected_schema: closedObject({ description: { type: 'string', minLength: 1, maxLength: 500 } }),
  required_artifacts: ['renders'],
  evaluate(expected, context) {
    if (!context.renders || context.renders.length === 0) return { status: 'unavailable', message: 'no renders were produced for the reviewer', evidence: { code: 'CDSL_VERIFIER_UNAVAILABLE' } };
    return { status: 'pending', message: 'awaiting an independent reviewer', evidence: { description: expected.description, renders: context.renders } };
  },
};
