import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { circleThrough, polygonSelfIntersects, sampleArc, shapePolygon } from './profileGeometry';
import type { Point2 } from './profileGeometry';

const finite = fc.double({ min: -1000, max: 1000, noNaN: true });

describe('profile geometry', () => {
  it('treats every regular polygon as a simple closed loop', () => {
    fc.assert(
      fc.property(fc.integer({ min: 3, max: 64 }), fc.double({ min: 0.01, max: 1000, noNaN: true }), finite, finite, (sides, r, cx, cy) => {
        const polygon = shapePolygon({ type: 'regular_polygon', center: [cx, cy], sides, circumradius_mm: r });
        expect(polygon.closed).toBe(true);
        expect(polygonSelfIntersects(polygon.points)).toBe(false);
      }),
    );
  });

  it('detects a bow-tie polyline as self-intersecting however it is scaled and moved', () => {
    fc.assert(
      fc.property(fc.double({ min: 0.1, max: 500, noNaN: true }), finite, finite, (s, dx, dy) => {
        const points: Point2[] = [[dx, dy], [dx + s, dy + s], [dx + s, dy], [dx, dy + s]];
        expect(polygonSelfIntersects(points)).toBe(true);
      }),
    );
  });

  it('reports a polyline that does not return to its start as open', () => {
    fc.assert(
      fc.property(fc.double({ min: 0.01, max: 100, noNaN: true }), (gap) => {
        const polygon = shapePolygon({ type: 'polyline', start: [0, 0], segments: [{ type: 'line', to: [10, 0] }, { type: 'line', to: [10, 10] }, { type: 'line', to: [0, gap] }] });
        expect(polygon.closed).toBe(false);
      }),
    );
  });

  it('samples three-point arcs on their circle and ends exactly at the end point', () => {
    fc.assert(
      fc.property(fc.double({ min: 0.1, max: 6.1, noNaN: true }), fc.double({ min: 0.5, max: 500, noNaN: true }), (sweep, r) => {
        const a: Point2 = [r, 0];
        const via: Point2 = [r * Math.cos(sweep / 2), r * Math.sin(sweep / 2)];
        const b: Point2 = [r * Math.cos(sweep), r * Math.sin(sweep)];
        const points = sampleArc(a, via, b) as Point2[];
        for (const p of points) expect(Math.hypot(p[0], p[1])).toBeCloseTo(r, 6);
        const last = points[points.length - 1] as Point2;
        expect(last[0]).toBeCloseTo(b[0], 9);
        expect(last[1]).toBeCloseTo(b[1], 9);
        // The sampled arc passes near the via point (it sweeps the correct way round).
        expect(Math.min(...points.map((p) => Math.hypot(p[0] - via[0], p[1] - via[1])))).toBeLessThan((r * sweep) / 20);
      }),
    );
  });

  it('has no circle through three collinear points', () => {
    expect(circleThrough([0, 0], [1, 1], [2, 2])).toBeNull();
  });
});
