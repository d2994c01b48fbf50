import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../../shared/errors';
import { ipcChannels, ipcEvents, type IpcEvents } from '../../../shared/ipc/channels';
import { createOcctRuntime, type CadRuntime } from '../../features/cadgen/index';
import { createArtifactStore } from '../../platform/artifacts/artifactStore';
import { createEventBus } from '../../platform/events/eventBus';
import { createIpcRouter, type IpcRouter } from '../../platform/ipc/router';
import type { Logger } from '../../platform/log/types';
import { BUILD_PHASES, contentMatchesKind, createCadgenHandlers, findBundledExamples } from './cadgenHandlers';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const examplesDir = path.join(repoRoot, 'resources/examples/cdsl');
const flange = readFileSync(path.join(examplesDir, 'flange.json'), 'utf8');
const flangeClaims = readFileSync(path.join(examplesDir, 'flange.claims.json'), 'utf8');

const silentLog: Logger = { debug() {}, info() {}, warn() {}, error() {}, child: () => silentLog };

let runtime: CadRuntime;
let router: IpcRouter;
let dataDir: string;
const progress: { taskId: string; phase: string; done: number; total: number }[] = [];

/** Builds the handler table over real components and serves it through the real IPC router. */
function makeRouter(options: { maxTransferBytes?: number; examplesDir?: string | null } = {}): IpcRouter {
  const events = createEventBus<IpcEvents>(ipcEvents, (error) => {
    throw error;
  });
  events.subscribe((event, payload) => {
    if (event === 'progress') progress.push(payload as (typeof progress)[number]);
  });
  const artifacts = createArtifactStore(path.join(dataDir, 'artifacts'));
  const handlers = createCadgenHandlers(
    { artifacts, log: silentLog },
    { events, runtime, examplesDir: options.examplesDir === undefined ? examplesDir : options.examplesDir, clock: () => new Date('2026-01-01T00:00:00Z'), ...(options.maxTransferBytes ? { maxTransferBytes: options.maxTransferBytes } : {}) },
  );
  // Only this slice's channels are served here; the cast keeps the router's full-table type.
  return createIpcRouter(ipcChannels, handlers as never, (channel, error) => {
    throw new Error(`internal error in ${channel}: ${String(error)}`);
  });
}

async function call<T = Record<string, unknown>>(channel: string, input: unknown, via: IpcRouter = router): Promise<T> {
  const result = await via.dispatch(channel, input, { transport: 'test' });
  if (!result.ok) throw new AppError(result.error.code, result.error.message, { data: result.error.data ?? {} });
  return result.value as T;
}

async function failure(channel: string, input: unknown, via: IpcRouter = router) {
  const result = await via.dispatch(channel, input, { transport: 'test' });
  if (result.ok) throw new Error(`${channel} unexpectedly succeeded`);
  return result.error;
}

beforeAll(() => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'cadgen-handlers-'));
  runtime = createOcctRuntime({ workerScript: path.join(repoRoot, 'dist/node/occtWorker.js') });
  router = makeRouter();
});

