import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isPdf, parsePageRange, pdfRenderScale } from './pdfPages';

describe('PDF page ranges', () => {
  it('reads lists, ranges and open ranges, sorted and without duplicates', () => {
    expect(parsePageRange('1-3,5', 9)).toEqual([1, 2, 3, 5]);
    expect(parsePageRange(' 8- , 2 ,2', 9)).toEqual([2, 8, 9]);
    expect(parsePageRange(undefined, 3)).toEqual([1, 2, 3]);
  });

  it('refuses page 0, pages past the end, reversed ranges and garbage with a typed error', () => {
    for (const spec of ['0', '4', '3-2', 'a', '1;2', '-2', '1--2']) {
      expect(() => parsePageRange(spec, 3), spec).toThrow(expect.objectContaining({ code: 'VISION_PDF_PAGES_INVALID' }));
    }
  });

  it('returns exactly the pages written, whatever their order and spelling (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 60 }), fc.array(fc.tuple(fc.nat(), fc.nat()), { minLength: 1, maxLength: 6 }), (count, pairs) => {
        const ranges = pairs.map(([a, b]) => [1 + (a % count), 1 + (b % count)].sort((x, y) => x - y) as [number, number]);
        const spec = ranges.map(([a, b]) => (a === b ? `${a}` : `${a}-${b}`)).join(',');
        const expected = [...new Set(ranges.flatMap(([a, b]) => Array.from({ length: b - a + 1 }, (_, i) => a + i)))].sort((x, y) => x - y);
        expect(parsePageRange(spec, count)).toEqual(expected);
      }),
    );
  });

  it('knows a PDF by its header and renders at 200 DPI within the pixel cap', () => {
    expect(isPdf(new TextEncoder().encode('%PDF-1.7\n'))).toBe(true);
    expect(isPdf(new TextEncoder().encode('\n\n%PDF-1.4'))).toBe(true);
    expect(isPdf(new TextEncoder().encode('<svg/>'))).toBe(false);
    expect(pdfRenderScale(595, 842, 40_000_000)).toBeCloseTo(200 / 72);
    const a0 = pdfRenderScale(2384, 3370, 16_000_000);
    expect(2384 * a0 * 3370 * a0).toBeLessThanOrEqual(16_000_000 * 1.0001);
  });
});
