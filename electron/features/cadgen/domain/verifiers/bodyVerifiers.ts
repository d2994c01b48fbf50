import { closedObject, num } from '../contracts/schemaParts';
import { positiveMm, toleranceMm } from './expectedParts';

const relativeTolerance = num(1e-12, 0.5, 'relative tolerance (0.01 = 1 %)');
import { absent, contradicted } from './types';
import type { ClaimVerifier } from './types';
import type { Vec3 } from '../vec3';
import type { TopologySnapshot } from '../topology';

const noBody = { status: 'fail', message: 'the rebuild produced no solid', evidence: {} } as const;

export const solidCountEquals: ClaimVerifier = {
  kind: 'solid_count_equals',
  summary: 'The rebuilt model has exactly `count` solids.',
  deterministic: true,
  pending_rule: 'pending while fewer solids exist than claimed (bodies still to be made); fail as soon as there are more (an extra body never goes away by itself).',
  global_invariant: true,
  expected_schema: closedObject({ count: { type: 'integer', minimum: 1, maximum: 1000 } }),
  required_artifacts: ['measurements'],
  evaluate(expected, context) {
    const measured = context.snapshot?.measurements.solid_count ?? 0;
    const evidence = { measured_solid_count: measured, expected_count: expected.count };
    if (measured === expected.count) return { status: 'pass', message: `${measured} solid(s)`, evidence };
    const message = `${measured} solid(s), expected ${String(expected.count)}`;
    return measured > (expected.count as number) ? contradicted(message, evidence) : absent(context, message, evidence);
  },
};

/** Sizes of the connected components of the face adjacency graph (faces sharing an edge). */
export function faceComponents(snapshot: TopologySnapshot): number[] {
  const seen = new Set<number>();
  const sizes: number[] = [];
  for (const start of snapshot.faces) {
    if (seen.has(start.index)) continue;
    let size = 0;
    const queue = [start.index];
    seen.add(start.index);
    while (queue.length > 0) {
      const index = queue.pop() as number;
      size += 1;
      for (const n of snapshot.faces[index]?.adjacent_faces ?? []) {
        if (!seen.has(n)) {
          seen.add(n);
          queue.push(n);
        }
      }
    }
    sizes.push(size);
  }
  return sizes.sort((a, b) => b - a);
}

export const singleConnectedBody: ClaimVerifier = {
  kind: 'single_connected_body',
  summary: 'The model is one solid whose faces form one connected skin through shared edges (no loose or merely touching bodies).',
  deterministic: true,
  pending_rule: 'pending only while no solid exists; any body that is not one connected solid fails.',
  global_invariant: true,
  expected_schema: closedObject({}),
  required_artifacts: ['measurements', 'topology'],
  evaluate(_expected, context) {
    const measured = context.snapshot?.measurements.solid_count ?? 0;
    const components = context.snapshot ? faceComponents(context.snapshot) : [];
    const evidence = { measured_solid_count: measured, face_components: components.length, component_face_counts: components.slice(0, 20) };
    if (measured === 1 && components.length === 1) return { status: 'pass', message: `one solid, all ${components[0]} faces connected`, evidence };
    const message = measured !== 1 ? `${measured} solids` : `one solid but ${components.length} separate face groups`;
    return measured === 0 ? absent(context, message, evidence) : contradicted(message, evidence);
  },
};

const AXES = { x: 0, y: 1, z: 2 } as const;

export const bboxDimensionMm: ClaimVerifier = {
  kind: 'bbox_dimension_mm',
  summary: 'Exact bounding-box extent along x, y or z, or all three sorted ascending; absolute (tolerance_mm) or relative (relative_tolerance) tolerance.',
  deterministic: true,
  pending_rule: 'the extent belongs to the body, which exists at every built candidate: an extent outside the tolerance fails at once (so an action names only the requirements it completes); no solid at all fails too.',
  expected_schema: {
    oneOf: [
      closedObject({ axis: { type: 'string', enum: ['x', 'y', 'z'] }, value_mm: positiveMm, tolerance_mm: toleranceMm }),
      closedObject({ axis: { const: 'sorted' }, values_mm: { type: 'array', items: positiveMm, minItems: 3, maxItems: 3 }, tolerance_mm: toleranceMm }),
      closedObject({ axis: { type: 'string', enum: ['x', 'y', 'z'] }, value_mm: positiveMm, relative_tolerance: relativeTolerance }),
      closedObject({ axis: { const: 'sorted' }, values_mm: { type: 'array', items: positiveMm, minItems: 3, maxItems: 3 }, relative_tolerance: relativeTolerance }),
    ],
  },
  required_artifacts: ['measurements'],
  evaluate(expected, context) {
    const box = context.snapshot?.measurements.bbox;
    if (!box) return noBody;
    const extents: Vec3 = [box.max[0] - box.min[0], box.max[1] - box.min[1], box.max[2] - box.min[2]];
    const measured = expected.axis === 'sorted' ? [...extents].sort((a, b) => a - b) : [extents[AXES[expected.axis as 'x' | 'y' | 'z']]];
    const wanted = expected.axis === 'sorted' ? (expected.values_mm as number[]) : [expected.value_mm as number];
    const relative = expected.relative_tolerance as number | undefined;
    const allowed = (w: number): number => (relative !== undefined ? relative * w : (expected.tolerance_mm as number));
    const tolerance = relative !== undefined ? { relative_tolerance: relative } : { tolerance_mm: expected.tolerance_mm };
    // Always reported in X × Y × Z order (as everywhere else); sorted claims add their ascending view.
    const xyz = `X × Y × Z ${extents.map((m) => m.toFixed(4)).join(' × ')} mm`;
    const compared = expected.axis === 'sorted' ? `sorted ${measured.map((m) => m.toFixed(4)).join(' ≤ ')}` : `${String(expected.axis).toUpperCase()} ${measured[0]?.toFixed(4)}`;
    const evidence = { axis: expected.axis, measured_mm: measured, expected_mm: wanted, ...tolerance, extents_xyz_mm: extents, bbox: box };
    const ok = measured.every((m, i) => Math.abs(m - (wanted[i] as number)) <= allowed(wanted[i] as number));
    const limit = relative !== undefined ? `± ${relative * 100} %` : `± ${String(expected.tolerance_mm)}`;
    return ok ? { status: 'pass', message: `${compared} (${xyz})`, evidence } : contradicted(`${compared}, expected ${wanted.join(' × ')} ${limit} (${xyz})`, evidence);
  },
};

export const volumeMm3: ClaimVerifier = {
  kind: 'volume_mm3',
  summary: 'Solid volume within a relative tolerance.',
  deterministic: true,
  pending_rule: 'the volume is a property of the finished part: any feature still to come changes it, so a mismatch is pending at a candidate and fails at the final rebuild.',
  expected_schema: closedObject({ value_mm3: { type: 'number', exclusiveMinimum: 0, maximum: 1e15 }, relative_tolerance: num(1e-12, 0.5) }),
  required_artifacts: ['measurements'],
  evaluate(expected, context) {
    const measured = context.snapshot?.measurements.volume_mm3;
    if (measured === undefined) return noBody;
    const value = expected.value_mm3 as number;
    const relative = Math.abs(measured - value) / value;
    const evidence = { measured_mm3: measured, expected_mm3: value, relative_error: relative, relative_tolerance: expected.relative_tolerance };
    return relative <= (expected.relative_tolerance as number) ? { status: 'pass', message: `volume ${measured.toFixed(3)} mm³`, evidence } : absent(context, `volume ${measured.toFixed(3)} mm³, expected ${value}`, evidence);
  },
};
