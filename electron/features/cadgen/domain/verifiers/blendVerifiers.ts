import { closedObject } from '../contracts/schemaParts';
import type { EdgeInfo, FaceInfo, TopologySnapshot } from '../topology';
import { cross, dot, norm, normalize, sub } from '../vec3';
import type { Vec3 } from '../vec3';
import { positiveMm, toleranceMm } from './expectedParts';
import { absent, contradicted } from './types';
import type { ClaimOutcome, ClaimVerifier } from './types';

const noBody: ClaimOutcome = { status: 'fail', message: 'the rebuild produced no solid', evidence: {} };
/** A cylinder spanning less than this is a blend (fillet / rounded corner), not a bore or shaft. */
const FULL_TURN_DEG = 359;

/** Fillet faces: partial cylinders, optionally only convex (rounded outside edges) or concave (inside corners). */
export function filletFaces(snapshot: TopologySnapshot, convexity: 'convex' | 'concave' | 'any'): FaceInfo[] {
  return snapshot.faces.filter(
    (f) => f.kind === 'cylinder' && (f.angle_span_deg ?? 360) < FULL_TURN_DEG && (convexity === 'any' || (convexity === 'concave') === (f.concave === true)),
  );
}

const lineDirection = (e: EdgeInfo): Vec3 | null => normalize(sub(e.end, e.start));

/**
 * Chamfer faces and their measured setback: a planar strip whose two parallel long edges it shares
 * with two planar faces A and B, its normal bisecting theirs. The strip width w and the angle α
 * between A and B give the equal setback d = w / (2 sin(α/2)).
 */
export function chamferFaces(snapshot: TopologySnapshot): { face: FaceInfo; distance_mm: number; width_mm: number }[] {
  const edgesOf = new Map<number, EdgeInfo[]>();
  for (const edge of snapshot.edges) for (const f of edge.adjacent_faces) edgesOf.set(f, [...(edgesOf.get(f) ?? []), edge]);
  const out: { face: FaceInfo; distance_mm: number; width_mm: number }[] = [];
  for (const face of snapshot.faces) {
    if (face.kind !== 'plane' || !face.normal) continue;
    const lines = (edgesOf.get(face.index) ?? []).filter((e) => e.kind === 'line' && e.adjacent_faces.length === 2);
    let best: { distance_mm: number; width_mm: number; length: number } | null = null;
    for (let i = 0; i < lines.length; i += 1) {
      for (let j = i + 1; j < lines.length; j += 1) {
        const [e1, e2] = [lines[i] as EdgeInfo, lines[j] as EdgeInfo];
        const [d1, d2] = [lineDirection(e1), lineDirection(e2)];
        if (!d1 || !d2 || norm(cross(d1, d2)) > 1e-6) continue;
        const width = norm(cross(sub(e2.start, e1.start), d1));
        const length = Math.min(e1.length_mm, e2.length_mm);
        if (width < 1e-6 || width > length) continue;
        const [a, b] = [e1, e2].map((e) => snapshot.faces[e.adjacent_faces.find((f) => f !== face.index) as number]);
        if (!a?.normal || !b?.normal || a === b || a.kind !== 'plane' || b.kind !== 'plane') continue;
        const cosAB = dot(a.normal, b.normal);
        if (Math.abs(cosAB) > 1 - 1e-9 || Math.abs(dot(face.normal, a.normal) - dot(face.normal, b.normal)) > 1e-6) continue;
        const interior = Math.PI - Math.acos(cosAB);
        const distance = width / (2 * Math.sin(interior / 2));
        if (!best || length > best.length) best = { distance_mm: distance, width_mm: width, length };
      }
    }
    if (best) out.push({ face, distance_mm: best.distance_mm, width_mm: best.width_mm });
  }
  return out;
}

const BLEND_RULE =
  'pending while no blend face of the kind exists, or (with `count`) fewer than `count` match and the others may belong to another claim; fail with `count` when more than `count` match, and without `count` as soon as one blend of the kind has another size.';

const countSchema = { type: 'integer', minimum: 1, maximum: 1000, description: 'optional: exactly this many faces of the size' };

/** Shared judgement: with `count`, exactly that many match; without, at least one exists and every candidate matches. */
function judge(context: Parameters<ClaimVerifier['evaluate']>[1], what: string, sizes: { token: string; size: number }[], wanted: number, tolerance: number, expectedCount: number | undefined): ClaimOutcome {
  const matching = sizes.filter((s) => Math.abs(s.size - wanted) <= tolerance);
  const evidence = { measured: sizes.slice(0, 100), matching_tokens: matching.map((m) => m.token), expected_mm: wanted, tolerance_mm: tolerance, ...(expectedCount !== undefined ? { expected_count: expectedCount } : {}) };
  const measured = [...new Set(sizes.map((s) => Number(s.size.toFixed(4))))].join(', ') || 'none';
  const ok = expectedCount !== undefined ? matching.length === expectedCount : matching.length > 0 && matching.length === sizes.length;
  if (ok) return { status: 'pass', message: `${matching.length} ${what} face(s) of ${wanted} mm`, evidence };
  const contradicts = expectedCount !== undefined ? matching.length > expectedCount : sizes.length > 0;
  return (contradicts ? contradicted : (m: string, e: Record<string, unknown>) => absent(context, m, e))( `${what} sizes found: ${measured} mm (${matching.length} match ${wanted} ± ${tolerance})${expectedCount !== undefined ? `, expected ${expectedCount}` : ''}`, evidence);
}

export const filletRadius: ClaimVerifier = {
  kind: 'fillet_radius',
  summary: 'Fillet faces (partial cylinders) have the radius: exactly `count` of them, or all of the chosen convexity.',
  deterministic: true,
  pending_rule: BLEND_RULE,
  expected_schema: closedObject(
    { radius_mm: positiveMm, tolerance_mm: toleranceMm, count: countSchema, convexity: { type: 'string', enum: ['convex', 'concave', 'any'], description: 'convex: rounded outside edges; concave: inside corners' } },
    ['radius_mm', 'tolerance_mm', 'convexity'],
  ),
  required_artifacts: ['topology'],
  evaluate(expected, context) {
    if (!context.snapshot) return noBody;
    const faces = filletFaces(context.snapshot, expected.convexity as 'convex' | 'concave' | 'any');
    return judge(context, 'fillet', faces.map((f) => ({ token: f.token, size: f.radius_mm ?? 0 })), expected.radius_mm as number, expected.tolerance_mm as number, expected.count as number | undefined);
  },
};

export const chamferSize: ClaimVerifier = {
  kind: 'chamfer_size',
  summary: 'Equal-distance chamfer faces have the setback distance: exactly `count` of them, or all chamfers found.',
  deterministic: true,
  pending_rule: BLEND_RULE,
  expected_schema: closedObject({ distance_mm: positiveMm, tolerance_mm: toleranceMm, count: countSchema }, ['distance_mm', 'tolerance_mm']),
  required_artifacts: ['topology'],
  evaluate(expected, context) {
    if (!context.snapshot) return noBody;
    const faces = chamferFaces(context.snapshot);
    return judge(context, 'chamfer', faces.map((c) => ({ token: c.face.token, size: c.distance_mm })), expected.distance_mm as number, expected.tolerance_mm as number, expected.count as number | undefined);
  },
};
