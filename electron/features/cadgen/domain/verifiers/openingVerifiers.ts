import { closedObject, vec3 } from '../contracts/schemaParts';
import type { FaceInfo, TopologySnapshot } from '../topology';
import { add, cross, dot, normalize, parallel, scale, sub } from '../vec3';
import type { Vec3 } from '../vec3';
import { positiveMm, toleranceMm } from './expectedParts';
import { absent, contradicted } from './types';
import type { ClaimOutcome, ClaimVerifier, VerifierContext } from './types';

const noBody: ClaimOutcome = { status: 'fail', message: 'the rebuild produced no solid', evidence: {} };

/** A recess or hole bounded by walls parallel to an axis, found from the topology alone. */
export interface Opening {
  wall_tokens: string[];
  floor_token: string | null;
  /** Outline extents across the axis, ascending. */
  outline_mm: [number, number];
  /** Wall height along the axis. */
  depth_mm: number;
}

const isWall = (f: FaceInfo, axis: Vec3): boolean =>
  (f.kind === 'plane' && !!f.normal && Math.abs(dot(f.normal, axis)) < 1e-6) || (f.kind === 'cylinder' && !!f.axis && parallel(f.axis.direction, axis, 1e-6));

/**
 * Inner wall loops around `axis`: connected faces parallel to the axis whose outward normals all
 * face the loop's centre (so the material is outside: a pocket or opening, not the part's outline).
 * A loop has a floor when a planar face across the axis is bounded by its walls only.
 */
export function findOpenings(snapshot: TopologySnapshot, axisInput: Vec3): Opening[] {
  const axis = normalize(axisInput);
  if (!axis) return [];
  const faces = snapshot.faces;
  const seen = new Set<number>();
  const edgesOf = new Map<number, { start: Vec3; end: Vec3; centre?: Vec3; radius_mm?: number }[]>();
  for (const e of snapshot.edges) for (const f of e.adjacent_faces) edgesOf.set(f, [...(edgesOf.get(f) ?? []), e]);
  const openings: Opening[] = [];
  for (const seed of faces) {
    if (seen.has(seed.index) || !isWall(seed, axis)) continue;
    const group: FaceInfo[] = [];
    const queue = [seed];
    seen.add(seed.index);
    while (queue.length > 0) {
      const face = queue.pop() as FaceInfo;
      group.push(face);
      for (const n of face.adjacent_faces) {
        const next = faces[n];
        if (next && !seen.has(n) && isWall(next, axis)) {
          seen.add(n);
          queue.push(next);
        }
      }
    }
    const centre = scale(group.reduce<Vec3>((sum, f) => add(sum, f.centroid), [0, 0, 0]), 1 / group.length);
    const inward = group.every((f) => (f.kind === 'cylinder' ? f.concave === true : dot(f.normal as Vec3, sub(centre, f.centroid)) > 1e-9));
    if (!inward) continue;
    const members = new Set(group.map((f) => f.index));
    const planeWall = group.find((f) => f.kind === 'plane');
    const u = normalize(planeWall?.normal ?? cross(axis, Math.abs(axis[0]) < 0.9 ? [1, 0, 0] : [0, 1, 0])) as Vec3;
    const v = cross(axis, u);
    // Extents from the walls' edge end points, plus the full radius of circular edges (rounded ends).
    const points: Vec3[] = [];
    for (const f of group) {
      for (const e of edgesOf.get(f.index) ?? []) {
        points.push(e.start, e.end);
        if (e.centre && e.radius_mm !== undefined) for (const d of [u, v]) points.push(add(e.centre, scale(d, e.radius_mm)), sub(e.centre, scale(d, e.radius_mm)));
      }
    }
    const extent = (d: Vec3): number => Math.max(...points.map((p) => dot(p, d))) - Math.min(...points.map((p) => dot(p, d)));
    const [a, b] = [extent(u), extent(v)].sort((x, y) => x - y) as [number, number];
    const floor = faces.find((f) => f.kind === 'plane' && f.normal && parallel(f.normal, axis, 1e-6) && f.adjacent_faces.length > 0 && f.adjacent_faces.every((n) => members.has(n)));
    openings.push({ wall_tokens: group.map((f) => f.token), floor_token: floor?.token ?? null, outline_mm: [a, b], depth_mm: extent(axis) });
  }
  return openings;
}

