import fc from 'fast-check';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { exactPalette } from '../domain/pixelStats';
import { lineArtPng } from '../../../testSupport/visionFixtures/images';
import { encodeIndexedPng } from './indexedPng';
import { RESIZE_KERNEL } from './sharpImageProcessor';

/** Interleaved grey, grey + alpha, RGB or RGBA samples as RGBA. */
function asRgba(data: Uint8Array, channels: number): Uint8Array {
  const out = new Uint8Array((data.length / channels) * 4);
  for (let p = 0, i = 0; i < data.length; p += 4, i += channels) {
    const grey = channels <= 2;
    out.set([data[i]!, data[i + (grey ? 0 : 1)]!, data[i + (grey ? 0 : 2)]!, channels === 2 ? data[i + 1]! : channels === 4 ? data[i + 3]! : 255], p);
  }
  return out;
}

describe('indexed PNG writer', () => {
  it('decodes (with libvips) to exactly the pixels it was given, at the bit depth its palette size needs (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 70 }),
        fc.integer({ min: 1, max: 20 }),
        fc.constantFrom(1, 2, 3, 4),
        fc.integer({ min: 1, max: 256 }),
        fc.integer(),
        async (width, height, channels, colourCount, seed) => {
          let s = seed;
          const next = () => (s = (s * 1103515245 + 12345) & 0x7fffffff) >> 8;
          const colours = Array.from({ length: colourCount }, () => Array.from({ length: channels }, () => next() % 256));
          const data = new Uint8Array(width * height * channels);
          for (let p = 0; p < width * height; p++) data.set(colours[next() % colourCount]!, p * channels);
          const palette = exactPalette(data, channels)!;
          const png = encodeIndexedPng(width, height, channels, palette);
          // IHDR bit depth (byte 24): the fewest bits that index every palette entry.
          expect(png[24]).toBe(palette.count <= 2 ? 1 : palette.count <= 4 ? 2 : palette.count <= 16 ? 4 : 8);
          // Compared as RGBA: libvips' 'b-w' conversion would drop the alpha of grey + alpha.
          const back = await sharp(png).ensureAlpha().raw().toBuffer();
          expect(new Uint8Array(back)).toEqual(asRgba(data, channels));
        },
      ),
      { numRuns: 60 },
    );
  });

  it('writes resized grey line art smaller than libvips writes the same pixels losslessly', async () => {
    const sheet = await lineArtPng(2000, 1500, 'monochrome');
    const grey = await sharp(sheet).resize({ width: 1280, height: 960, fit: 'fill', kernel: RESIZE_KERNEL }).extractChannel(0).raw().toBuffer();
    const png = encodeIndexedPng(1280, 960, 1, exactPalette(grey, 1)!);
    const libvips = await sharp(grey, { raw: { width: 1280, height: 960, channels: 1 } }).png({ compressionLevel: 9 }).toBuffer();
    expect(png.length).toBeLessThan(libvips.length * 0.8);
    expect((await sharp(png).extractChannel(0).raw().toBuffer()).equals(grey)).toBe(true);
  });
});
