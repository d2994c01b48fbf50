import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCdslCatalog } from '../../application/cdslCatalog';
import type { CdslDocument } from '../../domain/document';
import type { EdgeInfo, TopologySnapshot } from '../../domain/topology';
import type { BuildOutcome, CadRuntime } from '../../ports/cadRuntime';
import { OCCT_OPERATION_IDS } from './operationIds';
import { builtWorker, extrudeAt, rawDocument, rect, XY } from './testSupport';
import { createOcctRuntime } from './workerRuntime';

const catalog = createCdslCatalog(OCCT_OPERATION_IDS);
const NO_OUTPUTS = { step: false, meshes: false, projections: false };
let runtime: CadRuntime;
const doc = (features: Record<string, unknown>[]): CdslDocument => catalog.validateDocument(rawDocument('part', features));
const block = extrudeAt(0, rect(40, 30), 20, 'new_body');
const cutThrough = (outer: unknown) => ({ atomic_id: 'extrude_cut_through', sketch: { workplane: XY(20), profile: { outer } }, params: { direction: 'reverse' } });
const cutBlind = (outer: unknown, depth: number) => ({ atomic_id: 'extrude_cut_blind', sketch: { workplane: XY(20), profile: { outer } }, params: { distance_mm: depth, reverse: true } });
const build = (features: Record<string, unknown>[]): Promise<BuildOutcome> => runtime.build(doc(features), NO_OUTPUTS);
const lastError = (outcome: BuildOutcome) => outcome.features.find((f) => f.status === 'failed')?.error;

beforeAll(async () => {
  runtime = createOcctRuntime({ workerScript: builtWorker });
  await runtime.warmUp();
});
afterAll(async () => runtime.dispose());

describe('features that would change nothing', () => {
  it('refuse a through cut placed 100 mm beside the block before the kernel runs', async () => {
    const outcome = await build([block, cutThrough(rect(10, 10, [120, 0]))]);
    expect(outcome.ok).toBe(false);
    expect(lastError(outcome)).toMatchObject({ code: 'CDSL_FEATURE_NO_EFFECT', data: { stage: 'preflight', check: 'cut_tool_meets_body' } });
  });

  it('fail a pocket cut into empty space inside the bbox after the build, from the volume', async () => {
    const outcome = await build([block, cutThrough(rect(12, 12)), cutBlind(rect(6, 6), 5)]);
    expect(outcome.features.map((f) => f.status)).toEqual(['built', 'built', 'failed']);
    expect(lastError(outcome)).toMatchObject({ code: 'CDSL_FEATURE_NO_EFFECT', data: { stage: 'post_build' } });
  });

  it('refuse joining a box that is 30 mm away from the body', async () => {
    const outcome = await build([block, extrudeAt(0, rect(10, 10, [60, 0]), 5, 'join')]);
    expect(lastError(outcome)).toMatchObject({ code: 'CDSL_FEATURE_DISJOINT', data: { stage: 'preflight' } });
  });

  it('fail a joined box floating inside a through opening, which makes a second solid', async () => {
    const outcome = await build([block, cutThrough(rect(20, 20)), extrudeAt(5, rect(4, 4), 5, 'join')]);
    expect(lastError(outcome)).toMatchObject({ code: 'CDSL_FEATURE_DISJOINT', data: { stage: 'post_build', solid_count_after: 2 } });
  });

  it('fail a boss that lies entirely inside the body', async () => {
    const outcome = await build([block, extrudeAt(5, rect(4, 4), 5, 'join')]);
    expect(lastError(outcome)).toMatchObject({ code: 'CDSL_FEATURE_NO_EFFECT', data: { stage: 'post_build' } });
  });

  it('refuse a linear pattern whose last copy lands beside the part', async () => {
    const first = await runtime.build(doc([block, cutThrough(rect(4, 4, [-15, 0]))]), NO_OUTPUTS);
    const source = (first.snapshot as TopologySnapshot).features.find((f) => f.feature_id === 'F2')?.token;
    const outcome = await build([block, cutThrough(rect(4, 4, [-15, 0])), { atomic_id: 'pattern_linear', params: { source_feature_token: source, direction: [1, 0, 0], spacing_mm: 20, count: 3 } }]);
    expect(lastError(outcome)).toMatchObject({ code: 'CDSL_FEATURE_NO_EFFECT', data: { stage: 'preflight', instance: 3 } });
  });

  it('still build a pattern whose every copy cuts material', async () => {
    const first = await runtime.build(doc([block, cutThrough(rect(4, 4, [-15, 0]))]), NO_OUTPUTS);
    const source = (first.snapshot as TopologySnapshot).features.find((f) => f.feature_id === 'F2')?.token;
    const outcome = await build([block, cutThrough(rect(4, 4, [-15, 0])), { atomic_id: 'pattern_linear', params: { source_feature_token: source, direction: [1, 0, 0], spacing_mm: 15, count: 3 } }]);
    expect(outcome.ok).toBe(true);
  });
});

describe('fillets and chamfers the kernel refuses', () => {
  let topEdge: EdgeInfo;
  beforeAll(async () => {
    const snapshot = (await runtime.build(doc([block]), NO_OUTPUTS)).snapshot as TopologySnapshot;
    // The 40 mm edge between the top face and the 20 mm high front face.
    topEdge = snapshot.edges.find((e) => e.kind === 'line' && e.length_mm > 39 && e.start[2] === 20 && e.start[1] === -15) as EdgeInfo;
  });

  it('name the failing edge and the largest radius that works', async () => {
    const outcome = await build([block, { atomic_id: 'fillet', params: { edge_tokens: [topEdge.token], radius_mm: 50 } }]);
    const error = lastError(outcome);
    expect(error?.code).toBe('CDSL_FILLET_FAILED');
    expect(error?.data).toMatchObject({ failing_edge_tokens: [topEdge.token], requested_mm: 50 });
    const largest = (error?.data as { largest_workable_mm: number }).largest_workable_mm;
    expect(largest).toBeGreaterThan(15);
    expect(largest).toBeLessThanOrEqual(20);
    expect(error?.message).toContain(`edge ${topEdge.token}: radius 50 mm exceeds the ${largest} mm available`);
    const retry = await build([block, { atomic_id: 'fillet', params: { edge_tokens: [topEdge.token], radius_mm: largest } }]);
    expect(retry.ok).toBe(true);
  });

  it('name the edge of a chamfer that is too large as well', async () => {
    const outcome = await build([block, { atomic_id: 'chamfer', params: { edge_tokens: [topEdge.token], distance_mm: 45 } }]);
    const error = lastError(outcome);
    expect(error?.code).toBe('CDSL_CHAMFER_FAILED');
    expect(error?.data).toMatchObject({ failing_edge_tokens: [topEdge.token] });
    expect((error?.data as { largest_workable_mm: number }).largest_workable_mm).toBeLessThanOrEqual(20);
  });
});
