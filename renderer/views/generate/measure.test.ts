import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { circleDiameter, circumcentre, distanceBetween, edgeChain, nextPicks, type MeasurePick } from './measure';
import type { Vec3 } from './viewPresets';

/** Points on a circle of radius r around c in the plane spanned by u and v (unit, orthogonal). */
function arc(c: Vec3, r: number, u: Vec3, v: Vec3, from: number, to: number, n: number): Vec3[] {
  return Array.from({ length: n + 1 }, (_, i) => {
    const a = from + ((to - from) * i) / n;
    return [0, 1, 2].map((k) => c[k]! + r * (Math.cos(a) * u[k]! + Math.sin(a) * v[k]!)) as unknown as Vec3;
  });
}

/** A glTF LINES position array from polylines (each consecutive pair becomes one segment). */
function lines(...polylines: Vec3[][]): number[] {
  return polylines.flatMap((line) => line.slice(1).flatMap((p, i) => [...line[i]!, ...p]));
}

describe('the 3D viewer measure tool', () => {
  it('measures the straight distance between two picked points with its X, Y and Z components', () => {
    expect(distanceBetween([0, 0, 0], [30, 40, 0])).toEqual({ distance_mm: 50, dx: 30, dy: 40, dz: 0 });
    expect(distanceBetween([10, 5, -2], [10, 5, 10]).distance_mm).toBe(12);
  });

  it('keeps the distance symmetric and never negative', () => {
    const point = fc.tuple(fc.double({ min: -1e4, max: 1e4, noNaN: true }), fc.double({ min: -1e4, max: 1e4, noNaN: true }), fc.double({ min: -1e4, max: 1e4, noNaN: true }));
    fc.assert(
      fc.property(point, point, (a, b) => {
        const ab = distanceBetween(a, b).distance_mm;
        expect(ab).toBeGreaterThanOrEqual(0);
        expect(ab).toBeCloseTo(distanceBetween(b, a).distance_mm, 6);
      }),
    );
  });

  it('takes two picks for a measurement and starts over on the third', () => {
    const pick = (x: number): MeasurePick => ({ point: [x, 0, 0], source: 'face' });
    let picks = nextPicks([], pick(1));
    picks = nextPicks(picks, pick(2));
    expect(picks.map((p) => p.point[0])).toEqual([1, 2]);
    expect(nextPicks(picks, pick(3)).map((p) => p.point[0])).toEqual([3]);
  });

  it('finds the diameter of a circular edge in any plane, whole or as an arc', () => {
    const u: Vec3 = [1 / Math.SQRT2, 1 / Math.SQRT2, 0];
    const v: Vec3 = [0, 0, 1];
    expect(circleDiameter(arc([5, -3, 12], 10, u, v, 0, 2 * Math.PI, 48))).toBeCloseTo(20, 9);
    expect(circleDiameter(arc([0, 0, 0], 3.3, [1, 0, 0], [0, 1, 0], 0.2, 1.4, 12))).toBeCloseTo(6.6, 9);
  });

  it('gives no diameter for a straight edge, a bent line or a free-form curve', () => {
    expect(circleDiameter([[0, 0, 0], [1, 0, 0], [2, 0, 0], [3, 0, 0]])).toBeNull();
    expect(circleDiameter([[0, 0, 0], [10, 0, 0], [10, 10, 0], [20, 10, 0]])).toBeNull();
    const ellipse = arc([0, 0, 0], 1, [1, 0, 0], [0, 1, 0], 0, 2 * Math.PI, 40).map(([x, y, z]) => [2 * x, y, z] as Vec3);
    expect(circleDiameter(ellipse)).toBeNull();
    expect(circleDiameter([[0, 0, 0], [1, 1, 1]])).toBeNull();
  });

  it('finds the circle through three points', () => {
    const c = circumcentre([1, 0, 0], [0, 1, 0], [-1, 0, 0])!;
    expect(c.map((x) => Math.round(x * 1e9) / 1e9)).toEqual([0, 0, 0]);
    expect(circumcentre([0, 0, 0], [1, 1, 1], [2, 2, 2])).toBeNull();
  });

  it('follows one edge through the shared segment list, stopping where edges meet', () => {
    const circle = arc([0, 0, 5], 4, [1, 0, 0], [0, 1, 0], 0, 2 * Math.PI, 24);
    circle[circle.length - 1] = circle[0]!; // the encoder closes a circle on its first point exactly
    const square: Vec3[] = [[10, 10, 0], [20, 10, 0], [20, 20, 0]];
    const spur: Vec3[] = [[20, 10, 0], [20, 0, 0]];
    const positions = lines(square, circle, spur);
    // Segment 2 is the circle's first; the chain is the whole circle, not the square.
    const chain = edgeChain(positions, 2 + 5);
    expect(chain).toHaveLength(circle.length);
    expect(circleDiameter(chain)).toBeCloseTo(8, 9);
    // The square's first segment ends where the spur starts: three segments meet, the chain stops.
    expect(edgeChain(positions, 0)).toEqual([[10, 10, 0], [20, 10, 0]]);
  });
});
