import { describe, expect, it } from 'vitest';
import type { TopologySnapshot } from '../topology';
import { bore, plane, plateWithBores, snapshot } from './topology.testSupport';
import { ALL_VERIFIERS, verifierIntegrityProblems } from './registry';
import type { ClaimVerifier, VerifierContext } from './types';

const final = (s: TopologySnapshot | null): VerifierContext => ({ snapshot: s, stage: 'final' });

const byKind = (kind: string): ClaimVerifier => ALL_VERIFIERS.find((v) => v.kind === kind) as ClaimVerifier;
const boreClaim = { diameter_mm: 10, axis: [0, 0, 1], position: [0, 0, 5], tolerance_mm: 0.001 };
const pattern = (centres: [number, number][]): TopologySnapshot => plateWithBores(centres);
const onCircle = (n: number, r: number, skew = 0): [number, number][] => Array.from({ length: n }, (_, i) => [r * Math.cos((2 * Math.PI * i) / n + (i === 1 ? skew : 0)), r * Math.sin((2 * Math.PI * i) / n + (i === 1 ? skew : 0))]);
const patternClaim = { count: 4, diameter_mm: 10, pcd_mm: 90, centre: [0, 0, 0], axis: [0, 0, 1], through: true, tolerance_mm: 0.001 };

