import { describe, expect, it } from 'vitest';
import type { CdslFeature } from '../document';
import type { FaceInfo, TopologySnapshot } from '../topology';
import { postBuildEffectProblem, runPreflights } from './index';
import type { ResolvedRefs } from './types';

const previous: TopologySnapshot = {
  snapshot_id: '0'.repeat(64),
  faces: [],
  edges: [],
  features: [],
  measurements: { solid_count: 1, volume_mm3: 1000, area_mm2: 1, bbox: { min: [-50, -50, 0], max: [50, 50, 10] } },
};
const topFace: FaceInfo = { token: 'fc_' + '0'.repeat(20), index: 0, kind: 'plane', area_mm2: 1e4, centroid: [0, 0, 10], bbox: { min: [-50, -50, 10], max: [50, 50, 10] }, normal: [0, 0, 1], adjacent_faces: [] };
const sketch = (workplane: Record<string, number[]>, outer: Record<string, unknown>, inner?: Record<string, unknown>[]) => ({ workplane, profile: { outer, ...(inner ? { inner } : {}) } });
const XY = { origin: [0, 0, 10], normal: [0, 0, 1], x_dir: [1, 0, 0] };
const square = { type: 'rectangle', center: [0, 0], width_mm: 10, height_mm: 10 };

function check(names: string[], feature: Partial<CdslFeature>, resolved: ResolvedRefs = {}, before: TopologySnapshot | null = previous): void {
  runPreflights(names, { feature: { id: 'F2', atomic_id: 'extrude', ...feature } as CdslFeature, previous: before, resolved });
}
const failsWith = (check: string) => expect.objectContaining({ code: 'CDSL_PRECONDITION_FAILED', data: expect.objectContaining({ check }) });

