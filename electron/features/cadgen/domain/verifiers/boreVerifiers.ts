import { closedObject, vec3 } from '../contracts/schemaParts';
import { distanceToLine, dot, normalize, parallel, sub } from '../vec3';
import type { Vec3 } from '../vec3';
import { findBores } from './bores';
import type { Bore } from './bores';
import { boreExpected, positiveMm, toleranceMm } from './expectedParts';
import { absent, contradicted } from './types';
import type { ClaimOutcome, ClaimVerifier, VerifierContext } from './types';

const noBody: ClaimOutcome = { status: 'fail', message: 'the rebuild produced no solid', evidence: {} };

function describe(bore: Bore): Record<string, unknown> {
  return { diameter_mm: bore.diameter_mm, axis: bore.axis, through: bore.through, length_mm: bore.length_mm, face_tokens: bore.face_tokens, cap_face_tokens: bore.cap_face_tokens };
}

/**
 * The bores a positioned bore claim is about: parallel to `axis` with the axis line within one
 * claimed diameter of `position`, whatever their own diameter (so a wrong drill is found, not missed).
 */
function boresNear(bores: Bore[], expected: Record<string, unknown>): { bore: Bore; offset_mm: number }[] {
  const direction = normalize(expected.axis as Vec3);
  if (!direction) return [];
  const reach = Math.max(expected.diameter_mm as number, expected.tolerance_mm as number);
  return bores
    .filter((b) => parallel(b.axis.direction, direction, 1e-6))
    .map((bore) => ({ bore, offset_mm: distanceToLine(expected.position as Vec3, bore.axis.origin, bore.axis.direction) }))
    .filter((b) => b.offset_mm <= reach)
    .sort((a, b) => a.offset_mm - b.offset_mm);
}

function evaluateBore(expected: Record<string, unknown>, context: VerifierContext, requireThrough: boolean): ClaimOutcome {
  if (!context.snapshot) return noBody;
  const bores = findBores(context.snapshot);
  const tolerance = expected.tolerance_mm as number;
  const near = boresNear(bores, expected);
  const fits = (b: { bore: Bore; offset_mm: number }): boolean => b.offset_mm <= tolerance && Math.abs(b.bore.diameter_mm - (expected.diameter_mm as number)) <= tolerance;
  const matches = near.filter(fits).map((b) => b.bore);
  const evidence = { expected, matched: matches.map(describe), near: near.map((b) => ({ ...describe(b.bore), offset_mm: b.offset_mm })), bores_in_model: bores.length };
  if (near.length === 0) return absent(context, `no bore on the given axis yet`, evidence);
  if (matches.length === 0) {
    const [closest] = near as [{ bore: Bore; offset_mm: number }];
    return contradicted(`the bore at the position is Ø${closest.bore.diameter_mm.toFixed(4)} with its axis ${closest.offset_mm.toFixed(4)} mm off, expected Ø${String(expected.diameter_mm)} ± ${tolerance}`, evidence);
  }
  if (!requireThrough) return { status: 'pass', message: `Ø${matches[0]?.diameter_mm.toFixed(4)} bore found`, evidence };
  if (matches.some((b) => b.through)) return { status: 'pass', message: 'bore connects entry and exit faces', evidence };
  return contradicted('bore is closed by a cap face (blind), it does not connect entry and exit faces', evidence);
}

const BORE_RULE = 'the subject is any bore parallel to the axis whose axis lies within one claimed diameter of the position: pending while there is none; fail when it has another diameter, sits off the position beyond the tolerance';

export const cylindricalBore: ClaimVerifier = {
  kind: 'cylindrical_bore',
  summary: 'A concave cylindrical bore of a diameter on an axis through a position.',
  deterministic: true,
  pending_rule: `${BORE_RULE}.`,
  expected_schema: boreExpected,
  required_artifacts: ['topology'],
  evaluate: (expected, context) => evaluateBore(expected, context, false),
};

export const throughCylindricalBore: ClaimVerifier = {
  kind: 'through_cylindrical_bore',
  summary: 'A bore whose cylindrical faces topologically connect an entry and an exit boundary face (no cap).',
  deterministic: true,
  pending_rule: `${BORE_RULE}, or is blind (closed by a cap face).`,
  expected_schema: boreExpected,
  required_artifacts: ['topology'],
  evaluate: (expected, context) => evaluateBore(expected, context, true),
};

export const circularHolePattern: ClaimVerifier = {
  kind: 'circular_hole_pattern',
  summary: 'count equal holes on a pitch circle (centre, axis), equally spaced, through or not.',
  deterministic: true,
  pending_rule: 'the subject is every bore parallel to the axis whose axis lies within one claimed hole diameter of the pitch circle: pending while fewer than `count` exist and each one agrees; fail when one has another diameter, lies off the circle, is blind/through against the claim, sits off the angular step, or there are more than `count`.',
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
    const wantedDiameter = expected.diameter_mm as number;
    const subject = findBores(context.snapshot).filter((b) => parallel(b.axis.direction, direction, 1e-6) && Math.abs(distanceToLine(b.axis.origin, centre, direction) - radius) <= Math.max(wantedDiameter, tolerance));
    const onCircle = subject.filter((b) => Math.abs(b.diameter_mm - wantedDiameter) <= tolerance && Math.abs(distanceToLine(b.axis.origin, centre, direction) - radius) <= tolerance);
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
    const evidence = { expected, found: onCircle.map(describe), near_circle: subject.map(describe), angles_deg: angles, gaps_deg: gaps, angle_tolerance_deg: angleTolDeg };
    const stray = subject.filter((b) => !onCircle.includes(b));
    if (stray.length > 0) {
      const b = stray[0] as Bore;
      return contradicted(`${stray.length} hole(s) near the pitch circle do not match: Ø${b.diameter_mm.toFixed(4)} at radius ${distanceToLine(b.axis.origin, centre, direction).toFixed(4)} (expected Ø${wantedDiameter} on PCD ${String(expected.pcd_mm)})`, evidence);
    }
    const wrongThrough = onCircle.filter((b) => b.through !== expected.through);
    if (wrongThrough.length > 0) return contradicted(`${wrongThrough.length} hole(s) are ${expected.through ? 'blind' : 'through'}`, evidence);
    if (onCircle.length > (expected.count as number)) return contradicted(`${onCircle.length} holes on the pitch circle, expected ${String(expected.count)}`, evidence);
    // Every gap between neighbours must be a whole number of angular steps (a partial pattern may skip some).
    const offStep = gaps.some((g) => Math.abs(g / step - Math.round(g / step)) * step > angleTolDeg || Math.round(g / step) === 0);
    if (onCircle.length > 1 && offStep) return contradicted('holes are not spaced by the angular step', evidence);
    if (onCircle.length < (expected.count as number)) return absent(context, `${onCircle.length} of ${String(expected.count)} holes on the pitch circle so far`, evidence);
    if (!gaps.every((g) => Math.abs(g - step) <= angleTolDeg)) return contradicted('holes are not equally spaced', evidence);
    return { status: 'pass', message: `${onCircle.length} × Ø${String(expected.diameter_mm)} on PCD ${String(expected.pcd_mm)}, equally spaced`, evidence };
  },
};
