// Real drawings from other programs (QCAD, LibreDWG test files in testSupport/fixtures/dxf, see
// SOURCES.md there), rendered to 4000 px sheets like an exported drawing and prepared for the
// model: the Lanczos-2 resize must cost fewer bytes than Lanczos-3 would and keep the encoding
// rules (exact stays bit-exact, quantised stays inside PALETTE_FIDELITY).
import path from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { createCanvasDxfRenderer, DrawingIndex, isEmptyBox, layoutExtents, openDxfFile } from '../../drawing';
import { imageLimitsFor } from '../domain/imageLimits';
import { sniffImage } from '../domain/imageSniff';
import { compareSamples, PALETTE_FIDELITY } from '../domain/pixelStats';
import { encodeSmallestPng } from './pngEncoding';
import { createSharpImageProcessor, RESIZE_KERNEL } from './sharpImageProcessor';

const fixtures = path.resolve(__dirname, '../../../testSupport/fixtures/dxf');
const limits = imageLimitsFor({ protocol: 'chat-completions', id: 'chat', baseUrl: 'http://127.0.0.1/v1', model: 'm' }, 1280);
const processor = createSharpImageProcessor({ limits, format: 'png', maxInputPixels: 40_000_000 });

async function sheet(file: string): Promise<Uint8Array> {
  const opened = await openDxfFile(path.join(fixtures, file));
  const index = new DrawingIndex(opened.document);
  const layout = opened.document.layouts[0]!;
  const box = layoutExtents(index, layout);
  expect(isEmptyBox(box)).toBe(false);
  return (await createCanvasDxfRenderer().render({ index, layout: layout.name, bbox: box, maxEdge: 4000, highlight: [] })).png;
}

describe('sharp image processor on real drawings', () => {
  it.each([
    ['mech_flange_layouts.dxf', 'palette-quantised'],
    ['libredwg_r2.6_dim_AC1003.dxf', 'indexed-exact'],
  ] as const)('sends the 4000 px sheet of %s as %s in fewer bytes than a Lanczos-3 resize, keeping its encoding rule', async (file, encoding) => {
    const png = await sheet(file);
    const result = await processor.prepare(png, sniffImage(png));
    expect(result.prepared.encoding).toBe(encoding);
    const { width, height } = result.prepared;
    const lanczos3 = await sharp(png).resize({ width, height, fit: 'fill', kernel: 'lanczos3' }).raw().toBuffer({ resolveWithObject: true });
    const before = await encodeSmallestPng(sharp, { data: lanczos3.data, width, height, channels: lanczos3.info.channels });
    expect(result.prepared.bytes.length).toBeLessThan(before.bytes.length);
    const reference = await sharp(png).resize({ width, height, fit: 'fill', kernel: RESIZE_KERNEL }).toColourspace('srgb').ensureAlpha().raw().toBuffer();
    const fidelity = compareSamples(reference, await sharp(result.prepared.bytes).toColourspace('srgb').ensureAlpha().raw().toBuffer());
    if (encoding === 'indexed-exact') expect(fidelity.maxDiff).toBe(0);
    else {
      expect(fidelity.psnrDb).toBeGreaterThanOrEqual(PALETTE_FIDELITY.minPsnrDb);
      expect(fidelity.meanAbsDiff).toBeLessThanOrEqual(PALETTE_FIDELITY.maxMeanAbsDiff);
    }
  });
});
