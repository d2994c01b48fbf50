import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fitCamera, MAX_TILES_PER_VIEW, pan, tileLevel, tilesFor, toDrawing, toScreen, visibleBox, zoomAt } from './viewGeometry';

const size = { width: 800, height: 500 };
const finite = fc.double({ min: -1e5, max: 1e5, noNaN: true });

describe('viewer geometry', () => {
  it('maps screen to drawing and back to the same point at any camera', () => {
    fc.assert(
      fc.property(finite, finite, fc.double({ min: 1e-3, max: 1e3, noNaN: true }), fc.double({ min: 0, max: 800, noNaN: true }), fc.double({ min: 0, max: 500, noNaN: true }), (cx, cy, upp, x, y) => {
        const camera = { cx, cy, upp };
        const back = toScreen(toDrawing({ x, y }, camera, size), camera, size);
        expect(back.x).toBeCloseTo(x, 4);
        expect(back.y).toBeCloseTo(y, 4);
      }),
    );
  });

  it('fits a box inside the screen with y pointing up', () => {
    const camera = fitCamera({ minX: 0, minY: 0, maxX: 420, maxY: 297 }, size);
    const view = visibleBox(camera, size);
    expect(view.minX).toBeLessThanOrEqual(0);
    expect(view.maxX).toBeGreaterThanOrEqual(420);
    expect(view.minY).toBeLessThanOrEqual(0);
    expect(view.maxY).toBeGreaterThanOrEqual(297);
    expect(toScreen({ x: 210, y: 297 }, camera, size).y).toBeLessThan(toScreen({ x: 210, y: 0 }, camera, size).y);
  });

  it('keeps the drawing point under the cursor when zooming, within the zoom limits', () => {
    fc.assert(
      fc.property(fc.double({ min: 0.2, max: 5, noNaN: true }), fc.double({ min: 0, max: 800, noNaN: true }), fc.double({ min: 0, max: 500, noNaN: true }), (factor, x, y) => {
        const camera = { cx: 100, cy: 50, upp: 0.5 };
        const zoomed = zoomAt(camera, factor, { x, y }, size, 1);
        expect(zoomed.upp).toBeLessThanOrEqual(1);
        const before = toDrawing({ x, y }, camera, size);
        const after = toDrawing({ x, y }, zoomed, size);
        expect(after.x).toBeCloseTo(before.x, 6);
        expect(after.y).toBeCloseTo(before.y, 6);
      }),
    );
  });

  it('pans the drawing with the pointer', () => {
    const camera = { cx: 0, cy: 0, upp: 2 };
    const moved = pan(camera, 10, 5);
    expect(toScreen({ x: 0, y: 0 }, moved, size)).toEqual({ x: 410, y: 255 });
  });

  it('asks for no tiles at the overview zoom and for tiles covering the visible layout when closer', () => {
    const extent = { minX: 0, minY: 0, maxX: 1000, maxY: 600 };
    const overviewUpp = 1000 / 1600;
    expect(tilesFor(fitCamera(extent, size), size, extent, overviewUpp)).toEqual([]);
    fc.assert(
      fc.property(fc.double({ min: 0, max: 1000, noNaN: true }), fc.double({ min: 0, max: 600, noNaN: true }), fc.double({ min: 0.005, max: 0.4, noNaN: true }), (cx, cy, upp) => {
        const camera = { cx, cy, upp };
        const tiles = tilesFor(camera, size, extent, overviewUpp);
        expect(tiles.length).toBeLessThanOrEqual(MAX_TILES_PER_VIEW);
        expect(new Set(tiles.map((t) => t.key)).size).toBe(tiles.length);
        const level = tileLevel(upp, overviewUpp);
        // Each tile's picture has at least the screen's resolution (TILE_PX over its width).
        if (level < 6) for (const t of tiles) expect((t.box.maxX - t.box.minX) / 512).toBeLessThanOrEqual(upp * 1.0001);
        if (tiles.length < MAX_TILES_PER_VIEW) {
          // The centre of the view (when on the layout) lies in a tile.
          const inside = tiles.some((t) => cx >= t.box.minX && cx <= t.box.maxX && cy >= t.box.minY && cy <= t.box.maxY);
          expect(inside).toBe(true);
        }
      }),
    );
  });
});
