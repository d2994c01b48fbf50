import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { TopologySnapshot } from '../topology';
import { ALL_VERIFIERS } from './registry';
import { plateWithBores, snapshot } from './topology.testSupport';
import type { ClaimStatus, ClaimVerifier } from './types';

const byKind = (kind: string): ClaimVerifier => ALL_VERIFIERS.find((v) => v.kind === kind) as ClaimVerifier;
const at = (kind: string, expected: Record<string, unknown>, s: TopologySnapshot | null, stage: 'candidate' | 'final' = 'candidate'): ClaimStatus => byKind(kind).evaluate(expected, { snapshot: s, stage }).status;
const TOL = 0.01;
/** A perturbation clearly beyond the tolerance, either sign. */
const beyond = (max: number) => fc.tuple(fc.double({ min: 5 * TOL, max, noNaN: true }), fc.boolean()).map(([d, neg]) => (neg ? -d : d));
const centres = (n: number, r: number): [number, number][] => Array.from({ length: n }, (_, i) => [r * Math.cos((2 * Math.PI * i) / n), r * Math.sin((2 * Math.PI * i) / n)]);

describe('pending versus fail on perturbed geometry (seed §6.4)', () => {
  it('every verifier states how it tells pending from fail', () => {
    for (const v of ALL_VERIFIERS) expect(v.pending_rule.length, v.kind).toBeGreaterThan(20);
  });

  it('a positioned bore is pending while absent, passes when exact, and fails once drilled with another diameter, off the position, or blind', () => {
    fc.assert(
      fc.property(fc.double({ min: 2, max: 20, noNaN: true }), fc.integer({ min: -30, max: 30 }), fc.integer({ min: -30, max: 30 }), beyond(0.45), fc.double({ min: 0.05, max: 0.9, noNaN: true }), (d, x, y, relDiameter, relOffset) => {
        const claim = { diameter_mm: d, axis: [0, 0, 1], position: [x, y, 5], tolerance_mm: TOL };
        expect(at('through_cylindrical_bore', claim, plateWithBores([]))).toBe('pending');
        expect(at('through_cylindrical_bore', claim, plateWithBores([]), 'final')).toBe('fail');
        expect(at('through_cylindrical_bore', claim, plateWithBores([[x, y]], false, d / 2))).toBe('pass');
        expect(at('through_cylindrical_bore', claim, plateWithBores([[x, y]], false, (d * (1 + relDiameter)) / 2))).toBe('fail');
        expect(at('cylindrical_bore', claim, plateWithBores([[x + d * relOffset, y]], false, d / 2))).toBe('fail');
        expect(at('through_cylindrical_bore', claim, plateWithBores([[x, y]], true, d / 2))).toBe('fail');
      }),
      { numRuns: 60 },
    );
  });

  it('a circular pattern is pending while part of it is drilled right and fails on a wrong diameter, pitch circle or extra hole', () => {
    fc.assert(
      fc.property(fc.integer({ min: 3, max: 8 }), fc.double({ min: 30, max: 45, noNaN: true }), fc.double({ min: 4, max: 8, noNaN: true }), fc.integer({ min: 1, max: 7 }), beyond(0.4), (n, r, d, made, rel) => {
        const claim = { count: n, diameter_mm: d, pcd_mm: 2 * r, centre: [0, 0, 0], axis: [0, 0, 1], through: true, tolerance_mm: TOL };
        const all = centres(n, r);
        expect(at('circular_hole_pattern', claim, plateWithBores(all, false, d / 2))).toBe('pass');
        const partial = plateWithBores(all.slice(0, Math.min(made, n - 1)), false, d / 2);
        expect(at('circular_hole_pattern', claim, partial)).toBe('pending');
        expect(at('circular_hole_pattern', claim, partial, 'final')).toBe('fail');
        expect(at('circular_hole_pattern', claim, plateWithBores(all, false, (d * (1 + rel)) / 2))).toBe('fail');
        expect(at('circular_hole_pattern', claim, plateWithBores(centres(n, r + d * rel), false, d / 2))).toBe('fail');
        const half: [number, number] = [r * Math.cos(Math.PI / n), r * Math.sin(Math.PI / n)];
        expect(at('circular_hole_pattern', claim, plateWithBores([...all.slice(0, 1), half], false, d / 2))).toBe('fail');
      }),
      { numRuns: 60 },
    );
  });

  it('a bbox extent or a too-thin wall fails as soon as the body exists; a thicker wall stays pending for a later cut', () => {
    fc.assert(
      fc.property(fc.double({ min: 2, max: 50, noNaN: true }), beyond(1.5), (t, delta) => {
        const body: TopologySnapshot = { ...plateWithBores([]), measurements: { solid_count: 1, volume_mm3: 1, area_mm2: 1, bbox: { min: [0, 0, 0], max: [100, 100, t] } } };
        expect(at('bbox_dimension_mm', { axis: 'z', value_mm: t, tolerance_mm: TOL }, body)).toBe('pass');
        expect(at('bbox_dimension_mm', { axis: 'z', value_mm: t + Math.abs(delta), tolerance_mm: TOL }, body)).toBe('fail');
        expect(at('bbox_dimension_mm', { axis: 'z', value_mm: Math.max(0.001, t - Math.abs(delta)), tolerance_mm: TOL }, body)).toBe('fail');
        // plateWithBores is 10 mm thick: a claimed 10 + |δ| wall is contradicted, 10 − |δ| may still be cut.
        expect(at('wall_thickness', { min_mm: 10 + Math.abs(delta), tolerance_mm: TOL }, plateWithBores([]))).toBe('fail');
        expect(at('wall_thickness', { min_mm: 10 - Math.abs(delta), tolerance_mm: TOL }, plateWithBores([]))).toBe('pending');
      }),
      { numRuns: 60 },
    );
  });

  it('a hole set is pending while too few bores exist and fails with too many or with a blind one', () => {
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 8 }), (n) => {
        const claim = { count: n, diameter_mm: 10, depth: { kind: 'through' }, tolerance_mm: TOL };
        const spots = (k: number): [number, number][] => Array.from({ length: k }, (_, i) => [-40 + i * 11, 0]);
        expect(at('hole_set', claim, plateWithBores(spots(n)))).toBe('pass');
        expect(at('hole_set', claim, plateWithBores(spots(n - 1)))).toBe('pending');
        expect(at('hole_set', claim, plateWithBores(spots(n + 1)))).toBe('fail');
        expect(at('hole_set', claim, plateWithBores(spots(n - 1), true))).toBe('fail');
        expect(at('solid_count_equals', { count: n }, snapshot([], n - 1))).toBe('pending');
        expect(at('solid_count_equals', { count: n }, snapshot([], n + 1))).toBe('fail');
      }),
      { numRuns: 20 },
    );
  });

  it('a fail at a candidate is a fail at the final rebuild, and the final rebuild is never pending for a deterministic claim', () => {
    const samples: Record<string, Record<string, unknown>> = {
      through_cylindrical_bore: { diameter_mm: 10, axis: [0, 0, 1], position: [0, 0, 5], tolerance_mm: TOL },
      circular_hole_pattern: { count: 4, diameter_mm: 10, pcd_mm: 60, centre: [0, 0, 0], axis: [0, 0, 1], through: true, tolerance_mm: TOL },
      hole_set: { count: 3, diameter_mm: 10, depth: { kind: 'through' }, tolerance_mm: TOL },
      linear_hole_pattern: { count: 3, diameter_mm: 10, pitch_mm: 20, direction: [1, 0, 0], tolerance_mm: TOL },
      wall_thickness: { min_mm: 8, tolerance_mm: TOL },
      volume_mm3: { value_mm3: 900, relative_tolerance: 0.01 },
    };
    const point = fc.tuple(fc.constantFrom(-30, -20, 0, 20, 30), fc.constantFrom(-30, 0, 30));
    fc.assert(
      fc.property(fc.uniqueArray(point, { maxLength: 6, selector: ([x, y]) => `${x},${y}` }), fc.constantFrom(4, 5, 6), fc.boolean(), (spots, radius, blind) => {
        const s = plateWithBores(spots as [number, number][], blind, radius);
        for (const [kind, expected] of Object.entries(samples)) {
          const candidate = at(kind, expected, s);
          const final = at(kind, expected, s, 'final');
          expect(final, kind).not.toBe('pending');
          if (candidate === 'fail') expect(final, kind).toBe('fail');
          if (candidate === 'pass') expect(final, kind).toBe('pass');
        }
      }),
      { numRuns: 80 },
    );
  });
});
