import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { matchSheet, parseScaleText, SHEETS, trimmedSheetBox } from './sheets';

describe('matchSheet', () => {
  it('recognises an A3 sheet drawn at 1:100 in millimetres', () => {
    expect(matchSheet(42_000, 29_700)).toMatchObject({ sheet: 'A3', orientation: 'landscape', outline: 'sheet', scaleText: '1:100', usualScale: true });
  });

  it('recognises the drawn border of an A3 sheet without binding edge', () => {
    expect(matchSheet(400, 277)).toMatchObject({ sheet: 'A3', outline: 'border', scaleText: '1:1' });
  });

  it('reports portrait orientation for a standing A4', () => {
    expect(matchSheet(210, 297)).toMatchObject({ sheet: 'A4', orientation: 'portrait' });
  });

  it('rejects rectangles whose aspect is no A-size outline', () => {
    expect(matchSheet(100, 100)).toBeUndefined();
    expect(matchSheet(300, 100)).toBeUndefined();
    expect(matchSheet(0, 0)).toBeUndefined();
  });

  it('finds the exact sheet and outline for any scale when the title block states the scale', () => {
    const outlines = SHEETS.flatMap((s) => [
      { sheet: s.name, outline: 'sheet', long: s.long, short: s.short },
      { sheet: s.name, outline: 'border', long: s.long - 2 * s.margin, short: s.short - 2 * s.margin },
    ]);
    fc.assert(
      fc.property(fc.constantFrom(...outlines), fc.double({ min: 0.01, max: 1000, noNaN: true }), fc.boolean(), (o, k, portrait) => {
        const [w, h] = portrait ? [o.short * k, o.long * k] : [o.long * k, o.short * k];
        const match = matchSheet(w, h, { scale: k });
        expect(match).toMatchObject({ sheet: o.sheet, outline: o.outline, orientation: portrait ? 'portrait' : 'landscape' });
        expect(Math.abs((match?.scale ?? 0) - k) / k).toBeLessThan(1e-9);
      }),
    );
  });

  it('recognises GB/T 14689 borders with a binding edge in both orientations and grows them back to the trimmed sheet', () => {
    const landscape = matchSheet(390, 287)!;
    expect(landscape).toMatchObject({ sheet: 'A3', outline: 'border_with_binding', paperWidth: 420, paperHeight: 297, margins: { left: 25, right: 5, bottom: 5, top: 5 } });
    const portrait = matchSheet(180, 287)!;
    expect(portrait).toMatchObject({ sheet: 'A4', orientation: 'portrait', outline: 'border_with_binding', paperWidth: 210, paperHeight: 297 });
    expect(trimmedSheetBox({ minX: 25, minY: 5, maxX: 205, maxY: 292 }, portrait)).toEqual({ minX: 0, minY: 0, maxX: 210, maxY: 297 });
  });

  it('grows any border at any scale back to a trimmed sheet of the standard size', () => {
    fc.assert(
      fc.property(fc.constantFrom(...SHEETS), fc.constantFrom(1, 2, 5, 10, 50, 100), fc.boolean(), (s, k, portrait) => {
        const [w, h] = portrait ? [s.short - 2 * s.margin, s.long - 2 * s.margin] : [s.long - 2 * s.margin, s.short - 2 * s.margin];
        const match = matchSheet(w * k, h * k, { scale: k })!;
        const box = trimmedSheetBox({ minX: 0, minY: 0, maxX: w * k, maxY: h * k }, match);
        expect((box.maxX - box.minX) / k).toBeCloseTo(portrait ? s.short : s.long, 6);
        expect((box.maxY - box.minY) / k).toBeCloseTo(portrait ? s.long : s.short, 6);
      }),
    );
  });

  it('prefers a sheet named in the block name', () => {
    expect(matchSheet(213.36, 150.876, { name: 'a3_m_landscape_bw' })).toMatchObject({ sheet: 'A3', scaleText: '1.969:1' });
  });
});

describe('parseScaleText', () => {
  it('reads 1:N, N:1 and full-width colons as drawing units per sheet millimetre', () => {
    expect(parseScaleText('1:100')).toBe(100);
    expect(parseScaleText('1：50')).toBe(50);
    expect(parseScaleText('2:1')).toBe(0.5);
    expect(parseScaleText('xxx')).toBeUndefined();
  });
});
