import { createHash } from 'node:crypto';
import { mkdtemp, readFile, readdir, rm, writeFile, mkdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { NodeIO } from '@gltf-transform/core';
import validator from 'gltf-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDocument } from '../../application/buildDocument';
import type { BuildReport } from '../../application/buildDocument';
import { createCdslCatalog } from '../../application/cdslCatalog';
import { parseClaims } from '../../application/evaluateClaims';
import type { CadRuntime } from '../../ports/cadRuntime';
import { OCCT_OPERATION_IDS } from '../occt/operationIds';
import { builtWorker, example } from '../occt/testSupport';
import { createOcctRuntime } from '../occt/workerRuntime';
import { createFsPublisher } from './fsPublisher';
import { encodeGlb } from './glbEncoder';
import { renderPng } from './pngRenderer';

const catalog = createCdslCatalog(OCCT_OPERATION_IDS);
let runtime: CadRuntime;
let workDir: string;
let outDir: string;
let report: BuildReport;
const read = (name: string): Promise<Buffer> => readFile(path.join(outDir, name));

beforeAll(async () => {
  runtime = createOcctRuntime({ workerScript: builtWorker });
  workDir = await mkdtemp(path.join(os.tmpdir(), 'cdsl-artifacts-'));
  outDir = path.join(workDir, 'flange');
  const { document, claims } = example('flange');
  report = await buildDocument(
    { catalog, runtime, publisher: createFsPublisher(() => new Date('2026-01-01T00:00:00Z')), encoders: { glb: encodeGlb, png: renderPng } },
    { document: catalog.validateDocument(document), claims: parseClaims(catalog, claims), outDir, stage: 'final' },
  );
});
afterAll(async () => {
  await runtime.dispose();
  await rm(workDir, { recursive: true, force: true });
});

describe('flange build artifacts', () => {
  it('publish every file with a manifest whose hashes match, and no staging folder is left behind', async () => {
    expect(report.ok).toBe(true);
    const manifest = JSON.parse((await read('manifest.json')).toString('utf8')) as { files: { name: string; sha256: string }[]; input_sha256: string; engine_version: string };
    expect(manifest.engine_version).toMatch(/^replicad@/);
    expect(manifest.input_sha256).toMatch(/^[0-9a-f]{64}$/);
    for (const file of manifest.files) expect(createHash('sha256').update(await read(file.name)).digest('hex')).toBe(file.sha256);
    expect((await readdir(workDir)).filter((n) => n.includes('staging'))).toEqual([]);
  });

  it('write a STEP file that OpenCascade re-imports as the same valid solid', async () => {
    const inspection = await runtime.inspectStep((await read('model.step')).toString('utf8'));
    expect(inspection).toMatchObject({ solid_count: 1, valid: true });
    expect(Math.abs(inspection.volume_mm3 - (report.measurements?.volume_mm3 ?? 0)) / inspection.volume_mm3).toBeLessThan(1e-6);
  });

  it('write a GLB that gltf-validator accepts, with one node per face carrying its token', async () => {
    const glb = await read('model.glb');
    const validation = await validator.validateBytes(new Uint8Array(glb));
    expect(validation.issues.numErrors).toBe(0);
    const topology = JSON.parse((await read('topology.json')).toString('utf8')) as { faces: { token: string }[] };
    const gltf = await new NodeIO().readBinary(new Uint8Array(glb));
    const tokens = gltf.getRoot().listNodes().map((n) => (n.getExtras() as { face_token?: string }).face_token).filter(Boolean);
    expect(tokens.sort()).toEqual(topology.faces.map((f) => f.token).sort());
    expect(glb.byteLength).toBeLessThan(500 * 1024);
  });

  it('carry face measurements for hover and the model edges without cylinder seams', async () => {
    const gltf = await new NodeIO().readBinary(new Uint8Array(await read('model.glb')));
    const topology = JSON.parse((await read('topology.json')).toString('utf8')) as { faces: { kind: string; radius_mm?: number }[]; edges: { adjacent_faces: number[] }[] };
    const nodes = gltf.getRoot().listNodes();
    const bore = nodes.map((n) => n.getExtras() as { kind?: string; diameter_mm?: number; axis_direction?: number[]; area_mm2?: number }).find((e) => e.kind === 'cylinder');
    expect(bore?.diameter_mm).toBeGreaterThan(0);
    expect(bore?.axis_direction).toHaveLength(3);
    expect(bore?.area_mm2).toBeGreaterThan(0);
    const seams = topology.edges.filter((e) => e.adjacent_faces.length === 1 && topology.faces[e.adjacent_faces[0] as number]?.kind === 'cylinder').length;
    expect(seams).toBeGreaterThan(0);
    const edges = nodes.find((n) => n.getName() === 'model_edges');
    expect((edges?.getExtras() as { edge_count: number }).edge_count).toBe(topology.edges.length - seams);
    expect(edges?.getMesh()?.listPrimitives()[0]?.getMode()).toBe(1);
  });

  it('write hidden-line views as SVG with dashed hidden edges and as PNG', async () => {
    for (const view of ['front', 'top', 'left', 'iso']) {
      const svg = (await read(`view-${view}.svg`)).toString('utf8');
      expect(svg).toContain('<path');
      expect((await read(`view-${view}.png`)).subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    }
    expect((await read('view-iso.svg')).toString('utf8')).toContain('stroke-dasharray');
  });

  it('hands the renders to the visual claim, which waits for an independent reviewer', () => {
    const visual = report.claims.find((c) => c.kind === 'visual');
    expect(visual?.status).toBe('pending');
    expect(visual?.evidence.renders).toContain('view-iso.png');
  });

  it('refuse to publish over a non-empty folder', async () => {
    const occupied = path.join(workDir, 'occupied');
    await mkdir(occupied);
    await writeFile(path.join(occupied, 'keep.txt'), 'mine');
    const publisher = createFsPublisher(() => new Date());
    await expect(publisher.publish(occupied, [{ name: 'a.txt', bytes: new Uint8Array([1]) }], { document_name: 'x', input_text: '{}', engine_version: 'e' })).rejects.toMatchObject({ code: 'CDSL_ARTIFACT_WRITE_FAILED' });
    expect(await readFile(path.join(occupied, 'keep.txt'), 'utf8')).toBe('mine');
  });
});
