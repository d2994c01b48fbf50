import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { componentBoxes, findSmallText, inkMask, MAX_LABELLED_PIXELS, MIN_LEGIBLE_TEXT_PX } from './textLegibility';

/** A mask with filled rectangles [x, y, w, h]. */
function maskOf(width: number, height: number, rects: Array<[number, number, number, number]>): Uint8Array {
  const mask = new Uint8Array(width * height);
  for (const [x, y, w, h] of rects) for (let j = y; j < y + h; j++) mask.fill(1, j * width + x, j * width + x + w);
  return mask;
}

/** Glyph-sized blocks of height `h` on a grid with a blank pixel (at least) between them. */
function glyphs(width: number, height: number, h: number, area: { x0: number; y0: number; x1: number; y1: number }): Array<[number, number, number, number]> {
  const rects: Array<[number, number, number, number]> = [];
  const w = Math.max(1, Math.round(h * 0.6));
  for (let y = area.y0; y + h < Math.min(height, area.y1); y += h + 3) for (let x = area.x0; x + w < Math.min(width, area.x1); x += w + 2) rects.push([x, y, w, h]);
  return rects;
}

describe('text legibility', () => {
  it('finds each separated rectangle of ink as one component with its exact box', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.integer({ min: 1, max: 6 }), fc.integer({ min: 1, max: 6 })), { minLength: 1, maxLength: 12 }), (sizes) => {
        // Laid out left to right with a 1 px gap: 8-connectivity must not join them.
        const rects: Array<[number, number, number, number]> = [];
        let x = 0;
        for (const [w, h] of sizes) {
          rects.push([x, 1, w, h]);
          x += w + 1;
        }
        const boxes = componentBoxes(maskOf(x, 8, rects), x, 8).sort((a, b) => a.minX - b.minX);
        expect(boxes.map((b) => [b.minX, b.minY, b.maxX - b.minX + 1, b.maxY - b.minY + 1])).toEqual(rects);
        expect(boxes.map((b) => b.area)).toEqual(rects.map(([, , w, h]) => w * h));
      }),
    );
  });

  it('joins diagonal neighbours (8-connectivity) and U shapes into one component', () => {
    const mask = maskOf(5, 5, [[0, 0, 1, 1], [1, 1, 1, 1], [2, 2, 1, 1], [3, 3, 1, 1], [4, 0, 1, 5], [0, 4, 3, 1]]);
    expect(componentBoxes(mask, 5, 5)).toHaveLength(1);
  });

  it('reports text below the legible height with zoom regions inside the image that bring it to that height, and nothing for legible text', () => {
    fc.assert(
      fc.property(fc.integer({ min: 3, max: 14 }), fc.integer({ min: 0, max: 3 }), fc.integer({ min: 0, max: 3 }), (h, cellX, cellY) => {
        const [width, height] = [320, 240];
        const area = { x0: (cellX * width) / 4 + 2, y0: (cellY * height) / 4 + 2, x1: ((cellX + 1) * width) / 4, y1: ((cellY + 1) * height) / 4 };
        const rects = [...glyphs(width, height, h, area), [0, 120, 320, 1] as [number, number, number, number]];
        fc.pre(rects.length > 21);
        const found = findSmallText(maskOf(width, height, rects), width, height);
        if (h >= MIN_LEGIBLE_TEXT_PX) {
          expect(found).toBeUndefined();
          return;
        }
        expect(found?.textHeightPx).toBe(h);
        const [first, ...rest] = found!.zoomRegions;
        // The densest cell is the one holding the text, and the region around it scales h to the legible height.
        expect(first!.x).toBeLessThanOrEqual((cellX + 0.5) / 4);
        expect(first!.x + first!.width).toBeGreaterThanOrEqual((cellX + 0.5) / 4 - 0.001);
        expect(first!.y + first!.height).toBeGreaterThanOrEqual((cellY + 0.5) / 4 - 0.001);
        expect(h / first!.width).toBeGreaterThanOrEqual(MIN_LEGIBLE_TEXT_PX - 0.01);
        for (const r of [first!, ...rest]) {
          expect(Math.min(r.x, r.y)).toBeGreaterThanOrEqual(0);
          expect(r.x + r.width).toBeLessThanOrEqual(1);
          expect(r.y + r.height).toBeLessThanOrEqual(1);
        }
      }),
      { numRuns: 60 },
    );
  });

  it('does not judge an image with too little text, and caps its work by the image size', () => {
    expect(findSmallText(maskOf(100, 100, glyphs(100, 100, 4, { x0: 0, y0: 0, x1: 30, y1: 10 })), 100, 100)).toBeUndefined();
    const side = Math.ceil(Math.sqrt(MAX_LABELLED_PIXELS)) + 1;
    expect(findSmallText(new Uint8Array(side * side), side, side)).toBeUndefined();
  });

  it('takes ink as what differs from the paper, on white or on a dark background, in grey or colour', () => {
    const rgb = new Uint8Array([255, 255, 255, 200, 0, 0, 250, 250, 250, 255, 255, 255, 0, 0, 160]);
    expect([...inkMask(rgb, 5, 1, 3)]).toEqual([0, 1, 0, 0, 1]);
    const dark = new Uint8Array([0, 255, 10, 0, 0, 180, 0, 0]);
    expect([...inkMask(dark, 4, 2, 1)]).toEqual([0, 1, 0, 0, 0, 1, 0, 0]);
  });
});
