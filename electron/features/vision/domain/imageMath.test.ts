import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fitWithin, isGreyscalePixels, regionToPixels } from './imageMath';

describe('image math', () => {
  it('detects grey pixels and any single coloured pixel', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 1, maxLength: 200 }), fc.constantFrom(3, 4), fc.nat(), (levels, channels, pick) => {
        const data = new Uint8Array(levels.length * channels);
        levels.forEach((v, i) => data.fill(v, i * channels, i * channels + 3));
        expect(isGreyscalePixels(data, channels)).toBe(true);
        const pixel = pick % levels.length;
        data[pixel * channels + 1] = (data[pixel * channels]! + 1) % 256;
        expect(isGreyscalePixels(data, channels)).toBe(false);
      }),
    );
  });

  it('fits any size within the edge limit without enlarging or distorting much', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 20_000 }), fc.integer({ min: 1, max: 20_000 }), fc.integer({ min: 64, max: 4096 }), (w, h, edge) => {
        const fit = fitWithin(w, h, edge);
        expect(Math.max(fit.width, fit.height)).toBeLessThanOrEqual(Math.max(edge, Math.max(w, h) <= edge ? Math.max(w, h) : edge));
        expect(fit.resized).toBe(Math.max(w, h) > edge);
        if (!fit.resized) expect([fit.width, fit.height]).toEqual([w, h]);
      }),
    );
  });

  it('turns any valid fractional region into a non-empty rectangle inside the image', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 5000 }),
        fc.integer({ min: 1, max: 5000 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (width, height, a, b, c, d) => {
          const x = Math.min(a, c);
          const y = Math.min(b, d);
          const region = { x, y, width: Math.max(c, a) - x, height: Math.max(d, b) - y };
          if (region.width === 0 || region.height === 0) return;
          const rect = regionToPixels(region, width, height);
          expect(rect.width).toBeGreaterThanOrEqual(1);
          expect(rect.height).toBeGreaterThanOrEqual(1);
          expect(rect.left + rect.width).toBeLessThanOrEqual(width);
          expect(rect.top + rect.height).toBeLessThanOrEqual(height);
        },
      ),
    );
  });
});
