import { closedObject, vec3 } from '../contracts/schemaParts';
import type { JsonSchema } from '../contracts/schemaParts';
import type { FaceInfo, TopologySnapshot } from '../topology';
import { add, distanceToLine, dot, normalize, parallel, scale, sub } from '../vec3';
import type { Vec3 } from '../vec3';
import { findBores } from './bores';
import type { Bore } from './bores';
import { positiveMm, toleranceMm } from './expectedParts';
import { absent, contradicted } from './types';
import type { ClaimOutcome, ClaimVerifier } from './types';

const noBody: ClaimOutcome = { status: 'fail', message: 'the rebuild produced no solid', evidence: {} };
const count = (maximum: number): JsonSchema => ({ type: 'integer', minimum: 1, maximum });
const brief = (b: Bore): Record<string, unknown> => ({ diameter_mm: b.diameter_mm, axis: b.axis, through: b.through, length_mm: b.length_mm, face_tokens: b.face_tokens });

/** Bores of a diameter (± tolerance), optionally parallel to an axis. */
function boresOf(snapshot: TopologySnapshot, diameter: number, tolerance: number, axis?: Vec3): Bore[] {
  const direction = axis ? normalize(axis) : null;
  return findBores(snapshot).filter((b) => Math.abs(b.diameter_mm - diameter) <= tolerance && (!direction || parallel(b.axis.direction, direction, 1e-6)));
}

/** The bore whose axis line passes within `tolerance` of `point` (parallel to `direction`), if any. */
const boreAt = (bores: Bore[], point: Vec3, direction: Vec3, tolerance: number): Bore | undefined =>
  bores.find((b) => parallel(b.axis.direction, direction, 1e-6) && distanceToLine(point, b.axis.origin, b.axis.direction) <= tolerance);

/** Component of `v` perpendicular to the unit `axis` (pattern directions are measured across the bores). */
const across = (v: Vec3, axis: Vec3): Vec3 | null => normalize(sub(v, scale(axis, dot(v, axis))));

export const holeSet: ClaimVerifier = {
  kind: 'hole_set',
  summary: 'Exactly `count` bores of a diameter, through or blind to a depth, optionally along an axis — no positions needed.',
  deterministic: true,
  pending_rule: 'the subject is the bores of the claimed diameter (along the axis when given): pending while fewer than `count` exist and each has the claimed depth; fail when one has another depth (blind instead of through or the reverse) or there are more than `count`. Without positions a bore of another diameter cannot be told from another claim\'s bore: it leaves this claim pending, and the final rebuild fails it.',
  expected_schema: closedObject(
    {
      count: count(1000),
      diameter_mm: positiveMm,
      depth: { oneOf: [closedObject({ kind: { const: 'through' } }), closedObject({ kind: { const: 'blind' }, depth_mm: positiveMm })] },
      axis: { ...vec3, description: 'optional: bores parallel to this direction only' },
      tolerance_mm: toleranceMm,
    },
    ['count', 'diameter_mm', 'depth', 'tolerance_mm'],
  ),
  required_artifacts: ['topology'],
  evaluate(expected, context) {
    if (!context.snapshot) return noBody;
    const tolerance = expected.tolerance_mm as number;
    const candidates = boresOf(context.snapshot, expected.diameter_mm as number, tolerance, expected.axis as Vec3 | undefined);
    const depth = expected.depth as { kind: 'through' } | { kind: 'blind'; depth_mm: number };
    const matching = candidates.filter((b) => (depth.kind === 'through' ? b.through : !b.through && Math.abs(b.length_mm - depth.depth_mm) <= tolerance));
    const evidence = { expected, matching: matching.map(brief), same_diameter: candidates.map(brief) };
    const what = `Ø${String(expected.diameter_mm)} ${depth.kind === 'through' ? 'through' : `blind ${depth.depth_mm} deep`}`;
    if (matching.length === expected.count && candidates.length === matching.length) return { status: 'pass', message: `${matching.length} × ${what}`, evidence };
    const message = `${matching.length} × ${what} (and ${candidates.length - matching.length} other Ø${String(expected.diameter_mm)}), expected ${String(expected.count)}`;
    return candidates.length > matching.length || matching.length > (expected.count as number) ? contradicted(message, evidence) : absent(context, message, evidence);
  },
};

