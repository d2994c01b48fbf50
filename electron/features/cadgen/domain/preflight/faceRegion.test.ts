import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { EdgeInfo, FaceInfo } from '../topology';
import type { Vec3 } from '../vec3';
import { pointOnPlanarFace } from './faceRegion';

const Z = 10;
const face: FaceInfo = { token: 'fc_1', index: 0, kind: 'plane', area_mm2: 1, centroid: [0, 0, Z], bbox: { min: [-50, -20, Z], max: [50, 20, Z] }, normal: [0, 0, 1], adjacent_faces: [] };
let next = 0;
const line = (a: [number, number], b: [number, number]): EdgeInfo => ({ token: `ed_${next}`, index: next++, kind: 'line', length_mm: 1, start: [a[0], a[1], Z], end: [b[0], b[1], Z], adjacent_faces: [0, 1] });
const arc = (c: [number, number], r: number, a: [number, number], m: [number, number], b: [number, number]): EdgeInfo => ({ ...line(a, b), kind: 'circle', centre: [c[0], c[1], Z], radius_mm: r, mid: [m[0], m[1], Z] });

/** A slot-ended plate top: straight sides, a semicircular end at x = 30 and a Ø10 hole at the origin. */
const edges: EdgeInfo[] = [line([-50, -20], [30, -20]), arc([30, 0], 20, [30, -20], [50, 0], [30, 20]), line([30, 20], [-50, 20]), line([-50, 20], [-50, -20]), arc([0, 0], 5, [5, 0], [-5, 0], [5, 0])];
const onMaterial = (x: number, y: number): boolean => ((x > -50 && x < 30 && Math.abs(y) < 20) || (x >= 30 && (x - 30) ** 2 + y ** 2 < 400)) && x * x + y * y > 25;

describe('point on the material of a planar face', () => {
  it('agrees with the analytic region of a face with a rounded end and a hole, away from its boundary', () => {
    fc.assert(
      fc.property(fc.double({ min: -60, max: 60, noNaN: true }), fc.double({ min: -30, max: 30, noNaN: true }), (x, y) => {
        const nearBoundary = Math.abs(Math.abs(y) - 20) < 1e-6 || Math.abs(x + 50) < 1e-6 || Math.abs(Math.hypot(x, y) - 5) < 1e-6 || Math.abs(Math.hypot(x - 30, y) - 20) < 1e-6;
        fc.pre(!nearBoundary);
        expect(pointOnPlanarFace(face, edges, [x, y, Z] as Vec3)).toBe(onMaterial(x, y));
      }),
      { numRuns: 500 },
    );
  });

  it('cannot decide (null) when the boundary has an edge it cannot trace exactly', () => {
    expect(pointOnPlanarFace(face, [...edges, { ...line([0, 0], [1, 1]), kind: 'bspline' }], [0, 10, Z])).toBeNull();
  });
});
