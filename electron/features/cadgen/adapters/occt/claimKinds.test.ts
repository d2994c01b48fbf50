import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCdslCatalog } from '../../application/cdslCatalog';
import { evaluateClaims, parseClaims } from '../../application/evaluateClaims';
import type { EdgeInfo, FaceInfo, TopologySnapshot } from '../../domain/topology';
import type { CadRuntime } from '../../ports/cadRuntime';
import { OCCT_OPERATION_IDS } from './operationIds';
import { builtWorker, circle, extrudeAt, rawDocument, rect, XY } from './testSupport';
import { createOcctRuntime } from './workerRuntime';

const catalog = createCdslCatalog(OCCT_OPERATION_IDS);
const NO_OUTPUTS = { step: false, meshes: false, projections: false };
let runtime: CadRuntime;

async function built(features: Record<string, unknown>[]): Promise<TopologySnapshot> {
  const outcome = await runtime.build(catalog.validateDocument(rawDocument('part', features)), NO_OUTPUTS);
  expect(outcome.features.map((f) => f.error?.message ?? f.status)).toEqual(features.map(() => 'built'));
  return outcome.snapshot as TopologySnapshot;
}
/** Status of one claim (its expected value validated against the verifier's closed schema first). */
const status = (snapshot: TopologySnapshot, kind: string, expected: Record<string, unknown>): string => {
  const [claim] = parseClaims(catalog, { claims: [{ id: 'c', kind, expected }] });
  return evaluateClaims(catalog, [claim as never], { snapshot, stage: 'final' })[0]?.status ?? 'missing';
};
const topFace = (s: TopologySnapshot, z: number): string => (s.faces.find((f) => f.kind === 'plane' && f.normal?.[2] === 1 && Math.abs(f.centroid[2] - z) < 1e-9) as FaceInfo).token;
const hole = (host: string, positions: number[][], diameter: number, extent: Record<string, unknown>) => ({ atomic_id: 'hole', params: { host_face_token: host, positions_mm: positions, diameter_mm: diameter, extent, style: { kind: 'simple' } } });
const tol = 0.001;

beforeAll(async () => {
  runtime = createOcctRuntime({ workerScript: builtWorker });
  await runtime.warmUp();
});
afterAll(async () => runtime.dispose());

describe('hole claim kinds on a drilled plate', () => {
  let plate: TopologySnapshot;
  beforeAll(async () => {
    // 100 × 60 × 10 plate: a 3 × 2 grid of Ø6 through holes at 20 mm pitch and one Ø8 blind hole 5 deep at (35, 20).
    const base = [extrudeAt(0, rect(100, 60), 10, 'new_body')];
    const grid = hole(topFace(await built(base), 10), [-20, 0, 20].flatMap((x) => [-10, 10].map((y) => [x, y, 10])), 6, { kind: 'through_all' });
    const blind = hole(topFace(await built([...base, grid]), 10), [[35, 20, 10]], 8, { kind: 'blind', depth_mm: 5 });
    plate = await built([...base, grid, blind]);
  });

  it('hole_set counts bores by diameter and depth without positions', () => {
    expect(status(plate, 'hole_set', { count: 6, diameter_mm: 6, depth: { kind: 'through' }, axis: [0, 0, 1], tolerance_mm: tol })).toBe('pass');
    expect(status(plate, 'hole_set', { count: 1, diameter_mm: 8, depth: { kind: 'blind', depth_mm: 5 }, tolerance_mm: tol })).toBe('pass');
    expect(status(plate, 'hole_set', { count: 5, diameter_mm: 6, depth: { kind: 'through' }, tolerance_mm: tol })).toBe('fail');
    expect(status(plate, 'hole_set', { count: 1, diameter_mm: 8, depth: { kind: 'blind', depth_mm: 6 }, tolerance_mm: tol })).toBe('fail');
  });

  it('linear_hole_pattern finds the row of three at 20 mm and refuses another pitch', () => {
    expect(status(plate, 'linear_hole_pattern', { count: 3, diameter_mm: 6, pitch_mm: 20, direction: [1, 0, 0], tolerance_mm: tol })).toBe('pass');
    expect(status(plate, 'linear_hole_pattern', { count: 3, diameter_mm: 6, pitch_mm: 25, direction: [1, 0, 0], tolerance_mm: tol })).toBe('fail');
    expect(status(plate, 'linear_hole_pattern', { count: 4, diameter_mm: 6, pitch_mm: 20, direction: [1, 0, 0], tolerance_mm: tol })).toBe('fail');
  });

  it('rectangular_hole_layout proves the 3 × 2 grid and refuses 3 × 3', () => {
    const layout = { diameter_mm: 6, x_direction: [1, 0, 0], x_pitch_mm: 20, x_count: 3, y_direction: [0, 1, 0], y_pitch_mm: 20, y_count: 2, tolerance_mm: tol };
    expect(status(plate, 'rectangular_hole_layout', layout)).toBe('pass');
    expect(status(plate, 'rectangular_hole_layout', { ...layout, y_count: 3 })).toBe('fail');
  });

  it('hole_centre_distance measures bore to bore and bore to the outer face', () => {
    expect(status(plate, 'hole_centre_distance', { diameter_mm: 6, to: { kind: 'bore', diameter_mm: 6 }, distance_mm: 20, tolerance_mm: tol })).toBe('pass');
    expect(status(plate, 'hole_centre_distance', { diameter_mm: 8, to: { kind: 'face', normal: [1, 0, 0] }, distance_mm: 15, tolerance_mm: tol })).toBe('pass');
    expect(status(plate, 'hole_centre_distance', { diameter_mm: 8, to: { kind: 'face', normal: [1, 0, 0] }, distance_mm: 14, tolerance_mm: tol })).toBe('fail');
  });
});

