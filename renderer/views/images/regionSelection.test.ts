import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { regionFromPoints } from './regionSelection';

const box = { left: 100, top: 50, width: 400, height: 300 };

describe('region selection', () => {
  it('turns a drag across the middle half of the image into fractions of the image', () => {
    expect(regionFromPoints({ x: 200, y: 125 }, { x: 400, y: 275 }, box)).toEqual({ x: 0.25, y: 0.25, width: 0.5, height: 0.5 });
  });

  it('treats a click or a hairline drag as no selection', () => {
    expect(regionFromPoints({ x: 200, y: 125 }, { x: 201, y: 300 }, box)).toBeNull();
    expect(regionFromPoints({ x: 200, y: 125 }, { x: 200, y: 125 }, box)).toBeNull();
  });

  it('always yields a region inside the image, whatever the drag direction or how far outside it ends', () => {
    const coordinate = fc.double({ min: -2000, max: 2000, noNaN: true });
    const point = fc.record({ x: coordinate, y: coordinate });
    const anyBox = fc.record({ left: coordinate, top: coordinate, width: fc.double({ min: 1, max: 4000, noNaN: true }), height: fc.double({ min: 1, max: 4000, noNaN: true }) });
    fc.assert(
      fc.property(point, point, anyBox, (a, b, frame) => {
        const region = regionFromPoints(a, b, frame);
        expect(regionFromPoints(b, a, frame)).toEqual(region);
        if (region === null) return;
        for (const value of [region.x, region.y, region.width, region.height]) expect(value).toBeGreaterThanOrEqual(0);
        expect(region.width).toBeGreaterThanOrEqual(0.01);
        expect(region.height).toBeGreaterThanOrEqual(0.01);
        expect(region.x + region.width).toBeLessThanOrEqual(1 + 1e-9);
        expect(region.y + region.height).toBeLessThanOrEqual(1 + 1e-9);
      }),
    );
  });
});
