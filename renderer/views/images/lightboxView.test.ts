import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_SCALE, MIN_SCALE, panBy, zoomAt } from './lightboxView';

const view = fc.record({ scale: fc.double({ min: MIN_SCALE, max: MAX_SCALE, noNaN: true }), x: fc.double({ min: -5000, max: 5000, noNaN: true }), y: fc.double({ min: -5000, max: 5000, noNaN: true }) });
const point = fc.record({ x: fc.double({ min: 0, max: 2000, noNaN: true }), y: fc.double({ min: 0, max: 2000, noNaN: true }) });

describe('lightbox view', () => {
  it('keeps the image point under the pointer where it is while zooming, within the scale limits', () => {
    fc.assert(
      fc.property(view, point, fc.double({ min: 0.2, max: 5, noNaN: true }), (before, at, factor) => {
        const after = zoomAt(before, factor, at);
        expect(after.scale).toBeGreaterThanOrEqual(MIN_SCALE);
        expect(after.scale).toBeLessThanOrEqual(MAX_SCALE);
        if (after.scale === MIN_SCALE) {
          expect(after).toEqual({ scale: MIN_SCALE, x: 0, y: 0 });
        } else {
          // The image coordinate under `at` before and after is the same.
          expect((at.x - after.x) / after.scale).toBeCloseTo((at.x - before.x) / before.scale, 6);
          expect((at.y - after.y) / after.scale).toBeCloseTo((at.y - before.y) / before.scale, 6);
        }
      }),
    );
  });

  it('pans a zoomed view by the pointer movement and never moves the fitted one', () => {
    expect(panBy({ scale: 2, x: 10, y: 5 }, 30, -20)).toEqual({ scale: 2, x: 40, y: -15 });
    expect(panBy({ scale: 1, x: 0, y: 0 }, 30, -20)).toEqual({ scale: 1, x: 0, y: 0 });
  });
});