/** Finds a start bore from which every grid point start + i·a + j·b (i < na, j < nb) has a bore and no bore lies just outside the grid. */
function findGrid(bores: Bore[], a: { step: Vec3; n: number }, b: { step: Vec3; n: number }, tolerance: number): Bore[] | null {
  for (const start of bores) {
    const axis = start.axis.direction;
    const at = (i: number, j: number): Bore | undefined => boreAt(bores, add(add(start.axis.origin, scale(a.step, i)), scale(b.step, j)), axis, tolerance);
    const members: Bore[] = [];
    for (let i = 0; i < a.n && members.length === i * b.n; i += 1) for (let j = 0; j < b.n; j += 1) {
      const found = at(i, j);
      if (found) members.push(found);
    }
    if (members.length !== a.n * b.n) continue;
    // A single row (zero second step) has no neighbours across it to rule out.
    const across = b.step.some((c) => c !== 0) ? Array.from({ length: a.n }, (_, i) => [[i, -1], [i, b.n]]).flat() : [];
    const outside = [...Array.from({ length: b.n }, (_, j) => [[-1, j], [a.n, j]]).flat(), ...across];
    if (outside.some(([i, j]) => at(i as number, j as number))) continue;
    return members;
  }
  return null;
}

/** The bores of the claimed diameter (within its tolerance), their common axis and the evidence both pattern claims report. */
function boresOfExpected(expected: Record<string, unknown>, snapshot: Parameters<typeof boresOf>[0]) {
  const tolerance = expected.tolerance_mm as number;
  const bores = boresOf(snapshot, expected.diameter_mm as number, tolerance);
  return { tolerance, bores, axis: bores[0]?.axis.direction, evidence: { expected, bores_of_diameter: bores.map(brief) } };
}

export const linearHolePattern: ClaimVerifier = {
  kind: 'linear_hole_pattern',
  summary: 'A row of exactly `count` equal bores at a constant pitch along a direction.',
  deterministic: true,
  pending_rule: 'the subject is the bores of the claimed diameter: pending while fewer than `count` exist; fail when at least `count` exist and they do not form the exact row (wrong pitch, direction or count).',
  expected_schema: closedObject({ count: { type: 'integer', minimum: 2, maximum: 1000 }, diameter_mm: positiveMm, pitch_mm: positiveMm, direction: vec3, tolerance_mm: toleranceMm }),
  required_artifacts: ['topology'],
  evaluate(expected, context) {
    if (!context.snapshot) return noBody;
    const { tolerance, bores, axis, evidence } = boresOfExpected(expected, context.snapshot);
    const u = axis ? across(expected.direction as Vec3, axis) : null;
    const few = bores.length < (expected.count as number);
    if (!u) return few ? absent(context, `no Ø${String(expected.diameter_mm)} bores across the given direction yet`, evidence) : contradicted(`the Ø${String(expected.diameter_mm)} bores run along the given direction`, evidence);
    const row = findGrid(bores, { step: scale(u, expected.pitch_mm as number), n: expected.count as number }, { step: [0, 0, 0], n: 1 }, tolerance);
    if (row) return { status: 'pass', message: `${row.length} × Ø${String(expected.diameter_mm)} at pitch ${String(expected.pitch_mm)}`, evidence: { ...evidence, row: row.map(brief) } };
    return (few ? (m: string, e: Record<string, unknown>) => absent(context, m, e) : contradicted)(`no row of exactly ${String(expected.count)} × Ø${String(expected.diameter_mm)} at pitch ${String(expected.pitch_mm)} mm`, evidence);
  },
};

