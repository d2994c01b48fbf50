import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anthropicImageTokens, estimateVisionTokens } from '../../../../../shared/imageBilling';
import { buildDocument } from '../../application/buildDocument';
import { createCdslCatalog } from '../../application/cdslCatalog';
import { parseClaims } from '../../application/evaluateClaims';
import type { GenerationDeps } from '../../application/protocol/deps';
import { REVIEW_IMAGE_TOKEN_BUDGET, REVIEW_MAX_LONG_EDGE, reviewRenders } from '../../application/protocol/reviewRenders';
import type { CadRuntime } from '../../ports/cadRuntime';
import { OCCT_OPERATION_IDS } from '../occt/operationIds';
import { builtWorker, example } from '../occt/testSupport';
import { createOcctRuntime } from '../occt/workerRuntime';
import { createFsTaskArtifacts } from '../store/fsTaskArtifacts';
import { createFsPublisher } from './fsPublisher';
import { encodeGlb } from './glbEncoder';
import { renderPng, renderReviewPng } from './pngRenderer';

const catalog = createCdslCatalog(OCCT_OPERATION_IDS);
const TASK = 'task_renders01';
let runtime: CadRuntime;
let root: string;
let deps: GenerationDeps;

interface Doc {
  features: { id: string; params: Record<string, unknown> }[];
}
const flange = (): Doc => structuredClone(example('flange').document) as Doc;

/** Builds a flange variant into revisions/<id> of the task, as a candidate build publishes it. */
async function build(revision: string, document: Doc): Promise<void> {
  const report = await buildDocument(
    { catalog, runtime, publisher: createFsPublisher(() => new Date('2026-01-01T00:00:00Z')), encoders: { glb: encodeGlb, png: renderPng } },
    { document: catalog.validateDocument(document), claims: parseClaims(catalog, example('flange').claims).filter((c) => c.kind === 'visual'), outDir: path.join(root, TASK, 'revisions', revision), stage: 'candidate' },
  );
  expect(report.artifacts).not.toBeNull();
}

const greyPixels = async (png: Uint8Array) => {
  const { data, info } = await sharp(png).grayscale().raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
};
const viewBoxOf = (svg: string): number[] => (/viewBox="([^"]+)"/.exec(svg)?.[1] ?? '').split(' ').map(Number);

/**
 * The bolt hole at model (45, 0) measured in a top-view PNG: from its centre along the pixel row,
 * out to the first dark (edge) pixel on each side, converted back to mm with the view's scale.
 */
async function boltHoleMm(png: Uint8Array, svg: string): Promise<number> {
  const { data, width } = await greyPixels(png);
  const [vx, vy, vw] = viewBoxOf(svg) as [number, number, number, number];
  const scale = width / vw;
  const cx = Math.round((45 - vx) * scale);
  const cy = Math.round((0 - vy) * scale);
  const dark = (x: number) => (data[cy * width + x] as number) < 128;
  let left = cx;
  while (left > 0 && !dark(left)) left -= 1;
  let right = cx;
  while (right < width - 1 && !dark(right)) right += 1;
  return (right - left) / scale;
}

beforeAll(async () => {
  runtime = createOcctRuntime({ workerScript: builtWorker });
  root = await mkdtemp(path.join(os.tmpdir(), 'cdsl-review-renders-'));
  const parent = flange();
  parent.features = parent.features.slice(0, 2);
  const wrong = flange();
  (wrong.features[2] as Doc['features'][number]).params.diameter_mm = 16;
  await build('rev_001', parent);
  await build('rev_002', flange());
  await build('rev_003', wrong);
  await build('rev_004', flange());
  deps = { artifacts: createFsTaskArtifacts(root), encoders: { glb: encodeGlb, png: renderPng, reviewPng: renderReviewPng } } as unknown as GenerationDeps;
}, 120_000);
afterAll(async () => {
  await runtime.dispose();
  await rm(root, { recursive: true, force: true });
});

