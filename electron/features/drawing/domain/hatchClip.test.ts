import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { clipPattern, patternWork, type PatternLimits } from './hatchClip';
import type { PatternLine } from './hatchPatterns';
import { parsePat, standardPatternLines } from './hatchPatternTable';
import type { Vec2 } from './model';

const square = (x0: number, y0: number, size: number): Vec2[] => [
  { x: x0, y: y0 },
  { x: x0 + size, y: y0 },
  { x: x0 + size, y: y0 + size },
  { x: x0, y: y0 + size },
];
/** Lines y = 0.5 + k·spacing: never along a boundary edge in these tests. */
const horizontal = (spacing: number, dashes: number[] = []): PatternLine => ({ angle: 0, base: { x: 0, y: 0.5 }, offset: { x: 0, y: spacing }, dashes });

/** Even-odd inside test over several loops. */
function inside(p: Vec2, loops: Vec2[][]): boolean {
  let odd = false;
  for (const loop of loops) {
    for (let i = 0, j = loop.length - 1; i < loop.length; j = i++) {
      const a = loop[i] as Vec2;
      const b = loop[j] as Vec2;
      if (a.y > p.y !== b.y > p.y && p.x < ((b.x - a.x) * (p.y - a.y)) / (b.y - a.y) + a.x) odd = !odd;
    }
  }
  return odd;
}

describe('clipPattern', () => {
  it('cuts horizontal lines to a square: one full-width segment per line crossing it', () => {
    const { segments, complete } = clipPattern([square(0, 0, 10)], [horizontal(1)]);
    expect(complete).toBe(true);
    expect(segments.map(([a]) => a.y).sort((p, q) => p - q)).toEqual([0.5, 1.5, 2.5, 3.5, 4.5, 5.5, 6.5, 7.5, 8.5, 9.5]);
    for (const [a, b] of segments) expect(Math.abs(b.x - a.x)).toBeCloseTo(10, 9);
  });

  it('leaves an island empty (even-odd over all loops)', () => {
    const loops = [square(0, 0, 10), square(3, 3, 4)];
    const { segments } = clipPattern(loops, [horizontal(0.5)]);
    expect(segments.length).toBeGreaterThan(0);
    for (const [a, b] of segments) expect(inside({ x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 }, loops)).toBe(true);
    // the line through the island stops at its edge and resumes after it
    expect(segments.filter(([a]) => a.y === 5).map(([a, b]) => [Math.min(a.x, b.x), Math.max(a.x, b.x)]).sort((p, q) => (p[0] as number) - (q[0] as number))).toEqual([
      [0, 3],
      [7, 10],
    ]);
  });

  it('cuts a span into the dashes of the family, phased from the line origin', () => {
    const { segments } = clipPattern([square(0, 0, 10)], [{ ...horizontal(20, [2, -3]), base: { x: 0, y: 5 } }]);
    // a vertex exactly on a line is one crossing, not two: a diamond's corner row gives no stray segment
    expect(clipPattern([[{ x: 0, y: -1 }, { x: 1, y: 0 }, { x: 0, y: 1 }, { x: -1, y: 0 }]], [{ ...horizontal(1), base: { x: 0, y: 0 } }]).segments.map(([a, b]) => [a.x, b.x].sort())).toEqual([[-1, 1]]);
    // dashes [0,2], [5,7] along y = 5
    expect(segments.map(([a, b]) => [a.x, b.x])).toEqual([
      [0, 2],
      [5, 7],
    ]);
  });

  it('stops at its limits with complete: false instead of drawing a too dense pattern', () => {
    const limits: PatternLimits = { maxLines: 100, maxCrossings: 1000, maxSegments: 1000 };
    expect(clipPattern([square(0, 0, 1000)], [horizontal(1)], limits).complete).toBe(false);
    expect(patternWork([square(0, 0, 1000)], [horizontal(1)])).toBeGreaterThan(900);
    expect(clipPattern([square(0, 0, 10)], [horizontal(1, [1e-9, -1e-9])], limits).complete).toBe(false);
  });

  it('never throws and stays within its limits on random loops and pattern lines (property)', () => {
    const coord = fc.double({ min: -1e6, max: 1e6, noNaN: true });
    const point = fc.record({ x: coord, y: coord });
    const line = fc.record({
      angle: fc.double({ min: -720, max: 720, noNaN: true }),
      base: point,
      offset: fc.record({ x: fc.double({ min: -1e4, max: 1e4, noNaN: true }), y: fc.double({ min: -1e4, max: 1e4, noNaN: true }) }),
      dashes: fc.array(fc.double({ min: -100, max: 100, noNaN: true }), { maxLength: 6 }),
    });
    const limits: PatternLimits = { maxLines: 500, maxCrossings: 5000, maxSegments: 2000 };
    fc.assert(
      fc.property(fc.array(fc.array(point, { minLength: 0, maxLength: 12 }), { maxLength: 4 }), fc.array(line, { maxLength: 4 }), (loops, lines) => {
        const { segments } = clipPattern(loops, lines, limits);
        expect(segments.length).toBeLessThanOrEqual(limits.maxSegments);
        for (const [a, b] of segments) expect(Number.isFinite(a.x + a.y + b.x + b.y)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});

describe('standard hatch patterns (acad.pat)', () => {
  it('parses .pat text: a name line, then families of angle, origin, delta and dashes', () => {
    const table = parsePat('*MINE, a comment\n45, 0,0, 0,.125\n90, 1,2, 3,4, .5,-.25 ; trailing note\nnot a line\n');
    expect(table.get('MINE')).toEqual([
      { angle: 45, origin: { x: 0, y: 0 }, delta: { x: 0, y: 0.125 }, dashes: [] },
      { angle: 90, origin: { x: 1, y: 2 }, delta: { x: 3, y: 4 }, dashes: [0.5, -0.25] },
    ]);
  });

  it('gives ANSI31 as a metric drawing stores it: 45° lines 3.175 mm apart, scaled and rotated as asked', () => {
    const [line] = standardPatternLines('ansi31', 1, 0, true, false);
    expect(line?.angle).toBe(45);
    expect(line?.offset.x).toBeCloseTo(-2.2450640303, 8);
    expect(line?.offset.y).toBeCloseTo(2.2450640303, 8);
    const [turned] = standardPatternLines('ANSI31', 2, 45, false, false);
    expect(turned?.angle).toBe(90);
    expect(turned?.offset.x).toBeCloseTo(-0.25, 9);
    expect(turned?.offset.y).toBeCloseTo(0, 9);
  });

  it('keeps ISO patterns in millimetres and doubles a cross-hatched pattern at +90°', () => {
    expect(standardPatternLines('ISO02W100', 1, 0, true, false)[0]?.dashes).toEqual([12, -3]);
    expect(standardPatternLines('NET', 1, 0, false, true).map((l) => l.angle)).toEqual([0, 90, 90, 180]);
    expect(standardPatternLines('NO_SUCH_PATTERN', 1, 0, true, false)).toEqual([]);
  });
});
