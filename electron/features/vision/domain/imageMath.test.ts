import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { regionToPixels } from './imageMath';

describe('image math', () => {
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