describe('semantic preflights', () => {
  it('accept a valid workplane and a simple profile with an inner loop', () => {
    expect(() => check(['workplane_valid', 'profile_closed_simple'], { sketch: sketch(XY, square, [{ type: 'circle', center: [0, 0], diameter_mm: 4 }]) as never })).not.toThrow();
  });

  it('reject a zero normal and a non-orthogonal x direction', () => {
    expect(() => check(['workplane_valid'], { sketch: sketch({ ...XY, normal: [0, 0, 0] }, square) as never })).toThrow(failsWith('workplane_valid'));
    expect(() => check(['workplane_valid'], { sketch: sketch({ ...XY, x_dir: [1, 0, 0.1] }, square) as never })).toThrow(failsWith('workplane_valid'));
  });

  it('reject open, self-intersecting and badly nested profiles', () => {
    const open = { type: 'polyline', start: [0, 0], segments: [{ type: 'line', to: [10, 0] }, { type: 'line', to: [10, 10] }] };
    const bowtie = { type: 'polyline', start: [0, 0], segments: [[10, 10], [10, 0], [0, 10], [0, 0]].map((to) => ({ type: 'line', to })) };
    expect(() => check(['profile_closed_simple'], { sketch: sketch(XY, open) as never })).toThrow(failsWith('profile_closed_simple'));
    expect(() => check(['profile_closed_simple'], { sketch: sketch(XY, bowtie) as never })).toThrow(failsWith('profile_closed_simple'));
    expect(() => check(['profile_closed_simple'], { sketch: sketch(XY, square, [{ type: 'circle', center: [4, 0], diameter_mm: 4 }]) as never })).toThrow(failsWith('profile_closed_simple'));
    expect(() => check(['profile_closed_simple'], { sketch: sketch(XY, { ...square, type: 'rounded_rectangle', corner_radius_mm: 5 }) as never })).toThrow(failsWith('profile_closed_simple'));
  });

  it('require the revolve axis in the sketch plane and the profile on one side of it', () => {
    const XZ = { origin: [0, 0, 0], normal: [0, -1, 0], x_dir: [1, 0, 0] };
    const ring = { type: 'rectangle', center: [20, 5], width_mm: 10, height_mm: 10 };
    const ok = { sketch: sketch(XZ, ring) as never, params: { axis: { origin: [0, 0, 0], direction: [0, 0, 1] } } };
    expect(() => check(['revolve_axis_in_sketch_plane', 'revolve_profile_one_side'], ok)).not.toThrow();
    expect(() => check(['revolve_axis_in_sketch_plane'], { ...ok, params: { axis: { origin: [0, 3, 0], direction: [0, 0, 1] } } })).toThrow(failsWith('revolve_axis_in_sketch_plane'));
    expect(() => check(['revolve_axis_in_sketch_plane'], { ...ok, params: { axis: { origin: [0, 0, 0], direction: [0, 1, 1] } } })).toThrow(failsWith('revolve_axis_in_sketch_plane'));
    expect(() => check(['revolve_profile_one_side'], { ...ok, params: { axis: { origin: [20, 0, 0], direction: [0, 0, 1] } } })).toThrow(failsWith('revolve_profile_one_side'));
  });

  it('require hole centres on the planar host face and sensible counterbores', () => {
    const params = { positions_mm: [[10, 10, 10]], diameter_mm: 5, extent: { kind: 'through_all' }, style: { kind: 'counterbore', diameter_mm: 8, depth_mm: 2 } };
    const names = ['host_face_planar', 'hole_positions_on_host_face', 'hole_style_dimensions', 'through_exit_distance'];
    expect(() => check(names, { atomic_id: 'hole', params }, { host_face: topFace })).not.toThrow();
    expect(() => check(names, { atomic_id: 'hole', params: { ...params, positions_mm: [[10, 10, 9]] } }, { host_face: topFace })).toThrow(failsWith('hole_positions_on_host_face'));
    expect(() => check(names, { atomic_id: 'hole', params: { ...params, positions_mm: [[80, 10, 10]] } }, { host_face: topFace })).toThrow(failsWith('hole_positions_on_host_face'));
    expect(() => check(names, { atomic_id: 'hole', params: { ...params, style: { kind: 'countersink', diameter_mm: 4, angle_deg: 90 } } }, { host_face: topFace })).toThrow(failsWith('hole_style_dimensions'));
    expect(() => check(names, { atomic_id: 'hole', params }, { host_face: { ...topFace, kind: 'cylinder', normal: undefined } })).toThrow(failsWith('host_face_planar'));
  });

  it('refuse a through cut whose direction leaves the body immediately', () => {
    const above = { origin: [0, 0, 10], normal: [0, 0, 1], x_dir: [1, 0, 0] };
    const names = ['cut_reaches_body', 'through_exit_distance'];
    expect(() => check(names, { atomic_id: 'extrude_cut_through', sketch: sketch(above, square) as never, params: { direction: 'reverse' } })).not.toThrow();
    expect(() => check(names, { atomic_id: 'extrude_cut_through', sketch: sketch(above, square) as never, params: { direction: 'normal' } })).toThrow(failsWith('cut_reaches_body'));
  });

  it('require a body before cutting, joining or shelling, and a thin enough wall', () => {
    expect(() => check(['body_exists'], {}, {}, null)).toThrow(failsWith('body_exists'));
    expect(() => check(['join_needs_body'], { params: { body: 'join' } }, {}, null)).toThrow(failsWith('join_needs_body'));
    expect(() => check(['shell_thickness_fits'], { params: { thickness_mm: 5 } })).toThrow(failsWith('shell_thickness_fits'));
    expect(() => check(['direction_nonzero'], { params: { direction: [0, 0, 0] } })).toThrow(failsWith('direction_nonzero'));
  });

  it('prove from the bboxes that a cut beside the body or a join away from it changes nothing', () => {
    const beside = { origin: [0, 0, 10], normal: [0, 0, 1], x_dir: [1, 0, 0] };
    const far = { type: 'rectangle', center: [80, 0], width_mm: 10, height_mm: 10 };
    const noEffect = expect.objectContaining({ code: 'CDSL_FEATURE_NO_EFFECT', data: expect.objectContaining({ check: 'cut_tool_meets_body', stage: 'preflight' }) });
    expect(() => check(['cut_tool_meets_body'], { atomic_id: 'extrude_cut_through', sketch: sketch(beside, far) as never, params: { direction: 'both' } })).toThrow(noEffect);
    expect(() => check(['cut_tool_meets_body'], { atomic_id: 'extrude_cut_through', sketch: sketch(beside, square) as never, params: { direction: 'both' } })).not.toThrow();
    const join = { extent: { kind: 'one_sided', distance_mm: 5, reverse: false }, body: 'join' };
    expect(() => check(['join_tool_meets_body'], { sketch: sketch(beside, far) as never, params: join })).toThrow(expect.objectContaining({ code: 'CDSL_FEATURE_DISJOINT' }));
    expect(() => check(['join_tool_meets_body'], { sketch: sketch(beside, square) as never, params: join })).not.toThrow();
    expect(() => check(['join_tool_meets_body'], { sketch: sketch(beside, far) as never, params: { ...join, body: 'new_body' } })).not.toThrow();
  });

  it('judge the measured volume change of each kind of feature', () => {
    const m = (volume: number, solids = 1) => ({ ...previous.measurements, volume_mm3: volume, solid_count: solids });
    expect(postBuildEffectProblem('cut', false, m(1000), m(1000))?.code).toBe('CDSL_FEATURE_NO_EFFECT');
    expect(postBuildEffectProblem('cut', false, m(1000), m(900))).toBeNull();
    expect(postBuildEffectProblem('add', true, m(1000), m(1000))?.code).toBe('CDSL_FEATURE_NO_EFFECT');
    expect(postBuildEffectProblem('add', true, m(1000), m(1100, 2))?.code).toBe('CDSL_FEATURE_DISJOINT');
    expect(postBuildEffectProblem('add', false, m(1000), m(1100, 2))).toBeNull();
    expect(postBuildEffectProblem('modify', false, m(1000), m(1000))?.code).toBe('CDSL_FEATURE_NO_EFFECT');
  });
});