const outlineSchema = { type: 'array', items: positiveMm, minItems: 2, maxItems: 2, description: 'outline width and length across the axis (any order)' };

function evaluateOpening(expected: Record<string, unknown>, context: VerifierContext, pocket: boolean): ClaimOutcome {
  if (!context.snapshot) return noBody;
  const tolerance = expected.tolerance_mm as number;
  const wanted = [...(expected.outline_mm as number[])].sort((x, y) => x - y);
  const all = findOpenings(context.snapshot, expected.axis as Vec3);
  const openings = all.filter((o) => (o.floor_token !== null) === pocket);
  const outlineFits = (o: Opening): boolean => o.outline_mm.every((m, i) => Math.abs(m - (wanted[i] as number)) <= tolerance);
  const sized = openings.filter(outlineFits);
  const match = pocket ? sized.find((o) => Math.abs(o.depth_mm - (expected.depth_mm as number)) <= tolerance) : sized[0];
  const evidence = { expected, openings: openings.slice(0, 20) };
  const what = pocket ? 'pocket' : 'through opening';
  if (match) return { status: 'pass', message: `${what} ${match.outline_mm.map((m) => m.toFixed(3)).join(' × ')}${pocket ? `, ${match.depth_mm.toFixed(3)} deep` : ''}`, evidence: { ...evidence, matched: match } };
  const found = openings.map((o) => `${o.outline_mm.map((m) => m.toFixed(3)).join(' × ')}${pocket ? ` (${o.depth_mm.toFixed(3)} deep)` : ''}`).join('; ') || 'none';
  // The claimed outline made as the other kind (blind instead of through, or the reverse) or a pocket of it at another depth contradicts the claim.
  const wrongKind = all.find((o) => (o.floor_token !== null) !== pocket && outlineFits(o));
  if (wrongKind) return contradicted(`the ${wanted.join(' × ')} opening is ${pocket ? 'through (no floor)' : 'blind (it has a floor)'}`, { ...evidence, wrong_kind: wrongKind });
  if (pocket && sized.length > 0) return contradicted(`the ${wanted.join(' × ')} pocket is ${sized.map((o) => o.depth_mm.toFixed(3)).join(', ')} deep, expected ${String(expected.depth_mm)}`, evidence);
  return absent(context, `no ${what} ${wanted.join(' × ')}${pocket ? `, ${String(expected.depth_mm)} deep` : ''} along the axis; found: ${found}`, evidence);
}

export const pocket: ClaimVerifier = {
  kind: 'pocket',
  summary: 'A non-circular recess with a floor: outline size across the axis and depth along it.',
  deterministic: true,
  pending_rule: 'the subject is an opening of the claimed outline along the axis (openings of other outlines may belong to other claims): pending while there is none; fail when that outline is made through (no floor) or at another depth.',
  expected_schema: closedObject({ outline_mm: outlineSchema, depth_mm: positiveMm, axis: vec3, tolerance_mm: toleranceMm }),
  required_artifacts: ['topology'],
  evaluate: (expected, context) => evaluateOpening(expected, context, true),
};

export const throughOpening: ClaimVerifier = {
  kind: 'through_opening',
  summary: 'A non-circular opening through the part (walls without a floor): outline size across the axis.',
  deterministic: true,
  pending_rule: 'the subject is an opening of the claimed outline along the axis: pending while there is none; fail when that outline is made blind (it has a floor).',
  expected_schema: closedObject({ outline_mm: outlineSchema, axis: vec3, tolerance_mm: toleranceMm }),
  required_artifacts: ['topology'],
  evaluate: (expected, context) => evaluateOpening(expected, context, false),
};
