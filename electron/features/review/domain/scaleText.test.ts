import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { unitsPerPaperMmFromScaleText } from './frame';

const toFullWidth = (s: string): string => s.replace(/[0-9]/g, (d) => String.fromCharCode(d.charCodeAt(0) + 0xfee0));

describe('the title-block scale parser', () => {
  it('reads every spacing, separator and label of a ratio as real over paper', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 1000 }),
        fc.integer({ min: 1, max: 10000 }),
        fc.constantFrom(':', '：', '/', '／'),
        fc.constantFrom('', ' ', '  '),
        fc.constantFrom('', ' ', '\t'),
        fc.constantFrom('', '比例 ', '比例：', 'Scale: ', 'SCALE ', 'scale:'),
        fc.boolean(),
        (paper, real, sep, before, after, label, fullWidth) => {
          const ratio = `${paper}${before}${sep}${after}${real}`;
          const text = `${label}${fullWidth ? toFullWidth(ratio) : ratio}`;
          expect(unitsPerPaperMmFromScaleText(text)).toBeCloseTo(real / paper, 9);
        },
      ),
    );
  });

  it('reads decimal ratios ("1:2.5", "2.5 : 1")', () => {
    expect(unitsPerPaperMmFromScaleText('1:2.5')).toBe(2.5);
    expect(unitsPerPaperMmFromScaleText('2.5 : 1')).toBe(0.4);
  });

  it('returns undefined or a positive finite number for any text, never throws', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 40 }), (text) => {
        const value = unitsPerPaperMmFromScaleText(text);
        expect(value === undefined || (Number.isFinite(value) && value > 0)).toBe(true);
      }),
    );
  });

  it('refuses zero, a missing side, words and free text', () => {
    for (const text of ['0:50', '1:0', '1:', ':50', 'NTS', '不按比例', '1:50:2', 'Scale', 'Rectangular Viewport', '1-50']) {
      expect(unitsPerPaperMmFromScaleText(text), text).toBeUndefined();
    }
  });
});
