import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDocument } from '../../application/buildDocument';
import { createCdslCatalog } from '../../application/cdslCatalog';
import { parseClaims } from '../../application/evaluateClaims';
import type { CdslDocument } from '../../domain/document';
import type { FaceInfo, TopologySnapshot } from '../../domain/topology';
import { findBores } from '../../domain/verifiers/bores';
import type { CadRuntime } from '../../ports/cadRuntime';
import { OCCT_OPERATION_IDS } from './operationIds';
import { builtWorker, example, EXAMPLES } from './testSupport';
import { createOcctRuntime } from './workerRuntime';

const catalog = createCdslCatalog(OCCT_OPERATION_IDS);
let runtime: CadRuntime;
const NO_OUTPUTS = { step: false, meshes: false, projections: false };
const XY = (z: number) => ({ origin: [0, 0, z], normal: [0, 0, 1], x_dir: [1, 0, 0] });
const rect = (w: number, h: number, c = [0, 0]) => ({ type: 'rectangle', center: c, width_mm: w, height_mm: h });
const extrude = (z: number, outer: unknown, d: number, body: string, reverse = false) => ({ atomic_id: 'extrude', sketch: { workplane: XY(z), profile: { outer } }, params: { extent: { kind: 'one_sided', distance_mm: d, reverse }, body } });
const doc = (name: string, features: Record<string, unknown>[]): CdslDocument => catalog.validateDocument({ cdsl_version: '3.0', units: 'mm', name, features: features.map((f, i) => ({ id: `F${i + 1}`, ...f })) });
const planeFace = (s: TopologySnapshot, z: number, nz: number): FaceInfo => s.faces.find((f) => f.kind === 'plane' && Math.abs((f.normal?.[2] ?? 0) - nz) < 1e-9 && Math.abs(f.centroid[2] - z) < 1e-9) as FaceInfo;

async function snapshotOf(document: CdslDocument): Promise<TopologySnapshot> {
  const outcome = await runtime.build(document, NO_OUTPUTS);
  expect(outcome.features.map((f) => f.error?.message ?? f.status)).toEqual(document.features.map(() => 'built'));
  return outcome.snapshot as TopologySnapshot;
}

beforeAll(async () => {
  runtime = createOcctRuntime({ workerScript: builtWorker });
  await runtime.warmUp();
});
afterAll(async () => runtime.dispose());

