// Visual regression over the real DXF corpus: every drawing's model space and paper layouts are
// rendered at 800 px and compared with references, so an unintended rendering change fails.
// References: drawings under MIT (per the corpus SOURCES.md) keep a committed PNG compared pixel
// by pixel; GPL drawings keep only metrics (ink share, colour mix, a 64-bit difference hash) so
// no picture derived from them is committed. UPDATE_RENDER_REFERENCES=1 rewrites the references.
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createCanvas, loadImage } from '@napi-rs/canvas';
import { describe, expect, it } from 'vitest';
import { openDxfFile } from '../file/openDxfFile';
import { DrawingIndex } from '../../domain/bounds';
import { isEmptyBox } from '../../domain/geometry';
import { layoutExtents } from '../../domain/scene';
import { createCanvasDxfRenderer } from './canvasRenderer';

const repoRoot = path.resolve(__dirname, '../../../../..');
const corpus = path.resolve(repoRoot, '../shared/corpus/dxf');
const references = path.join(repoRoot, 'electron/testSupport/fixtures/render');
const metricsFile = path.join(references, 'metrics.json');
const update = process.env.UPDATE_RENDER_REFERENCES === '1';
const EDGE = 800;
/** A pixel differs when a channel moves more than this (anti-aliasing jitter stays below). */
const CHANNEL_TOLERANCE = 48;
/** Share of pixels allowed to differ before the picture counts as changed. */
const PIXEL_TOLERANCE = 0.002;

const sources = existsSync(corpus) ? readFileSync(path.join(corpus, 'SOURCES.md'), 'utf8') : '';
const files = existsSync(corpus) ? readdirSync(corpus).filter((f) => f.endsWith('.dxf')).sort() : [];
if (files.length === 0) console.log(`[visualRegression.test] skipped: no DXF corpus at ${corpus}`);

function licenceOf(file: string): string {
  const row = sources.split('\n').find((line) => line.startsWith(`| ${file} |`));
  return row?.split('|')[6]?.trim() ?? 'unknown';
}

interface Metrics {
  width: number;
  height: number;
  /** Share of non-white pixels. */
  ink: number;
  /** Share of ink that is coloured (not grey). */
  colour: number;
  /** Difference hash of a 9×8 grey thumbnail. */
  dhash: string;
}

function metricsOf(rgba: Uint8ClampedArray | Uint8Array, width: number, height: number): Metrics {
  let ink = 0;
  let colour = 0;
  const grey = new Float64Array(9 * 8);
  const cells = new Float64Array(9 * 8);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 4;
      const [r, g, b] = [rgba[i] as number, rgba[i + 1] as number, rgba[i + 2] as number];
      const v = (r + g + b) / 3;
      if (v < 245) ink++;
      if (Math.max(r, g, b) - Math.min(r, g, b) > 60) colour++;
      const cell = Math.min(7, Math.floor((y * 8) / height)) * 9 + Math.min(8, Math.floor((x * 9) / width));
      grey[cell] = (grey[cell] as number) + v;
      cells[cell] = (cells[cell] as number) + 1;
    }
  }
  let bits = '';
  for (let row = 0; row < 8; row++) for (let col = 0; col < 8; col++) bits += (grey[row * 9 + col] as number) / ((cells[row * 9 + col] as number) || 1) > (grey[row * 9 + col + 1] as number) / ((cells[row * 9 + col + 1] as number) || 1) ? '1' : '0';
  const dhash = BigInt(`0b${bits}`).toString(16).padStart(16, '0');
  return { width, height, ink: Math.round((ink / (width * height)) * 1e5) / 1e5, colour: Math.round((colour / Math.max(1, ink)) * 1e3) / 1e3, dhash };
}

const hamming = (a: string, b: string): number => [...(BigInt(`0x${a}`) ^ BigInt(`0x${b}`)).toString(2)].filter((c) => c === '1').length;

async function pixels(png: Uint8Array): Promise<{ data: Uint8ClampedArray; width: number; height: number }> {
  const image = await loadImage(Buffer.from(png));
  const canvas = createCanvas(image.width, image.height);
  const ctx = canvas.getContext('2d');
  ctx.drawImage(image, 0, 0);
  return { data: ctx.getImageData(0, 0, image.width, image.height).data, width: image.width, height: image.height };
}

