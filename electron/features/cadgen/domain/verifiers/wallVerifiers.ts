import { closedObject } from '../contracts/schemaParts';
import type { FaceInfo, TopologySnapshot } from '../topology';
import { distanceToLine, dot, parallel, sub } from '../vec3';
import type { Vec3 } from '../vec3';
import { positiveMm, toleranceMm } from './expectedParts';
import { absent, contradicted } from './types';
import type { ClaimVerifier } from './types';

/** One measured wall: two faces with material between them and its thickness. */
export interface WallSample {
  faces: [string, string];
  thickness_mm: number;
  between: 'planes' | 'cylinders' | 'bore_and_plane';
}

/** Do the bboxes of two faces overlap once projected across `n` (so the faces lie opposite each other)? */
function overlapAcross(a: FaceInfo, b: FaceInfo, n: Vec3): boolean {
  const drop = [0, 1, 2].reduce((best, k) => (Math.abs(n[k] as number) > Math.abs(n[best] as number) ? k : best), 0);
  return [0, 1, 2].filter((k) => k !== drop).every((k) => Math.min(a.bbox.max[k] as number, b.bbox.max[k] as number) - Math.max(a.bbox.min[k] as number, b.bbox.min[k] as number) > 1e-6);
}

const axialOverlap = (a: FaceInfo, b: FaceInfo, axis: Vec3): boolean => {
  const range = (f: FaceInfo): [number, number] => {
    const ts = [f.bbox.min, f.bbox.max].map((p) => dot(p, axis));
    return [Math.min(...ts), Math.max(...ts)];
  };
  const [a0, a1] = range(a);
  const [b0, b1] = range(b);
  return Math.min(a1, b1) - Math.max(a0, b0) > 1e-6;
};

/**
 * Wall thicknesses from opposite faces: each planar face to the nearest opposite-facing plane behind
 * it (inside the material) that it overlaps; coaxial outer/inner cylinders (tube walls); and a bore
 * to a plane parallel to its axis (the ligament to an edge).
 */
export function wallSamples(snapshot: TopologySnapshot): WallSample[] {
  const planes = snapshot.faces.filter((f) => f.kind === 'plane' && f.normal);
  const cylinders = snapshot.faces.filter((f) => f.kind === 'cylinder' && f.axis && f.radius_mm !== undefined);
  const samples: WallSample[] = [];
  for (const a of planes) {
    const n = a.normal as Vec3;
    let nearest: WallSample | null = null;
    for (const b of planes) {
      if (b === a || dot(b.normal as Vec3, n) > -1 + 1e-9) continue;
      const depth = dot(sub(a.centroid, b.centroid), n);
      if (depth <= 1e-6 || !overlapAcross(a, b, n)) continue;
      if (!nearest || depth < nearest.thickness_mm) nearest = { faces: [a.token, b.token], thickness_mm: depth, between: 'planes' };
    }
    if (nearest) samples.push(nearest);
  }
  for (const outer of cylinders.filter((c) => !c.concave)) {
    for (const inner of cylinders.filter((c) => c.concave)) {
      const [oa, ia] = [outer.axis as { origin: Vec3; direction: Vec3 }, inner.axis as { origin: Vec3; direction: Vec3 }];
      if (!parallel(oa.direction, ia.direction, 1e-6) || distanceToLine(ia.origin, oa.origin, oa.direction) > 1e-6 || (outer.radius_mm as number) <= (inner.radius_mm as number)) continue;
      if (axialOverlap(outer, inner, oa.direction)) samples.push({ faces: [outer.token, inner.token], thickness_mm: (outer.radius_mm as number) - (inner.radius_mm as number), between: 'cylinders' });
    }
  }
  for (const bore of cylinders.filter((c) => c.concave && (c.angle_span_deg ?? 360) >= 359)) {
    const axis = bore.axis as { origin: Vec3; direction: Vec3 };
    for (const plane of planes) {
      const n = plane.normal as Vec3;
      if (Math.abs(dot(n, axis.direction)) > 1e-6 || !axialOverlap(plane, bore, axis.direction)) continue;
      // The bore must lie behind the plane (inside the material) for the ligament to exist.
      const offset = dot(sub(plane.centroid, axis.origin), n);
      if (offset > (bore.radius_mm as number) + 1e-6) samples.push({ faces: [bore.token, plane.token], thickness_mm: offset - (bore.radius_mm as number), between: 'bore_and_plane' });
    }
  }
  return samples;
}

export const wallThickness: ClaimVerifier = {
  kind: 'wall_thickness',
  summary: 'The thinnest wall (between opposite planes, tube cylinders, or a bore and a face) has the thickness.',
  deterministic: true,
  pending_rule: 'pending while no wall can be measured or every wall is still thicker than claimed (a later cut may make it); fail when a wall is thinner than claimed (material only ever gets removed from it).',
  expected_schema: closedObject({ min_mm: positiveMm, tolerance_mm: toleranceMm }),
  required_artifacts: ['topology'],
  evaluate(expected, context) {
    if (!context.snapshot) return { status: 'fail', message: 'the rebuild produced no solid', evidence: {} };
    const samples = wallSamples(context.snapshot).sort((a, b) => a.thickness_mm - b.thickness_mm);
    const thinnest = samples[0];
    const evidence = { expected, thinnest: samples.slice(0, 5), samples: samples.length };
    if (!thinnest) return absent(context, 'no opposite faces to measure a wall between', evidence);
    const ok = Math.abs(thinnest.thickness_mm - (expected.min_mm as number)) <= (expected.tolerance_mm as number);
    if (ok) return { status: 'pass', message: `thinnest wall ${thinnest.thickness_mm.toFixed(4)} mm`, evidence };
    const message = `thinnest wall ${thinnest.thickness_mm.toFixed(4)} mm, expected ${String(expected.min_mm)}`;
    return thinnest.thickness_mm < (expected.min_mm as number) ? contradicted(message, evidence) : absent(context, message, evidence);
  },
};
