import { cp, mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDocument } from '../../application/buildDocument';
import { createCdslCatalog } from '../../application/cdslCatalog';
import type { CdslDocument } from '../../domain/document';
import type { ProjectionMethod } from '../../domain/drawingViews';
import type { CadRuntime, ProjectionView } from '../../ports/cadRuntime';
import { createFsPublisher } from '../artifacts/fsPublisher';
import { encodeGlb } from '../artifacts/glbEncoder';
import { renderPng } from '../artifacts/pngRenderer';
import { OCCT_OPERATION_IDS } from './operationIds';
import { builtWorker, circle, rawDocument, rect } from './testSupport';
import { createOcctRuntime } from './workerRuntime';

const catalog = createCdslCatalog(OCCT_OPERATION_IDS);
let runtime: CadRuntime;
let workDir: string;
const wp = (origin: number[], normal: number[], x_dir: number[]) => ({ origin, normal, x_dir });
const blindHole = (origin: number[], normal: number[], x: number[], d: number) => ({ atomic_id: 'extrude_cut_blind', sketch: { workplane: wp(origin, normal, x), profile: { outer: circle(d) } }, params: { distance_mm: 10, reverse: true } });

/** A 40 mm cube (x, y ∈ [−20, 20], z ∈ [0, 40]) with blind holes Ø12 on +X, Ø16 on −Y and Ø8 on +Z. */
const cube: CdslDocument = catalog.validateDocument(
  rawDocument('cube_with_holes', [
    { atomic_id: 'extrude', sketch: { workplane: wp([0, 0, 0], [0, 0, 1], [1, 0, 0]), profile: { outer: rect(40, 40) } }, params: { extent: { kind: 'one_sided', distance_mm: 40, reverse: false }, body: 'new_body' } },
    blindHole([20, 0, 20], [1, 0, 0], [0, 1, 0], 12),
    blindHole([0, -20, 20], [0, -1, 0], [1, 0, 0], 16),
    blindHole([0, 0, 40], [0, 0, 1], [1, 0, 0], 8),
  ]),
);
/** Radius of every circle/ellipse arc in a set of SVG paths ("A rx ry ..."). */
const arcRadii = (paths: string[]): Set<number> => new Set(paths.flatMap((d) => [...d.matchAll(/A (\d+(?:\.\d+)?) /g)].map((m) => Number(m[1]))));

let published = 0;
async function drawings(method: ProjectionMethod): Promise<{ views: Map<string, ProjectionView>; outDir: string }> {
  const outcome = await runtime.build(cube, { step: false, meshes: false, projections: true, projection_method: method });
  expect(outcome.ok).toBe(true);
  expect(outcome.projection_method).toBe(method);
  published += 1;
  const outDir = path.join(workDir, `${method}-${published}`);
  await buildDocument(
    { catalog, runtime, publisher: createFsPublisher(() => new Date('2026-01-01T00:00:00Z')), encoders: { glb: encodeGlb, png: renderPng } },
    { document: cube, claims: [], outDir, stage: 'final', projectionMethod: method },
  );
  return { views: new Map((outcome.projections ?? []).map((v) => [v.view, v])), outDir };
}

beforeAll(async () => {
  runtime = createOcctRuntime({ workerScript: builtWorker });
  workDir = await mkdtemp(path.join(os.tmpdir(), 'cdsl-views-'));
});
afterAll(async () => {
  await runtime.dispose();
  await rm(workDir, { recursive: true, force: true });
});

describe('line drawings of the cube with holes on +X, −Y and +Z', () => {
  it('draw each hole solid in the first-angle view that looks at its face, and the +X hole dashed from the left', async () => {
    const { views } = await drawings('first_angle');
    expect([...views.keys()]).toEqual(['front', 'top', 'left', 'iso']);
    const front = views.get('front') as ProjectionView;
    const top = views.get('top') as ProjectionView;
    const left = views.get('left') as ProjectionView;
    expect(arcRadii(front.visible).has(8)).toBe(true);
    expect(arcRadii(top.visible).has(4)).toBe(true);
    // The left view looks from −X: the +X hole is behind the part.
    expect(arcRadii(left.visible).has(6)).toBe(false);
    expect(arcRadii(left.hidden).has(6)).toBe(true);
    // Isometric from +X −Y +Z sees all three holed faces.
    const iso = arcRadii((views.get('iso') as ProjectionView).visible);
    expect([8, 6, 4].every((r) => iso.has(r))).toBe(true);
  });

  it('draw the +X hole solid in the third-angle right view', async () => {
    const { views } = await drawings('third_angle');
    expect([...views.keys()]).toEqual(['front', 'top', 'right', 'iso']);
    const right = views.get('right') as ProjectionView;
    expect(arcRadii(right.visible).has(6)).toBe(true);
  });

  it('label every published view and dimension it from the measured part', async () => {
    const { outDir } = await drawings('first_angle');
    const svg = (name: string): Promise<string> => readFile(path.join(outDir, `view-${name}.svg`), 'utf8');
    const front = await svg('front');
    expect(front).toContain('<title>FRONT VIEW from −Y</title>');
    expect(front).toContain('<desc>width 40; height 40; Ø16 DEPTH 10</desc>');
    expect(await svg('top')).toContain('<desc>width 40; height 40; Ø8 DEPTH 10</desc>');
    expect(await svg('left')).toContain('Ø12 DEPTH 10');
    expect(await svg('iso')).toContain('40 × 40 × 40 (X × Y × Z)');
    const png = await readFile(path.join(outDir, 'view-front.png'));
    expect(png.readUInt32BE(16)).toBe(1600);
    if (process.env.CDSL_KEEP_DRAWINGS) await cp(outDir, process.env.CDSL_KEEP_DRAWINGS, { recursive: true });
  });
});
