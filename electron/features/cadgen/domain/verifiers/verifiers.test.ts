import { describe, expect, it } from 'vitest';
import type { FaceInfo, TopologySnapshot } from '../topology';
import type { Vec3 } from '../vec3';
import { ALL_VERIFIERS, verifierIntegrityProblems } from './registry';
import type { ClaimVerifier, VerifierContext } from './types';

const byKind = (kind: string): ClaimVerifier => ALL_VERIFIERS.find((v) => v.kind === kind) as ClaimVerifier;
let nextToken = 0;
const token = (): string => `fc_${(nextToken += 1).toString(16).padStart(20, '0')}`;

function plane(index: number, z: number, normal: Vec3, adjacent: number[], half = 50): FaceInfo {
  return { token: token(), index, kind: 'plane', area_mm2: 1, centroid: [0, 0, z], bbox: { min: [-half, -half, z], max: [half, half, z] }, normal, adjacent_faces: adjacent };
}
function bore(index: number, centre: [number, number], radius: number, z0: number, z1: number, adjacent: number[]): FaceInfo {
  return {
    token: token(),
    index,
    kind: 'cylinder',
    area_mm2: 1,
    centroid: [centre[0], centre[1], (z0 + z1) / 2],
    bbox: { min: [centre[0] - radius, centre[1] - radius, z0], max: [centre[0] + radius, centre[1] + radius, z1] },
    axis: { origin: [centre[0], centre[1], 0], direction: [0, 0, 1] },
    radius_mm: radius,
    concave: true,
    adjacent_faces: adjacent,
  };
}
function snapshot(faces: FaceInfo[], solids = 1): TopologySnapshot {
  return { snapshot_id: '0'.repeat(64), faces, edges: [], features: [], measurements: { solid_count: solids, volume_mm3: 1000, area_mm2: 1, bbox: { min: [-50, -50, 0], max: [50, 50, 10] } } };
}
const final = (s: TopologySnapshot | null): VerifierContext => ({ snapshot: s, stage: 'final' });

/** A 10 mm plate: top 0, bottom 1, bore faces from 2; `blind` closes the first bore with a cap at z = 4. */
function plateWithBores(centres: [number, number][], blind = false): TopologySnapshot {
  const faces: FaceInfo[] = [plane(0, 10, [0, 0, 1], []), plane(1, 0, [0, 0, -1], [])];
  for (const [i, c] of centres.entries()) {
    const index = faces.length;
    const closed = blind && i === 0;
    faces.push(bore(index, c, 5, closed ? 4 : 0, 10, closed ? [0, index + 1] : [0, 1]));
    (faces[0] as FaceInfo).adjacent_faces.push(index);
    if (closed) faces.push({ ...plane(index + 1, 4, [0, 0, 1], [index], 5), centroid: [c[0], c[1], 4], bbox: { min: [c[0] - 5, c[1] - 5, 4], max: [c[0] + 5, c[1] + 5, 4] } });
    else (faces[1] as FaceInfo).adjacent_faces.push(index);
  }
  return snapshot(faces);
}

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

  it('accept a blind bore as a cylindrical bore but leave it pending as through during candidate builds', () => {
    expect(byKind('cylindrical_bore').evaluate(boreClaim, final(plateWithBores([[0, 0]], true))).status).toBe('pass');
    expect(byKind('through_cylindrical_bore').evaluate(boreClaim, { snapshot: plateWithBores([[0, 0]], true), stage: 'candidate' }).status).toBe('pending');
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