describe('pocket and through_opening on a block', () => {
  let block: TopologySnapshot;
  beforeAll(async () => {
    block = await built([
      extrudeAt(0, rect(80, 50), 20, 'new_body'),
      { atomic_id: 'extrude_cut_blind', sketch: { workplane: XY(20), profile: { outer: rect(20, 10, [-20, 0]) } }, params: { distance_mm: 6, reverse: true } },
      { atomic_id: 'extrude_cut_through', sketch: { workplane: XY(20), profile: { outer: rect(12, 8, [20, 0]) } }, params: { direction: 'reverse' } },
    ]);
  });

  it('pocket matches outline and depth of the blind cut only', () => {
    expect(status(block, 'pocket', { outline_mm: [20, 10], depth_mm: 6, axis: [0, 0, 1], tolerance_mm: tol })).toBe('pass');
    expect(status(block, 'pocket', { outline_mm: [20, 10], depth_mm: 5, axis: [0, 0, 1], tolerance_mm: tol })).toBe('fail');
    expect(status(block, 'pocket', { outline_mm: [12, 8], depth_mm: 20, axis: [0, 0, 1], tolerance_mm: tol })).toBe('fail');
  });

  it('through_opening matches the through cut and refuses a wrong outline', () => {
    expect(status(block, 'through_opening', { outline_mm: [8, 12], axis: [0, 0, 1], tolerance_mm: tol })).toBe('pass');
    expect(status(block, 'through_opening', { outline_mm: [8, 14], axis: [0, 0, 1], tolerance_mm: tol })).toBe('fail');
  });
});

