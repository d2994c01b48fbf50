import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bboxHeight, bboxWidth, drawingToPixel, pixelBoxToDrawing, pixelToDrawing, planScreenshotTiles, pointInBox } from './geometry';

const coordinate = fc.double({ min: -1e6, max: 1e6, noNaN: true });
const transform = fc.record({ origin: fc.record({ x: coordinate, y: coordinate }), unitsPerPixel: fc.double({ min: 1e-3, max: 1e3, noNaN: true }) });

describe('screenshot transform', () => {
  it('maps a pixel to the drawing and back to the same pixel', () => {
    fc.assert(
      fc.property(transform, fc.record({ x: fc.double({ min: 0, max: 10000, noNaN: true }), y: fc.double({ min: 0, max: 10000, noNaN: true }) }), (t, pixel) => {
        const back = drawingToPixel(t, pixelToDrawing(t, pixel));
        expect(back.x).toBeCloseTo(pixel.x, 4);
        expect(back.y).toBeCloseTo(pixel.y, 4);
      }),
    );
  });

  it('maps a drawing point to a pixel and back to the same point', () => {
    fc.assert(
      fc.property(transform, fc.record({ x: coordinate, y: coordinate }), (t, point) => {
        const back = pixelToDrawing(t, drawingToPixel(t, point));
        const tolerance = 1e-6 * (Math.abs(point.x) + Math.abs(point.y) + Math.abs(t.origin.x) + Math.abs(t.origin.y) + 1);
        expect(Math.abs(back.x - point.x)).toBeLessThanOrEqual(tolerance);
        expect(Math.abs(back.y - point.y)).toBeLessThanOrEqual(tolerance);
      }),
    );
  });

  it('turns image rows downward into drawing y upward', () => {
    const t = { origin: { x: 100, y: 500 }, unitsPerPixel: 2 };
    expect(pixelToDrawing(t, { x: 10, y: 10 })).toEqual({ x: 120, y: 480 });
    expect(pixelBoxToDrawing(t, { x: 0, y: 0, w: 10, h: 5 })).toEqual({ minX: 100, minY: 490, maxX: 120, maxY: 500 });
  });
});

describe('planScreenshotTiles', () => {
  it('returns tiles that cover the frame exactly, within the tile cap', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 1, max: 1e5, noNaN: true }),
        fc.double({ min: 1, max: 1e5, noNaN: true }),
        fc.double({ min: 0.1, max: 100, noNaN: true }),
        fc.integer({ min: 1, max: 16 }),
        (w, h, textHeight, maxTiles) => {
          const frame = { minX: 10, minY: 20, maxX: 10 + w, maxY: 20 + h };
          const tiles = planScreenshotTiles(frame, { minTextHeight: textHeight, minTextPixels: 10, maxEdge: 1280, maxTiles });
          expect(tiles.length).toBeLessThanOrEqual(Math.max(1, maxTiles));
          const area = tiles.reduce((sum, t) => sum + bboxWidth(t) * bboxHeight(t), 0);
          expect(area).toBeCloseTo(w * h, 0);
          for (const t of tiles) expect(pointInBox({ x: t.minX, y: t.minY }, frame, 1e-6) && pointInBox({ x: t.maxX, y: t.maxY }, frame, 1e-6)).toBe(true);
        },
      ),
    );
  });

  it('splits an A3 frame with 2.5 mm text into a grid so text gets 12 px', () => {
    const tiles = planScreenshotTiles({ minX: 0, minY: 0, maxX: 420, maxY: 297 }, { minTextHeight: 2.5, minTextPixels: 12, maxEdge: 1280, maxTiles: 9 });
    expect(tiles).toHaveLength(4);
  });
});
