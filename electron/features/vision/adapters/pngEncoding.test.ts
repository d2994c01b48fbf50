import fc from 'fast-check';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { lineArtPng } from '../../../testSupport/visionFixtures/images';
import { compareSamples, PALETTE_FIDELITY } from '../domain/pixelStats';
import { encodeSmallestPng, reduceChannels } from './pngEncoding';
import { RESIZE_KERNEL } from './sharpImageProcessor';

/** Reduced samples back in the original layout: grey repeated into R, G, B; a dropped alpha as 255. */
function expand(data: Uint8Array, from: number, to: number): Uint8Array {
  const out = new Uint8Array((data.length / from) * to);
  for (let p = 0; p < data.length / from; p++) {
    const px = data.subarray(p * from, (p + 1) * from);
    const colour = from >= 3 ? [px[0]!, px[1]!, px[2]!] : [px[0]!, px[0]!, px[0]!];
    const alpha = from === 2 || from === 4 ? px[from - 1]! : 255;
    out.set(to <= 2 ? [colour[0]!, alpha].slice(0, to) : [...colour, alpha].slice(0, to), p * to);
  }
  return out;
}

describe('smallest faithful PNG', () => {
  it('reduces channels losslessly to the fewest that hold the pixels (property)', () => {
    fc.assert(
      fc.property(fc.constantFrom(1, 2, 3, 4), fc.boolean(), fc.boolean(), fc.uint8Array({ minLength: 1, maxLength: 64 }), (channels, grey, opaque, seed) => {
        const data = new Uint8Array(seed.length * channels);
        for (let p = 0; p < seed.length; p++) {
          for (let c = 0; c < channels; c++) data[p * channels + c] = grey && c < 3 ? seed[p]! : seed[(p + c * 7) % seed.length]! ^ (c * 37);
          if (opaque && (channels === 2 || channels === 4)) data[p * channels + channels - 1] = 255;
        }
        const reduced = reduceChannels({ data, width: seed.length, height: 1, channels });
        expect(expand(reduced.data, reduced.channels, channels)).toEqual(data);
        const hasAlpha = (channels === 2 || channels === 4) && data.some((v, i) => i % channels === channels - 1 && v !== 255);
        const isGrey = channels <= 2 || Array.from({ length: seed.length }, (_, p) => data[p * channels] === data[p * channels + 1] && data[p * channels] === data[p * channels + 2]).every(Boolean);
        expect(reduced.channels).toBe((isGrey ? 1 : 3) + (hasAlpha ? 1 : 0));
      }),
      { numRuns: 300 },
    );
  });

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