describe('claim verifiers', () => {
  it('pass the registry integrity check with unique kinds and closed schemas', () => {
    expect(verifierIntegrityProblems(ALL_VERIFIERS)).toEqual([]);
  });

  it('reject a registry with a duplicate kind or an open expected schema', () => {
    const open = { ...byKind('volume_mm3'), kind: 'open_kind', expected_schema: { type: 'object', properties: {} } };
    const problems = verifierIntegrityProblems([...ALL_VERIFIERS, byKind('coaxial'), open]);
    expect(problems).toContain('coaxial: duplicate claim kind');
    expect(problems.some((p) => p.startsWith('open_kind: expected_schema $: additionalProperties'))).toBe(true);
  });

  it('prove a through bore topologically and fail a bore closed by a cap', () => {
    expect(byKind('through_cylindrical_bore').evaluate(boreClaim, final(plateWithBores([[0, 0]]))).status).toBe('pass');
    const blind = byKind('through_cylindrical_bore').evaluate(boreClaim, final(plateWithBores([[0, 0]], true)));
    expect(blind.status).toBe('fail');
    expect((blind.evidence.matched as { cap_face_tokens: string[] }[])[0]?.cap_face_tokens).toHaveLength(1);
  });

  it('accept a blind bore as a cylindrical bore but fail it as a through bore already at a candidate (the bore exists and is blind)', () => {
    expect(byKind('cylindrical_bore').evaluate(boreClaim, final(plateWithBores([[0, 0]], true))).status).toBe('pass');
    expect(byKind('through_cylindrical_bore').evaluate(boreClaim, { snapshot: plateWithBores([[0, 0]], true), stage: 'candidate' }).status).toBe('fail');
    expect(byKind('through_cylindrical_bore').evaluate(boreClaim, { snapshot: plateWithBores([]), stage: 'candidate' }).status).toBe('pending');
  });

  it('fail a bore of the wrong diameter or off the claimed axis', () => {
    expect(byKind('cylindrical_bore').evaluate({ ...boreClaim, diameter_mm: 12 }, final(plateWithBores([[0, 0]]))).status).toBe('fail');
    expect(byKind('cylindrical_bore').evaluate({ ...boreClaim, position: [1, 0, 5] }, final(plateWithBores([[0, 0]]))).status).toBe('fail');
  });

  it('pass four equally spaced through holes on the pitch circle', () => {
    expect(byKind('circular_hole_pattern').evaluate(patternClaim, final(pattern(onCircle(4, 45)))).status).toBe('pass');
  });

  it('fail a hole pattern with a wrong count, uneven spacing, wrong pitch circle or a blind hole', () => {
    const verifier = byKind('circular_hole_pattern');
    expect(verifier.evaluate(patternClaim, final(pattern(onCircle(3, 45)))).status).toBe('fail');
    expect(verifier.evaluate(patternClaim, final(pattern(onCircle(4, 45, 0.1)))).status).toBe('fail');
    expect(verifier.evaluate(patternClaim, final(pattern(onCircle(4, 40)))).status).toBe('fail');
    const withBlind = plateWithBores(onCircle(4, 45), true);
    expect(verifier.evaluate(patternClaim, final(withBlind)).message).toContain('blind');
  });

  it('compare exact bbox extents per axis and sorted', () => {
    const v = byKind('bbox_dimension_mm');
    const s = final(plateWithBores([]));
    expect(v.evaluate({ axis: 'z', value_mm: 10, tolerance_mm: 1e-6 }, s).status).toBe('pass');
    expect(v.evaluate({ axis: 'x', value_mm: 10, tolerance_mm: 1e-6 }, s).status).toBe('fail');
    expect(v.evaluate({ axis: 'sorted', values_mm: [10, 100, 100], tolerance_mm: 1e-6 }, s).status).toBe('pass');
  });

  it('check volume with a relative tolerance and solid counts exactly', () => {
    const s = final(plateWithBores([]));
    expect(byKind('volume_mm3').evaluate({ value_mm3: 1000.0001, relative_tolerance: 1e-6 }, s).status).toBe('pass');
    expect(byKind('volume_mm3').evaluate({ value_mm3: 1100, relative_tolerance: 1e-6 }, s).status).toBe('fail');
    expect(byKind('solid_count_equals').evaluate({ count: 2 }, s).status).toBe('fail');
    expect(byKind('single_connected_body').evaluate({}, final(snapshot([], 2))).status).toBe('fail');
    // One solid whose two faces share no edge is not proven connected.
    expect(byKind('single_connected_body').evaluate({}, s).status).toBe('fail');
    expect(byKind('single_connected_body').evaluate({}, final(snapshot([plane(0, 10, [0, 0, 1], [1]), plane(1, 0, [0, 0, -1], [0])]))).status).toBe('pass');
  });

  it('find coaxial cylinders and reject offset ones', () => {
    const s = snapshot([bore(0, [0, 0], 20, 0, 10, []), { ...bore(1, [0, 0], 60, 0, 10, []), concave: false }, bore(2, [3, 0], 5, 0, 10, [])]);
    expect(byKind('coaxial').evaluate({ diameters_mm: [40, 120], tolerance_mm: 0.001 }, final(s)).status).toBe('pass');
    expect(byKind('coaxial').evaluate({ diameters_mm: [40, 10], tolerance_mm: 0.001 }, final(s)).status).toBe('fail');
  });

  it('decide coplanarity from the faces at the given points', () => {
    const s = final(plateWithBores([]));
    expect(byKind('coplanar').evaluate({ points_mm: [[-10, 0, 10], [20, 5, 10]], tolerance_mm: 0.001 }, s).status).toBe('pass');
    expect(byKind('coplanar').evaluate({ points_mm: [[-10, 0, 10], [20, 5, 0]], tolerance_mm: 0.001 }, s).status).toBe('fail');
  });

  it('leave visual claims pending with the renders, or unavailable without them', () => {
    const v = byKind('visual');
    expect(v.evaluate({ description: 'round flange' }, { snapshot: null, stage: 'final', renders: ['view-iso.png'] })).toMatchObject({ status: 'pending', evidence: { renders: ['view-iso.png'] } });
    expect(v.evaluate({ description: 'round flange' }, final(null)).status).toBe('unavailable');
  });

  it('fail every geometric claim when the rebuild produced no solid', () => {
    for (const kind of ['bbox_dimension_mm', 'volume_mm3', 'cylindrical_bore', 'circular_hole_pattern']) {
      const expected = kind === 'bbox_dimension_mm' ? { axis: 'x', value_mm: 1, tolerance_mm: 1 } : kind === 'volume_mm3' ? { value_mm3: 1, relative_tolerance: 0.1 } : kind === 'cylindrical_bore' ? boreClaim : patternClaim;
      expect(byKind(kind).evaluate(expected, final(null)).status).toBe('fail');
    }
  });
});