export const rectangularHoleLayout: ClaimVerifier = {
  kind: 'rectangular_hole_layout',
  summary: 'A grid of equal bores: x_count × y_count at pitches x_pitch_mm / y_pitch_mm along two directions.',
  deterministic: true,
  pending_rule: 'the subject is the bores of the claimed diameter: pending while fewer than x_count × y_count exist; fail when that many exist and they do not form the exact grid (wrong pitch, directions or counts).',
  expected_schema: closedObject({
    diameter_mm: positiveMm,
    x_direction: vec3,
    x_pitch_mm: positiveMm,
    x_count: count(100),
    y_direction: vec3,
    y_pitch_mm: positiveMm,
    y_count: count(100),
    tolerance_mm: toleranceMm,
  }),
  required_artifacts: ['topology'],
  evaluate(expected, context) {
    if (!context.snapshot) return noBody;
    const { tolerance, bores, axis, evidence } = boresOfExpected(expected, context.snapshot);
    const u = axis ? across(expected.x_direction as Vec3, axis) : null;
    const v = axis ? across(expected.y_direction as Vec3, axis) : null;
    const few = bores.length < (expected.x_count as number) * (expected.y_count as number);
    const unmet = few ? (m: string, e: Record<string, unknown>) => absent(context, m, e) : contradicted;
    if (!u || !v || parallel(u, v, 1e-6)) return unmet('the two directions do not span the plane across the bores', evidence);
    const grid = findGrid(bores, { step: scale(u, expected.x_pitch_mm as number), n: expected.x_count as number }, { step: scale(v, expected.y_pitch_mm as number), n: expected.y_count as number }, tolerance);
    const size = `${String(expected.x_count)} × ${String(expected.y_count)}`;
    if (grid) return { status: 'pass', message: `${size} grid of Ø${String(expected.diameter_mm)} at ${String(expected.x_pitch_mm)} × ${String(expected.y_pitch_mm)}`, evidence: { ...evidence, grid: grid.map(brief) } };
    return unmet(`no exact ${size} grid of Ø${String(expected.diameter_mm)} at ${String(expected.x_pitch_mm)} × ${String(expected.y_pitch_mm)} mm`, evidence);
  },
};

/** The outermost planar face with outward normal `n`: the part's boundary on that side. */
function outermostFace(faces: FaceInfo[], n: Vec3): FaceInfo | undefined {
  return faces.filter((f) => f.kind === 'plane' && f.normal && dot(f.normal, n) > 1 - 1e-9).sort((a, b) => dot(b.centroid, n) - dot(a.centroid, n))[0];
}

export const holeCentreDistance: ClaimVerifier = {
  kind: 'hole_centre_distance',
  summary: 'Some bore of a diameter has its axis at a distance from another bore’s axis or from the outermost face with a given outward normal (e.g. an edge distance).',
  deterministic: true,
  pending_rule: 'pending while there is nothing to measure between (no bore of the diameter, or no target bore/face); fail when both exist and no measured distance is within the tolerance.',
  expected_schema: closedObject({
    diameter_mm: positiveMm,
    to: {
      oneOf: [
        closedObject({ kind: { const: 'bore' }, diameter_mm: positiveMm }),
        closedObject({ kind: { const: 'face' }, normal: { ...vec3, description: 'outward normal of the face, e.g. [-1, 0, 0] for the part’s −X side' } }),
      ],
    },
    distance_mm: positiveMm,
    tolerance_mm: toleranceMm,
  }),
  required_artifacts: ['topology'],
  evaluate(expected, context) {
    if (!context.snapshot) return noBody;
    const tolerance = expected.tolerance_mm as number;
    const from = boresOf(context.snapshot, expected.diameter_mm as number, tolerance);
    const to = expected.to as { kind: 'bore'; diameter_mm: number } | { kind: 'face'; normal: Vec3 };
    const measured: { from: string[]; to: string | string[]; distance_mm: number }[] = [];
    if (to.kind === 'bore') {
      for (const a of from) {
        for (const b of boresOf(context.snapshot, to.diameter_mm, tolerance)) {
          if (a === b || !parallel(a.axis.direction, b.axis.direction, 1e-6)) continue;
          measured.push({ from: a.face_tokens, to: b.face_tokens, distance_mm: distanceToLine(b.axis.origin, a.axis.origin, a.axis.direction) });
        }
      }
    } else {
      const n = normalize(to.normal);
      const face = n ? outermostFace(context.snapshot.faces, n) : undefined;
      for (const a of face && n ? from : []) {
        if (Math.abs(dot(a.axis.direction, n as Vec3)) > 1e-6) continue;
        measured.push({ from: a.face_tokens, to: (face as FaceInfo).token, distance_mm: Math.abs(dot(sub(a.axis.origin, (face as FaceInfo).centroid), n as Vec3)) });
      }
    }
    const wanted = expected.distance_mm as number;
    const hit = measured.find((m) => Math.abs(m.distance_mm - wanted) <= tolerance);
    const evidence = { expected, measured: measured.slice(0, 50) };
    if (hit) return { status: 'pass', message: `centre distance ${hit.distance_mm.toFixed(4)} mm`, evidence: { ...evidence, matched: hit } };
    const nearest = measured.map((m) => m.distance_mm).sort((x, y) => Math.abs(x - wanted) - Math.abs(y - wanted))[0];
    if (nearest === undefined) return absent(context, 'nothing to measure between yet', evidence);
    return contradicted(`nearest centre distance ${nearest.toFixed(4)} mm, expected ${wanted}`, evidence);
  },
};