afterAll(async () => {
  await runtime.dispose();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('cadgen IPC handlers', () => {
  it('builds the flange example on the real worker, passes every deterministic claim and stores the artifacts', async () => {
    progress.length = 0;
    const result = await call<{
      ok: boolean;
      claims: { id: string; status: string; deterministic: boolean; evidence: Record<string, unknown> }[];
      artifacts: { glb: string; step: string; manifest: string; views: { view: string; svg: string; png: string }[]; projectionMethod: string };
      measurements: { solid_count: number; volume_mm3: number };
      features: { status: string }[];
    }>('cadgenBuild', { documentJson: flange, claimsJson: flangeClaims, taskId: 'flange-1' });

    expect(result.ok).toBe(true);
    expect(result.features.map((f) => f.status)).toEqual(['built', 'built', 'built']);
    expect(result.measurements.solid_count).toBe(1);
    expect(result.measurements.volume_mm3).toBeCloseTo(116867.2467135403, 3);
    for (const claim of result.claims.filter((c) => c.deterministic)) expect({ id: claim.id, status: claim.status }).toEqual({ id: claim.id, status: 'pass' });
    expect(result.claims.find((c) => c.id === 'looks_like_flange')?.status).toBe('pending');
    expect(result.artifacts.views.map((v) => v.view)).toEqual(['front', 'top', 'left', 'iso']);
    expect(result.artifacts.projectionMethod).toBe('first_angle');
    expect(progress.filter((p) => p.taskId === 'flange-1').map((p) => p.phase)).toEqual([...BUILD_PHASES]);

    const glb = await call<{ base64: string; mediaType: string; size: number }>('cadgenGetArtifact', { id: result.artifacts.glb, kind: 'glb' });
    const glbBytes = Buffer.from(glb.base64, 'base64');
    expect(glbBytes.subarray(0, 4).toString('latin1')).toBe('glTF');
    expect(glbBytes.length).toBe(glb.size);
    expect(glb.mediaType).toBe('model/gltf-binary');
    // Face tokens travel inside the GLB so the viewer can show them on hover.
    expect(glbBytes.toString('latin1')).toMatch(/"face_token":"fc_[0-9a-f]{20}"/);

    const step = await call<{ base64: string }>('cadgenGetArtifact', { id: result.artifacts.step, kind: 'step' });
    const inspected = await runtime.inspectStep(Buffer.from(step.base64, 'base64').toString('utf8'));
    expect(inspected).toMatchObject({ solid_count: 1, valid: true });
    expect(inspected.volume_mm3).toBeCloseTo(result.measurements.volume_mm3, 3);

    const svg = await call<{ base64: string }>('cadgenGetArtifact', { id: result.artifacts.views[0]!.svg, kind: 'svg' });
    expect(Buffer.from(svg.base64, 'base64').toString('utf8')).toContain('<svg');
  });

  it('starts the kernel worker once and reuses it for later builds', async () => {
    const before = runtime.stats().workers_started;
    const again = await call<{ ok: boolean; artifacts: { glb: string } }>('cadgenBuild', { documentJson: flange, taskId: 'flange-2' });
    expect(again.ok).toBe(true);
    expect(runtime.stats().workers_started).toBe(before);
    expect(before).toBe(1);
  });

  it('reports a feature that cannot be built in the result, with its typed error, and publishes nothing', async () => {
    const document = JSON.parse(flange) as { features: { params?: Record<string, unknown> }[] };
    document.features[1]!.params = { ...document.features[1]!.params, host_face_token: 'fc_00000000aaaaaaaaaaaa' };
    const result = await call<{ ok: boolean; artifacts: unknown; features: { id: string; status: string; error?: { code: string } }[] }>('cadgenBuild', {
      documentJson: JSON.stringify(document),
      claimsJson: flangeClaims,
      taskId: 'stale',
    });
    expect(result.ok).toBe(false);
    expect(result.artifacts).toBeNull();
    expect(result.features[0]!.status).toBe('built');
    expect(result.features[1]).toMatchObject({ id: 'F2', status: 'failed', error: { code: 'CDSL_STALE_SNAPSHOT' } });
  });

  it('refuses an artifact asked for as the wrong kind, an unknown id and one over the transfer cap', async () => {
    const built = await call<{ artifacts: { glb: string; step: string } }>('cadgenBuild', { documentJson: flange, taskId: 'flange-3' });
    expect(await failure('cadgenGetArtifact', { id: built.artifacts.glb, kind: 'step' })).toMatchObject({ code: 'CDSL_ARTIFACT_KIND_MISMATCH', retryable: false });
    expect(await failure('cadgenGetArtifact', { id: 'a'.repeat(64), kind: 'glb' })).toMatchObject({ code: 'STORE_ARTIFACT_NOT_FOUND' });
    expect(await failure('cadgenGetArtifact', { id: '../../etc/passwd', kind: 'glb' })).toMatchObject({ code: 'STORE_ARTIFACT_ID_INVALID' });
    const capped = makeRouter({ maxTransferBytes: 1024 });
    expect(await failure('cadgenGetArtifact', { id: built.artifacts.step, kind: 'step' }, capped)).toMatchObject({ code: 'CDSL_ARTIFACT_TOO_LARGE' });
  });

  it('reports schema issues of an invalid document with their JSON paths and the text they belong to', async () => {
    const document = JSON.parse(flange) as { features: { params?: Record<string, unknown> }[] };
    document.features[0]!.params = { ...document.features[0]!.params, surprise: 1 };
    const error = await failure('cadgenValidate', { documentJson: JSON.stringify(document) });
    expect(error.code).toBe('CDSL_SCHEMA_INVALID');
    expect(error.data?.source).toBe('document');
    expect(error.data?.issues).toEqual(expect.arrayContaining([expect.objectContaining({ path: expect.stringContaining('/features/F1/params') })]));
    const built = await failure('cadgenBuild', { documentJson: JSON.stringify(document), taskId: 'bad' });
    expect(built.code).toBe('CDSL_SCHEMA_INVALID');
  });

  it('tags an invalid claims file as the claims source', async () => {
    const error = await failure('cadgenValidate', { documentJson: flange, claimsJson: JSON.stringify({ claims: [{ id: 'x', kind: 'volume_mm3', expected: { value_mm3: 'big' } }] }) });
    expect(error).toMatchObject({ code: 'CDSL_SCHEMA_INVALID', data: { source: 'claims' } });
  });

  it('validates the flange and names its features', async () => {
    const valid = await call('cadgenValidate', { documentJson: flange, claimsJson: flangeClaims });
    expect(valid).toEqual({ name: 'flange', features: [{ id: 'F1', atomic_id: 'extrude' }, { id: 'F2', atomic_id: 'hole' }, { id: 'F3', atomic_id: 'hole' }], claimCount: 7 });
  });

  it('lists every bundled example with its claims', async () => {
    const examples = await call<{ name: string; claimsJson: string | null; featureCount: number }[]>('cadgenListExamples', {});
    expect(examples.map((e) => e.name)).toContain('flange');
    expect(examples.length).toBeGreaterThanOrEqual(7);
    for (const example of examples) expect(example.claimsJson, example.name).not.toBeNull();
    expect(examples.find((e) => e.name === 'flange')?.featureCount).toBe(3);
  });

  it('says clearly when the examples folder is missing instead of listing nothing', async () => {
    expect(await failure('cadgenListExamples', {}, makeRouter({ examplesDir: null }))).toMatchObject({ code: 'CDSL_EXAMPLE_NOT_FOUND' });
  });

  it('finds the bundled examples from a module inside the repository', () => {
    expect(findBundledExamples(import.meta.url)).toBe(examplesDir);
  });

  it('answers any text that is not a valid document with a typed schema error, never an internal one', async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.string({ minLength: 1 }), fc.json().filter((j) => j.length > 0)), async (text) => {
        const error = await failure('cadgenValidate', { documentJson: text });
        expect(['CDSL_SCHEMA_INVALID', 'CDSL_CONTRACT_UNKNOWN']).toContain(error.code);
        expect(error.data?.source).toBe('document');
      }),
      { numRuns: 200 },
    );
  });

  it('recognises each artifact kind only by its own content', () => {
    const samples = {
      glb: new TextEncoder().encode('glTF\u0002\u0000\u0000\u0000'),
      png: Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0]),
      step: new TextEncoder().encode('ISO-10303-21;\nHEADER;'),
      svg: new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"></svg>'),
      measurements: new TextEncoder().encode('{"measurements":{}}'),
    } as const;
    for (const [kind, bytes] of Object.entries(samples)) {
      for (const other of Object.keys(samples)) expect(contentMatchesKind(bytes, other as keyof typeof samples), `${kind} as ${other}`).toBe(kind === other);
    }
    fc.assert(fc.property(fc.uint8Array({ maxLength: 64 }), (bytes) => !contentMatchesKind(Uint8Array.from([0, ...bytes]), 'glb')));
  });
});
