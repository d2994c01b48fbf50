import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Frame } from './frame';
import { boxesIntersect } from './geometry';
import { leaderTextBox, placeFrameLeaders, placeLeaderText } from './leaderPlacement';

const a3: Frame = {
  id: 'F1', label: 'A3', bbox: { minX: 0, minY: 0, maxX: 420, maxY: 297 }, layout: 'Model', sheetName: 'A3', unitsPerPaperMm: 1,
  titleBlock: {}, titleBlockAnchors: {}, origin: 'detected',
};
const titleBlock = { minX: 420 - 192, minY: 0, maxX: 420, maxY: 68 };
const inner = { minX: 27, minY: 12, maxX: 408, maxY: 285 };

describe('leader text placement', () => {
  it('keeps the text of a title-block finding off the title block and inside the border', () => {
    const anchor = { x: 400, y: 20 };
    const at = placeLeaderText({ anchor, frame: a3, occupied: [], text: '请填写审核', height: 3.5, offset: 10, unitsPerPaperMm: 1 });
    const box = leaderTextBox(at, at.x >= anchor.x ? 1 : -1, '请填写审核', 3.5);
    expect(boxesIntersect(box, titleBlock)).toBe(false);
    expect(box.minX >= inner.minX && box.maxX <= inner.maxX && box.minY >= inner.minY && box.maxY <= inner.maxY).toBe(true);
  });

  it('never crosses the border or lands on the title block, wherever the finding is', () => {
    fc.assert(
      fc.property(fc.double({ min: 30, max: 400, noNaN: true }), fc.double({ min: 15, max: 280, noNaN: true }), (x, y) => {
        const at = placeLeaderText({ anchor: { x, y }, frame: a3, occupied: [], text: 'Zero-length LINE: delete', height: 3.5, offset: 10, unitsPerPaperMm: 1 });
        const box = leaderTextBox(at, at.x >= x ? 1 : -1, 'Zero-length LINE: delete', 3.5);
        const fits = box.minX >= inner.minX && box.maxX <= inner.maxX && box.minY >= inner.minY && box.maxY <= inner.maxY && !boxesIntersect(box, titleBlock);
        // Only a finding hemmed in on every side may fall back to the clamped default.
        if (!fits) expect(at.x).toBeLessThanOrEqual(420);
        return fits || x > 380 || y < 30 || y > 270;
      }),
    );
  });

  it('moves the second of two neighbouring leaders off the first one', () => {
    const finding = (x: number) => ({ location: null, proposedAnnotation: { text: '字高非标准', anchor: { x, y: 150 }, textAt: { x: x + 10, y: 160 } } });
    const [a, b] = placeFrameLeaders([finding(100), finding(101)], { frame: a3, occupied: [], height: 3.5, offset: 10, unitsPerPaperMm: 1 });
    const boxA = leaderTextBox(a!.proposedAnnotation.textAt, 1, '字高非标准', 3.5);
    const boxB = leaderTextBox(b!.proposedAnnotation.textAt, b!.proposedAnnotation.textAt.x >= 101 ? 1 : -1, '字高非标准', 3.5);
    expect(boxesIntersect(boxA, boxB)).toBe(false);
  });
});