const safeName = (file: string, index: number, layout: string): string => `${file.replace(/\.dxf$/, '')}__${index}-${layout.replace(/[^A-Za-z0-9_-]/g, '_')}`;

describe.skipIf(files.length === 0)('rendering of every corpus drawing (visual regression)', () => {
  it('matches the committed references: pixels for MIT drawings, metrics for GPL ones', async () => {
    const renderer = createCanvasDxfRenderer();
    if (update) mkdirSync(references, { recursive: true });
    const stored = (existsSync(metricsFile) ? JSON.parse(readFileSync(metricsFile, 'utf8')) : {}) as Record<string, Metrics>;
    const measured: Record<string, Metrics> = {};
    const changed: string[] = [];
    let pictures = 0;
    for (const file of files) {
      let opened;
      try {
        opened = await openDxfFile(path.join(corpus, file));
      } catch {
        continue; // refused files (typed errors) have their own tests
      }
      const index = new DrawingIndex(opened.document);
      for (const [i, layout] of opened.document.layouts.entries()) {
        const box = layoutExtents(index, layout, { drawnOnly: true });
        if (isEmptyBox(box) || !(box.maxX > box.minX || box.maxY > box.minY)) continue;
        const image = await renderer.render({ index, layout: layout.name, bbox: box, maxEdge: EDGE, highlight: [] });
        const actual = await pixels(image.png);
        const name = safeName(file, i, layout.name);
        const metrics = metricsOf(actual.data, actual.width, actual.height);
        measured[name] = metrics;
        pictures++;
        const permissive = licenceOf(file) === 'MIT';
        const referencePng = path.join(references, `${name}.png`);
        if (update) {
          if (permissive) writeFileSync(referencePng, image.png);
          continue;
        }
        if (permissive) {
          if (!existsSync(referencePng)) {
            changed.push(`${name}: no reference PNG (run with UPDATE_RENDER_REFERENCES=1 and look at it)`);
            continue;
          }
          const expected = await pixels(readFileSync(referencePng));
          if (expected.width !== actual.width || expected.height !== actual.height) {
            changed.push(`${name}: size ${actual.width}×${actual.height}, reference ${expected.width}×${expected.height}`);
            continue;
          }
          let differing = 0;
          for (let p = 0; p < actual.data.length; p += 4) {
            if (Math.abs((actual.data[p] as number) - (expected.data[p] as number)) > CHANNEL_TOLERANCE || Math.abs((actual.data[p + 1] as number) - (expected.data[p + 1] as number)) > CHANNEL_TOLERANCE || Math.abs((actual.data[p + 2] as number) - (expected.data[p + 2] as number)) > CHANNEL_TOLERANCE) differing++;
          }
          const share = differing / (actual.width * actual.height);
          if (share > PIXEL_TOLERANCE) changed.push(`${name}: ${(share * 100).toFixed(2)} % of pixels differ`);
        } else {
          const reference = stored[name];
          if (!reference) changed.push(`${name}: no reference metrics (run with UPDATE_RENDER_REFERENCES=1)`);
          else if (reference.width !== metrics.width || reference.height !== metrics.height || Math.abs(reference.ink - metrics.ink) > Math.max(0.002, reference.ink * 0.05) || Math.abs(reference.colour - metrics.colour) > 0.05 || hamming(reference.dhash, metrics.dhash) > 4) {
            changed.push(`${name}: metrics ${JSON.stringify(metrics)} vs reference ${JSON.stringify(reference)}`);
          }
        }
      }
    }
    if (update) {
      const gplOnly = Object.fromEntries(Object.entries(measured).filter(([name]) => licenceOf(`${name.split('__')[0]}.dxf`) !== 'MIT'));
      writeFileSync(metricsFile, `${JSON.stringify(gplOnly, null, 1)}\n`);
    }
    expect(pictures).toBeGreaterThan(25);
    expect(changed).toEqual([]);
  }, 600_000);
});
