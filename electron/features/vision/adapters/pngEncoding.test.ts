import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { lineArtPng } from '../../../testSupport/visionFixtures/images';
import { compareSamples, PALETTE_FIDELITY } from '../domain/pixelStats';
import { encodeSmallestPng } from './pngEncoding';
import { RESIZE_KERNEL } from './sharpImageProcessor';

describe('smallest faithful PNG', () => {
  it('quantises grey line art with a translucent half to a palette inside the fidelity rule, not to truecolour', async () => {
    const sheet = await lineArtPng(2000, 1500, 'monochrome');
    const grey = await sharp(sheet).resize({ width: 1280, height: 960, fit: 'fill', kernel: RESIZE_KERNEL }).extractChannel(0).raw().toBuffer();
    // Grey + alpha with more than 256 (grey, alpha) pairs: the exact palette cannot hold them.
    const data = new Uint8Array(grey.length * 2);
    for (let p = 0; p < grey.length; p++) {
      data[p * 2] = grey[p]!;
      data[p * 2 + 1] = p % 1280 < 640 ? 255 : 128;
    }
    const png = await encodeSmallestPng(sharp, { data, width: 1280, height: 960, channels: 2 });
    expect(png.encoding).toBe('palette-quantised');
    const back = await sharp(png.bytes).ensureAlpha().raw().toBuffer();
    const expected = new Uint8Array(grey.length * 4);
    for (let p = 0; p < grey.length; p++) expected.set([data[p * 2]!, data[p * 2]!, data[p * 2]!, data[p * 2 + 1]!], p * 4);
    const fidelity = compareSamples(expected, back);
    expect(fidelity.psnrDb).toBeGreaterThanOrEqual(PALETTE_FIDELITY.minPsnrDb);
    expect(fidelity.meanAbsDiff).toBeLessThanOrEqual(PALETTE_FIDELITY.maxMeanAbsDiff);
  });
});
