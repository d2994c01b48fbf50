import { closedObject, num } from '../contracts/schemaParts';
import { positiveMm, toleranceMm } from './expectedParts';
import { unmet } from './types';
import type { ClaimVerifier } from './types';
import type { Vec3 } from '../vec3';

const noBody = { status: 'fail', message: 'the rebuild produced no solid', evidence: {} } as const;

export const solidCountEquals: ClaimVerifier = {
  kind: 'solid_count_equals',
  summary: 'The rebuilt model has exactly `count` solids.',
  deterministic: true,
  expected_schema: closedObject({ count: { type: 'integer', minimum: 1, maximum: 1000 } }),
  required_artifacts: ['measurements'],
  evaluate(expected, context) {
    const measured = context.snapshot?.measurements.solid_count ?? 0;
    const evidence = { measured_solid_count: measured, expected_count: expected.count };
    return measured === expected.count ? { status: 'pass', message: `${measured} solid(s)`, evidence } : unmet(context, `${measured} solid(s), expected ${String(expected.count)}`, evidence);
  },
};

export const singleConnectedBody: ClaimVerifier = {
  kind: 'single_connected_body',
  summary: 'The model is one connected solid (no loose bodies).',
  deterministic: true,
  expected_schema: closedObject({}),
  required_artifacts: ['measurements'],
  evaluate(_expected, context) {
    const measured = context.snapshot?.measurements.solid_count ?? 0;
    const evidence = { measured_solid_count: measured };
    return measured === 1 ? { status: 'pass', message: 'one connected solid', evidence } : unmet(context, `${measured} solids`, evidence);
  },
};

const AXES = { x: 0, y: 1, z: 2 } as const;

export const bboxDimensionMm: ClaimVerifier = {
  kind: 'bbox_dimension_mm',
  summary: 'Exact bounding-box extent along x, y or z, or all three sorted ascending.',
  deterministic: true,
  expected_schema: {
    oneOf: [
      closedObject({ axis: { type: 'string', enum: ['x', 'y', 'z'] }, value_mm: positiveMm, tolerance_mm: toleranceMm }),
      closedObject({ axis: { const: 'sorted' }, values_mm: { type: 'array', items: positiveMm, minItems: 3, maxItems: 3 }, tolerance_mm: toleranceMm }),
    ],
  },
  required_artifacts: ['measurements'],
  evaluate(expected, context) {
    const box = context.snapshot?.measurements.bbox;
    if (!box) return noBody;
    const extents: Vec3 = [box.max[0] - box.min[0], box.max[1] - box.min[1], box.max[2] - box.min[2]];
    const tolerance = expected.tolerance_mm as number;
    const measured = expected.axis === 'sorted' ? [...extents].sort((a, b) => a - b) : [extents[AXES[expected.axis as 'x' | 'y' | 'z']]];
    const wanted = expected.axis === 'sorted' ? (expected.values_mm as number[]) : [expected.value_mm as number];
    const evidence = { axis: expected.axis, measured_mm: measured, expected_mm: wanted, tolerance_mm: tolerance, bbox: box };
    const ok = measured.every((m, i) => Math.abs(m - (wanted[i] as number)) <= tolerance);
    return ok ? { status: 'pass', message: `extent ${measured.map((m) => m.toFixed(4)).join(' × ')} mm`, evidence } : unmet(context, `extent ${measured.map((m) => m.toFixed(4)).join(' × ')} mm, expected ${wanted.join(' × ')} ± ${tolerance}`, evidence);
  },
};

export const volumeMm3: ClaimVerifier = {
  kind: 'volume_mm3',
  summary: 'Solid volume within a relative tolerance.',
  deterministic: true,
  expected_schema: closedObject({ value_mm3: { type: 'number', exclusiveMinimum: 0, maximum: 1e15 }, relative_tolerance: num(1e-12, 0.5) }),
  required_artifacts: ['measurements'],
  evaluate(expected, context) {
    const measured = context.snapshot?.measurements.volume_mm3;
    if (measured === undefined) return noBody;
    const value = expected.value_mm3 as number;
    const relative = Math.abs(measured - value) / value;
    const evidence = { measured_mm3: measured, expected_mm3: value, relative_error: relative, relative_tolerance: expected.relative_tolerance };
    return relative <= (expected.relative_tolerance as number) ? { status: 'pass', message: `volume ${measured.toFixed(3)} mm³`, evidence } : unmet(context, `volume ${measured.toFixed(3)} mm³, expected ${value}`, evidence);
  },
};
