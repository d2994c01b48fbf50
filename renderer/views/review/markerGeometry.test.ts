import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { boxToPercent, drawingToPercent, onPicture, pictureToDrawing, spreadMarkers } from './markerGeometry';

const shotArb = fc.record({
  widthPx: fc.integer({ min: 16, max: 4096 }),
  heightPx: fc.integer({ min: 16, max: 4096 }),
  transform: fc.record({
    origin: fc.record({ x: fc.double({ min: -1e6, max: 1e6, noNaN: true }), y: fc.double({ min: -1e6, max: 1e6, noNaN: true }) }),
    unitsPerPixel: fc.double({ min: 1e-3, max: 1e3, noNaN: true }),
  }),
});

describe('marker geometry', () => {
  it('places a clicked pixel back on the same spot of the picture (pixel → drawing → percent round trip)', () => {
    fc.assert(
      fc.property(shotArb, fc.double({ min: 0, max: 1, noNaN: true }), fc.double({ min: 0, max: 1, noNaN: true }), (shot, fx, fy) => {
        const pixel = { x: fx * shot.widthPx, y: fy * shot.heightPx };
        const percent = drawingToPercent(pictureToDrawing(pixel, shot.transform), shot);
        expect(percent.left).toBeCloseTo(fx * 100, 3);
        expect(percent.top).toBeCloseTo(fy * 100, 3);
        expect(onPicture(percent)).toBe(true);
      }),
    );
  });

  it('puts the drawing origin of the picture at its top-left corner and higher y further up', () => {
    const shot = { widthPx: 400, heightPx: 200, transform: { origin: { x: 10, y: 120 }, unitsPerPixel: 0.5 } };
    expect(drawingToPercent({ x: 10, y: 120 }, shot)).toEqual({ left: 0, top: 0 });
    expect(drawingToPercent({ x: 210, y: 20 }, shot)).toEqual({ left: 100, top: 100 });
    expect(boxToPercent({ minX: 60, minY: 70, maxX: 110, maxY: 95 }, shot)).toEqual({ left: 25, top: 25, width: 25, height: 25 });
    expect(onPicture(drawingToPercent({ x: 0, y: 0 }, shot))).toBe(false);
  });
});

describe('marker spreading', () => {
  it('keeps markers apart and off every flagged value, whatever the anchors', () => {
    const point = fc.record({ x: fc.double({ min: 0, max: 300, noNaN: true }), y: fc.double({ min: 0, max: 200, noNaN: true }) });
    fc.assert(
      fc.property(fc.array(point, { maxLength: 25 }), (points) => {
        const anchors = points.map((p, i) => ({ id: String(i), ...p }));
        const placed = spreadMarkers(anchors, 24, 18);
        expect(placed.map((m) => m.id)).toEqual(anchors.map((a) => a.id));
        for (const [i, m] of placed.entries()) {
          for (const a of anchors) expect(Math.hypot(m.at.x - a.x, m.at.y - a.y)).toBeGreaterThanOrEqual(18 - 1e-6);
          for (const n of placed.slice(i + 1)) expect(Math.hypot(m.at.x - n.at.x, m.at.y - n.at.y)).toBeGreaterThanOrEqual(24 - 1e-6);
        }
      }),
    );
  });

  it('puts a marker on the far side of its leader text', () => {
    const [m] = spreadMarkers([{ id: 'a', x: 100, y: 100, away: { x: 160, y: 60 } }], 24, 18);
    expect(m!.at.x).toBeLessThan(100);
    expect(m!.at.y).toBeGreaterThan(100);
  });

  it('puts a lone marker up and to the right of its value, close to it', () => {
    const [m] = spreadMarkers([{ id: 'a', x: 100, y: 100 }], 24, 18);
    expect(m!.at.x).toBeGreaterThan(100);
    expect(m!.at.y).toBeLessThan(100);
    expect(Math.hypot(m!.at.x - 100, m!.at.y - 100)).toBeCloseTo(18, 6);
  });
});
