import fc from 'fast-check';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { exactPalette } from '../domain/pixelStats';
import { encodeIndexedPng } from './indexedPng';

describe('indexed PNG writer', () => {
  it('decodes (with libvips) to exactly the pixels it was given, at every bit depth (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 40 }),
        fc.integer({ min: 1, max: 20 }),
        fc.constantFrom(1, 3, 4),
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
          const decoded = sharp(png);
          const back = await (channels === 4 ? decoded.ensureAlpha() : decoded.removeAlpha()).toColourspace(channels === 1 ? 'b-w' : 'srgb').raw().toBuffer();
          expect(new Uint8Array(back)).toEqual(data);
        },
      ),
      { numRuns: 40 },
    );
  });
});
