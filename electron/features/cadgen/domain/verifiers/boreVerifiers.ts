import { closedObject, vec3 } from '../contracts/schemaParts';
import { distanceToLine, dot, normalize, parallel, sub } from '../vec3';
import type { Vec3 } from '../vec3';
import { findBores } from './bores';
import type { Bore } from './bores';
import { boreExpected, positiveMm, toleranceMm } from './expectedParts';
import { unmet } from './types';
import type { ClaimOutcome, ClaimVerifier, VerifierContext } from './types';

const noBody: ClaimOutcome = { status: 'fail', message: 'the rebuild produced no solid', evidence: {} };

function describe(bore: Bore): Record<string, unknown> {
  return { diameter_mm: bore.diameter_mm, axis: bore.axis, through: bore.through, length_mm: bore.length_mm, face_tokens: bore.face_tokens, cap_face_tokens: bore.cap_face_tokens };
}

/** Bores whose diameter matches, axis is parallel to `axis` and whose axis line passes through `position`. */
function matchingBores(bores: Bore[], expected: Record<string, unknown>): Bore[] {
  const direction = normalize(expected.axis as Vec3);
  if (!direction) return [];
  const tolerance = expected.tolerance_mm as number;
  return bores.filter(
    (b) => Math.abs(b.diameter_mm - (expected.diameter_mm as number)) <= tolerance && parallel(b.axis.direction, direction, 1e-6) && distanceToLine(expected.position as Vec3, b.axis.origin, b.axis.direction) <= tolerance,
  );
}

function evaluateBore(expected: Record<string, unknown>, context: VerifierContext, requireThrough: boolean): ClaimOutcome {
  if (!context.snapshot) return noBody;
  const bores = findBores(context.snapshot);
  const matches = matchingBores(bores, expected);
  const evidence = { expected, matched: matches.map(describe), bores_in_model: bores.length };
  if (matches.length === 0) return unmet(context, `no Ø${String(expected.diameter_mm)} bore on the given axis`, evidence);
  if (!requireThrough) return { status: 'pass', message: `Ø${matches[0]?.diameter_mm.toFixed(4)} bore found`, evidence };
  const through = matches.filter((b) => b.through);
  if (through.length > 0) return { status: 'pass', message: 'bore connects entry and exit faces', evidence };
  return unmet(context, 'bore is closed by a cap face (blind), it does not connect entry and exit faces', evidence);
}

export const cylindricalBore: ClaimVerifier = {
  kind: 'cylindrical_bore',
  summary: 'A concave cylindrical bore of a diameter on an axis through a position.',
  deterministic: true,
  expected_schema: boreExpected,
  required_artifacts: ['topology'],
  evaluate: (expected, context) => evaluateBore(expected, context, false),
};

export const throughCylindricalBore: ClaimVerifier = {
  kind: 'through_cylindrical_bore',
  summary: 'A bore whose cylindrical faces topologically connect an entry and an exit boundary face (no cap).',
  deterministic: true,
  expected_schema: boreExpected,
  required_artifacts: ['topology'],
  evaluate: (expected, context) => evaluateBore(expected, context, true),
};

export const circularHolePattern: ClaimVerifier = {
  kind: 'circular_hole_pattern',
  summary: 'count equal holes on a pitch circle (centre, axis), equally spaced, through or not.',
  deterministic: true,
  expected_schema: closedObject({
    count: { type: 'integer', minimum: 2, maximum: 360 },
    diameter_mm: positiveMm,
    pcd_mm: positiveMm,
    centre: vec3,
    axis: vec3,
    through: { type: 'boolean' },
    tolerance_mm: toleranceMm,
  }),
  required_artifacts: ['topology'],
  evaluate(expected, context) {
    if (!context.snapshot) return noBody;
    const direction = normalize(expected.axis as Vec3);
    if (!direction) return { status: 'fail', message: 'axis is the zero vector', evidence: {} };
    const centre = expected.centre as Vec3;
    const tolerance = expected.tolerance_mm as number;
    const radius = (expected.pcd_mm as number) / 2;
    const onCircle = findBores(context.snapshot).filter(
      (b) => Math.abs(b.diameter_mm - (expected.diameter_mm as number)) <= tolerance && parallel(b.axis.direction, direction, 1e-6) && Math.abs(distanceToLine(b.axis.origin, centre, direction) - radius) <= tolerance,
    );
    // Angle of each bore around the pattern axis, measured in a fixed reference direction.
    const reference = sub(onCircle[0]?.axis.origin ?? centre, centre);
    const u = normalize(sub(reference, [direction[0] * dot(reference, direction), direction[1] * dot(reference, direction), direction[2] * dot(reference, direction)]));
    const angles = u
      ? onCircle
          .map((b) => {
            const r = sub(b.axis.origin, centre);
            const v: Vec3 = [direction[1] * u[2] - direction[2] * u[1], direction[2] * u[0] - direction[0] * u[2], direction[0] * u[1] - direction[1] * u[0]];
            const a = (Math.atan2(dot(r, v), dot(r, u)) * 180) / Math.PI;
            return a < 0 ? a + 360 : a;
          })
          .sort((a, b) => a - b)
      : [];
    const gaps = angles.map((a, i) => ((angles[(i + 1) % angles.length] ?? a) - a + 360) % 360 || 360);
    const step = 360 / (expected.count as number);
    const angleTolDeg = ((tolerance / Math.max(radius, 1e-9)) * 180) / Math.PI;
    const evidence = { expected, found: onCircle.map(describe), angles_deg: angles, gaps_deg: gaps, angle_tolerance_deg: angleTolDeg };
    if (onCircle.length !== expected.count) return unmet(context, `${onCircle.length} matching holes on the pitch circle, expected ${String(expected.count)}`, evidence);
    if (!gaps.every((g) => Math.abs(g - step) <= angleTolDeg)) return unmet(context, 'holes are not equally spaced', evidence);
    const wrongThrough = onCircle.filter((b) => b.through !== expected.through);
    if (wrongThrough.length > 0) return unmet(context, `${wrongThrough.length} hole(s) are ${expected.through ? 'blind' : 'through'}`, evidence);
    return { status: 'pass', message: `${onCircle.length} × Ø${String(expected.diameter_mm)} on PCD ${String(expected.pcd_mm)}, equally spaced`, evidence };
  },
};
