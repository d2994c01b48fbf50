import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { textCorners } from './bounds';
import { parseMtext } from './textEscapes';
import type { Primitive } from './world';

type TextPrimitive = Extract<Primitive, { kind: 'text' }>;
const text = (raw: string, mtext: boolean, vAlign = 0): TextPrimitive => {
  const { plain, lines } = parseMtext(raw);
  return { kind: 'text', text: plain, at: { x: 0, y: 0 }, height: 10, rotation: 0, hAlign: 0, vAlign, mtext, color: { aci: 7 }, layer: '0', ...(lines ? { runs: lines } : {}) };
};
const minY = (t: TextPrimitive): number => Math.min(...textCorners(t).map((p) => p.y));

describe('text extents', () => {
  it('reach below the baseline of a TEXT far enough for its descenders', () => {
    expect(minY(text('Layer gjpqy', false))).toBeLessThanOrEqual(-3);
  });

  it('reach below the last MTEXT line, deeper when it ends with a stacked lower part', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 6 }), (lines) => {
        const plain = text(Array.from({ length: lines }, () => 'gy').join('\\P'), true, 3);
        const stacked = text(`${Array.from({ length: lines - 1 }, () => 'gy\\P').join('')}75\\S+0^-0.05;`, true, 3);
        const lastBaseline = -10 - (lines - 1) * 10 * (5 / 3);
        expect(minY(plain)).toBeLessThanOrEqual(lastBaseline - 3);
        expect(minY(stacked)).toBeLessThanOrEqual(lastBaseline - 5.5);
      }),
    );
  });
});