describe('compact reviewer renders of the flange', () => {
  it('send a first candidate the shaded isometric view and every line view, as palette PNGs within 1024 px and 2,000 image tokens by both provider rules', async () => {
    const { images, choice } = await reviewRenders(deps, TASK, 'revisions/rev_002', null, 'first revision: every view');
    expect(choice.sent.map((s) => s.view)).toEqual(['iso-shaded', 'front', 'top', 'left']);
    expect(choice.omitted).toEqual([{ view: 'iso', why: 'the shaded isometric view shows the same visible edges' }]);
    expect(images).toHaveLength(4);
    for (const [i, image] of images.entries()) {
      const meta = await sharp(image.data).metadata();
      expect(Math.max(meta.width ?? 0, meta.height ?? 0)).toBeLessThanOrEqual(REVIEW_MAX_LONG_EDGE);
      // IHDR colour type 3: indexed colour (a palette PNG).
      expect(image.data[25]).toBe(3);
      expect(choice.sent[i]?.bytes).toBe(image.data.byteLength);
    }
    const openai = choice.sent.reduce((t, s) => t + estimateVisionTokens(s.width, s.height), 0);
    const anthropic = choice.sent.reduce((t, s) => t + anthropicImageTokens(s.width, s.height), 0);
    expect(choice.tokens).toEqual({ openai, anthropic });
    expect(Math.max(openai, anthropic)).toBeLessThanOrEqual(REVIEW_IMAGE_TOKEN_BUDGET);
  });

  it('cost under a third of the bytes of the four 1600 px drawings the reviewer was sent before', async () => {
    const { choice } = await reviewRenders(deps, TASK, 'revisions/rev_002', null, 'first revision: every view');
    let before = 0;
    for (const view of ['iso', 'front', 'top', 'left']) before += (await readFile(path.join(root, TASK, 'revisions/rev_002', `view-${view}.png`))).byteLength;
    expect(choice.bytes).toBeLessThan(before / 3);
  });

  it('shade the isometric view in several greys with the visible edges drawn in black', async () => {
    const { images } = await reviewRenders(deps, TASK, 'revisions/rev_002', null, 'first revision: every view');
    const { data } = await greyPixels(images[0]!.data);
    const levels = new Set<number>();
    let black = 0;
    for (const v of data) {
      if (v > 60 && v < 250) levels.add(v);
      if (v < 40) black += 1;
    }
    expect(levels.size).toBeGreaterThanOrEqual(6);
    expect(black).toBeGreaterThan(500);
  });

  it('send a candidate only the line views that changed against its parent, and name the unchanged ones', async () => {
    const added = await reviewRenders(deps, TASK, 'revisions/rev_002', { dir: 'revisions/rev_001', revisionId: 'rev_001' }, 'first');
    const changed = added.choice.sent.filter((s) => s.view !== 'iso-shaded');
    expect(changed.length).toBeGreaterThan(0);
    for (const s of changed) {
      const now = await readFile(path.join(root, TASK, 'revisions/rev_002', s.source), 'utf8');
      expect(await readFile(path.join(root, TASK, 'revisions/rev_001', s.source), 'utf8')).not.toBe(now);
    }
    // The bolt holes are seen end-on from the top: a visible change, sent first.
    expect(changed[0]?.view).toBe('top');
    const same = await reviewRenders(deps, TASK, 'revisions/rev_004', { dir: 'revisions/rev_002', revisionId: 'rev_002' }, 'first');
    expect(same.choice.sent.map((s) => s.view)).toEqual(['iso-shaded']);
    expect(same.choice.omitted.map((o) => o.why)).toEqual(expect.arrayContaining(['unchanged against rev_002']));
    expect(same.choice.omitted.map((o) => o.view).sort()).toEqual(['front', 'iso', 'left', 'top']);
  });

  it('show a wrong bolt-hole diameter in the compact top view as plainly as in the 1600 px drawing', async () => {
    const measured: Record<string, { compact: number; full: number }> = {};
    for (const [revision, parent] of [['rev_002', 'rev_001'], ['rev_003', 'rev_001']] as const) {
      const { images, choice } = await reviewRenders(deps, TASK, `revisions/${revision}`, { dir: `revisions/${parent}`, revisionId: parent }, 'first');
      const top = choice.sent.findIndex((s) => s.view === 'top');
      expect(top).toBeGreaterThan(0);
      const svg = await readFile(path.join(root, TASK, 'revisions', revision, 'view-top.svg'), 'utf8');
      const full = await readFile(path.join(root, TASK, 'revisions', revision, 'view-top.png'));
      measured[revision] = { compact: await boltHoleMm(images[top]!.data, svg), full: await boltHoleMm(full, svg) };
    }
    // Right (Ø10) and wrong (Ø16) read within a millimetre of each other in both renders, 6 mm apart.
    expect(Math.abs(measured.rev_002!.compact - measured.rev_002!.full)).toBeLessThan(1);
    expect(Math.abs(measured.rev_003!.compact - measured.rev_003!.full)).toBeLessThan(1);
    expect(measured.rev_002!.compact).toBeGreaterThan(8.5);
    expect(measured.rev_002!.compact).toBeLessThan(10.5);
    expect(measured.rev_003!.compact - measured.rev_002!.compact).toBeGreaterThan(5);
  });
});
