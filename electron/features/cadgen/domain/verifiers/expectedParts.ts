import { closedObject, num, vec3 } from '../contracts/schemaParts';
import type { JsonSchema } from '../contracts/schemaParts';

/** Shared pieces of closed expected-value schemas. */
export const toleranceMm: JsonSchema = num(1e-9, 100, 'absolute tolerance in mm');
export const positiveMm: JsonSchema = { type: 'number', exclusiveMinimum: 0, maximum: 100_000 };
export const boreExpected: JsonSchema = closedObject(
  { diameter_mm: positiveMm, axis: vec3, position: vec3, tolerance_mm: toleranceMm },
  ['diameter_mm', 'axis', 'position', 'tolerance_mm'],
  'A bore of this diameter whose axis is parallel to `axis` and passes through `position`.',
);