describe('fillet_radius and chamfer_size on dressed blocks', () => {
  const block = extrudeAt(0, rect(60, 40), 20, 'new_body');
  const edges = async (pick: (e: EdgeInfo) => boolean): Promise<string[]> => (await built([block])).edges.filter((e) => e.kind === 'line' && pick(e)).map((e) => e.token);

  it('fillet_radius tells r = 8 from r = 6 on four rounded corners', async () => {
    const vertical = await edges((e) => e.start[0] === e.end[0] && e.start[1] === e.end[1]);
    const filleted = await built([block, { atomic_id: 'fillet', params: { edge_tokens: vertical, radius_mm: 8 } }]);
    expect(status(filleted, 'fillet_radius', { radius_mm: 8, tolerance_mm: tol, count: 4, convexity: 'convex' })).toBe('pass');
    expect(status(filleted, 'fillet_radius', { radius_mm: 8, tolerance_mm: tol, convexity: 'any' })).toBe('pass');
    expect(status(filleted, 'fillet_radius', { radius_mm: 6, tolerance_mm: tol, convexity: 'any' })).toBe('fail');
    expect(status(filleted, 'fillet_radius', { radius_mm: 8, tolerance_mm: tol, count: 4, convexity: 'concave' })).toBe('fail');
  });

  it('chamfer_size measures the 2 mm setback of the top edges', async () => {
    const top = await edges((e) => e.start[2] === 20 && e.end[2] === 20);
    const chamfered = await built([block, { atomic_id: 'chamfer', params: { edge_tokens: top, distance_mm: 2 } }]);
    expect(status(chamfered, 'chamfer_size', { distance_mm: 2, tolerance_mm: tol, count: 4 })).toBe('pass');
    expect(status(chamfered, 'chamfer_size', { distance_mm: 3, tolerance_mm: tol })).toBe('fail');
    expect(status(await built([block]), 'chamfer_size', { distance_mm: 2, tolerance_mm: tol })).toBe('fail');
  });

  it('face_angle_deg measures 135° inside the material where a 45° chamfer meets the top, 90° on a plain block edge, 270° in an inside corner, and fails at the final rebuild with nothing to measure', async () => {
    const top = await edges((e) => e.start[2] === 20 && e.end[2] === 20);
    const chamfered = await built([block, { atomic_id: 'chamfer', params: { edge_tokens: top, distance_mm: 2 } }]);
    const along = (angle: number, direction = [0, 1, 0]) => status(chamfered, 'face_angle_deg', { edge_direction: direction, angle_deg: angle, tolerance_deg: 0.01 });
    expect(along(135)).toBe('pass');
    expect(along(90)).toBe('pass');
    expect(along(120)).toBe('fail');
    expect(status(chamfered, 'face_angle_deg', { edge_direction: [1, 1, 0], angle_deg: 90, tolerance_deg: 0.01 })).toBe('fail');
    // An inside corner (the L of two joined blocks) reads 270°.
    const ell = await built([extrudeAt(0, rect(60, 40), 10, 'new_body'), extrudeAt(0, rect(10, 40, [25, 0]), 30, 'join')]);
    expect(status(ell, 'face_angle_deg', { edge_direction: [0, 1, 0], angle_deg: 270, tolerance_deg: 0.01 })).toBe('pass');
  });
});

describe('wall_thickness, bbox relative tolerance and single_connected_body', () => {
  it('wall_thickness finds the 5 mm tube wall and the 2 mm shell wall', async () => {
    const tube = await built([{ atomic_id: 'extrude', sketch: { workplane: XY(0), profile: { outer: circle(40), inner: [circle(30)] } }, params: { extent: { kind: 'one_sided', distance_mm: 30, reverse: false }, body: 'new_body' } }]);
    expect(status(tube, 'wall_thickness', { min_mm: 5, tolerance_mm: tol })).toBe('pass');
    expect(status(tube, 'wall_thickness', { min_mm: 4, tolerance_mm: tol })).toBe('fail');
    const box = [extrudeAt(0, rect(60, 40), 30, 'new_body')];
    const shelled = await built([...box, { atomic_id: 'shell', params: { face_tokens: [topFace(await built(box), 30)], thickness_mm: 2 } }]);
    expect(status(shelled, 'wall_thickness', { min_mm: 2, tolerance_mm: tol })).toBe('pass');
    expect(status(shelled, 'wall_thickness', { min_mm: 3, tolerance_mm: tol })).toBe('fail');
  });

  it('bbox_dimension_mm accepts a relative tolerance', async () => {
    const block = await built([extrudeAt(0, rect(40, 30), 20, 'new_body')]);
    expect(status(block, 'bbox_dimension_mm', { axis: 'x', value_mm: 40.2, relative_tolerance: 0.01 })).toBe('pass');
    expect(status(block, 'bbox_dimension_mm', { axis: 'sorted', values_mm: [20, 30, 41], relative_tolerance: 0.01 })).toBe('fail');
  });

  it('single_connected_body proves one connected skin and fails two separate bodies', async () => {
    const one = await built([extrudeAt(0, rect(40, 30), 20, 'new_body')]);
    expect(status(one, 'single_connected_body', {})).toBe('pass');
    const two = await built([extrudeAt(0, rect(40, 30), 20, 'new_body'), extrudeAt(0, rect(10, 10, [60, 0]), 5, 'new_body')]);
    expect(status(two, 'single_connected_body', {})).toBe('fail');
  });
});
