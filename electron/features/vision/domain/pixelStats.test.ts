import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compareSamples, exactPalette, isOpaque, keepsFidelity, looksPhotographic } from './pixelStats';

const pixelsArb = fc.constantFrom(1, 2, 3, 4).chain((channels) =>
  fc.tuple(fc.constant(channels), fc.array(fc.uint8Array({ minLength: channels, maxLength: channels }), { minLength: 1, maxLength: 12 }), fc.array(fc.nat(), { minLength: 1, maxLength: 300 })),
);

describe('pixel statistics', () => {
  it('rebuilds every pixel exactly from an exact palette (property)', () => {
    fc.assert(
      fc.property(pixelsArb, ([channels, colours, picks]) => {
        const data = new Uint8Array(picks.length * channels);
        picks.forEach((p, i) => data.set(colours[p % colours.length]!, i * channels));
        const palette = exactPalette(data, channels)!;
        expect(palette.count).toBeLessThanOrEqual(colours.length);
        const rebuilt = new Uint8Array(data.length);
        palette.indexes.forEach((index, i) => rebuilt.set(palette.entries.subarray(index * channels, (index + 1) * channels), i * channels));
        expect(rebuilt).toEqual(data);
      }),
    );
  });

  it('gives up as soon as there are more distinct values than the palette holds', () => {
    const data = new Uint8Array(300 * 3).map((_, i) => (i % 3 === 0 ? Math.floor(i / 3) % 256 : i % 3 === 1 ? Math.floor(i / 768) : 0));
    expect(exactPalette(data, 3, 256)).toBeUndefined();
    expect(exactPalette(data.subarray(0, 256 * 3), 3, 256)?.count).toBe(256);
  });

  it('sees translucency, photographic noise and the fidelity threshold', () => {
    expect(isOpaque(new Uint8Array([1, 2, 3, 255, 4, 5, 6, 255]), 4)).toBe(true);
    expect(isOpaque(new Uint8Array([1, 2, 3, 255, 4, 5, 6, 254]), 4)).toBe(false);
    let seed = 1;
    // High bits: the low bits of this LCG repeat every 256 draws.
    const noise = new Uint8Array(90_000).map(() => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) >> 16) % 256);
    expect(looksPhotographic(noise, 3)).toBe(true);
    expect(looksPhotographic(new Uint8Array(90_000).fill(255), 3)).toBe(false);
    const a = new Uint8Array(1000).fill(100);
    expect(compareSamples(a, a)).toEqual({ maxDiff: 0, meanAbsDiff: 0, psnrDb: Infinity });
    const shifted = a.map((v, i) => (i % 2 ? v + 1 : v));
    expect(keepsFidelity(a, shifted)).toBe(true);
    expect(keepsFidelity(a, a.map((v) => v + 3))).toBe(false);
  });
});