describe('the OCCT runtime', () => {
  it.each(EXAMPLES)('builds the %s example and passes all of its claims', async (name) => {
    const { document, claims } = example(name);
    const report = await buildDocument({ catalog, runtime }, { document: catalog.validateDocument(document), claims: parseClaims(catalog, claims), stage: 'final' });
    expect(report.features.every((f) => f.status === 'built')).toBe(true);
    const deterministic = report.claims.filter((c) => c.deterministic);
    expect(deterministic.map((c) => [c.id, c.status])).toEqual(deterministic.map((c) => [c.id, 'pass']));
    expect(report.memory.live_objects).toBe(0);
  });

  it('rebuilds the same document to identical tokens, topology counts and volume', async () => {
    const flange = catalog.validateDocument(example('flange').document);
    const [a, b] = [await snapshotOf(flange), await snapshotOf(flange)];
    expect(b.snapshot_id).toBe(a.snapshot_id);
    expect(b.faces.map((f) => f.token)).toEqual(a.faces.map((f) => f.token));
    expect(b.edges.map((e) => e.token)).toEqual(a.edges.map((e) => e.token));
    expect(Math.abs(b.measurements.volume_mm3 - a.measurements.volume_mm3) / a.measurements.volume_mm3).toBeLessThanOrEqual(1e-9);
  });

  it('drills all four bolt holes of the flange in one hole feature', async () => {
    const flange = catalog.validateDocument(example('flange').document);
    const holeFeatures = flange.features.filter((f) => f.atomic_id === 'hole' && (f.params?.positions_mm as unknown[]).length === 4);
    expect(holeFeatures).toHaveLength(1);
    const bores = findBores(await snapshotOf(flange));
    expect(bores.filter((b) => Math.abs(b.diameter_mm - 10) < 1e-9 && b.through)).toHaveLength(4);
  });

  it('tells a through hole from a blind hole as deep as the plate over a rib', async () => {
    const base = [extrude(0, rect(60, 40), 10, 'new_body'), extrude(0, rect(10, 40), 10, 'join', true)];
    const top = planeFace(await snapshotOf(doc('ribbed', base)), 10, 1);
    const drilled = doc('ribbed', [...base, { atomic_id: 'hole', params: { host_face_token: top.token, positions_mm: [[0, 0, 10], [20, 0, 10]], diameter_mm: 6, extent: { kind: 'blind', depth_mm: 10 }, style: { kind: 'simple' } } }]);
    const claims = parseClaims(catalog, {
      claims: [
        { id: 'over_rib', kind: 'through_cylindrical_bore', expected: { diameter_mm: 6, axis: [0, 0, 1], position: [0, 0, 5], tolerance_mm: 0.001 } },
        { id: 'over_rib_bore', kind: 'cylindrical_bore', expected: { diameter_mm: 6, axis: [0, 0, 1], position: [0, 0, 5], tolerance_mm: 0.001 } },
        { id: 'beside_rib', kind: 'through_cylindrical_bore', expected: { diameter_mm: 6, axis: [0, 0, 1], position: [20, 0, 5], tolerance_mm: 0.001 } },
      ],
    });
    const report = await buildDocument({ catalog, runtime }, { document: drilled, claims, stage: 'final' });
    expect(report.claims.map((c) => [c.id, c.status])).toEqual([['over_rib', 'fail'], ['over_rib_bore', 'pass'], ['beside_rib', 'pass']]);
  });

  it('executes chamfer, blind cut and through cut with the volumes they must remove', async () => {
    const block = [extrude(0, rect(40, 30), 20, 'new_body')];
    const s1 = await snapshotOf(doc('block', block));
    const topEdges = s1.edges.filter((e) => e.kind === 'line' && Math.abs(e.start[2] - 20) < 1e-9 && Math.abs(e.end[2] - 20) < 1e-9).map((e) => e.token);
    const chamfered = [...block, { atomic_id: 'chamfer', params: { edge_tokens: topEdges, distance_mm: 2 } }];
    const s2 = await snapshotOf(doc('block', chamfered));
    expect(s2.faces.length).toBe(s1.faces.length + 4);
    const pocket = { atomic_id: 'extrude_cut_blind', sketch: { workplane: XY(0), profile: { outer: rect(6, 6, [-10, 0]) } }, params: { distance_mm: 5, reverse: false } };
    const slot = { atomic_id: 'extrude_cut_through', sketch: { workplane: XY(0), profile: { outer: rect(10, 10, [8, 0]) } }, params: { direction: 'normal' } };
    const s3 = await snapshotOf(doc('block', [...chamfered, pocket, slot]));
    expect(s3.measurements.volume_mm3).toBeCloseTo(s2.measurements.volume_mm3 - 6 * 6 * 5 - 10 * 10 * 20, 6);
  });

  it('fails a stale selector token instead of guessing', async () => {
    const flange = catalog.validateDocument(example('flange').document) as CdslDocument;
    const first = await snapshotOf({ ...flange, features: flange.features.slice(0, 1) });
    const stale = structuredClone(flange);
    (stale.features[2]?.params as Record<string, unknown>).host_face_token = planeFace(first, 12, 1).token;
    const outcome = await runtime.build(stale, NO_OUTPUTS);
    expect(outcome.features.map((f) => f.status)).toEqual(['built', 'built', 'failed']);
    expect(outcome.features[2]?.error?.code).toBe('CDSL_STALE_SNAPSHOT');
  });

  it('refuses a hole centre that lies in the plane of the host face but inside an existing bore', async () => {
    const flange = catalog.validateDocument(example('flange').document) as CdslDocument;
    const offFace = structuredClone(flange);
    (offFace.features[2]?.params as Record<string, unknown>).positions_mm = [[5, 0, 12]];
    const outcome = await runtime.build(offFace, NO_OUTPUTS);
    expect(outcome.features[2]?.error).toMatchObject({ code: 'CDSL_PRECONDITION_FAILED', data: { check: 'hole_positions_on_host_face' } });
  });

  it('releases every kernel object so the WASM heap stays flat over repeated builds', async () => {
    const flange = catalog.validateDocument(example('flange').document);
    const first = await runtime.build(flange, NO_OUTPUTS);
    let last = first;
    for (let i = 0; i < 8; i += 1) last = await runtime.build(flange, NO_OUTPUTS);
    expect(last.memory.live_objects).toBe(0);
    expect(last.memory.released_objects).toBe(first.memory.released_objects);
    expect(last.memory.wasm_heap_bytes).toBeLessThanOrEqual(first.memory.wasm_heap_bytes * 1.1);
  });
});
