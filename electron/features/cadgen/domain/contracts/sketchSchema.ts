import { closedObject, length, point2, vec3 } from './schemaParts';
import type { JsonSchema } from './schemaParts';

const lineSegment = closedObject({ type: { const: 'line' }, to: point2 });
const arcSegment = closedObject({ type: { const: 'arc' }, via: point2, to: point2 }, ['type', 'via', 'to'], 'Three-point arc from the previous point through via to to.');

/** One closed 2D shape in sketch-plane coordinates (mm). */
export const profileShapeSchema: JsonSchema = {
  oneOf: [
    closedObject({ type: { const: 'rectangle' }, center: point2, width_mm: length('width'), height_mm: length('height') }),
    closedObject({
      type: { const: 'rounded_rectangle' },
      center: point2,
      width_mm: length('width'),
      height_mm: length('height'),
      corner_radius_mm: length('corner radius, less than half the shorter side'),
    }),
    closedObject({ type: { const: 'circle' }, center: point2, diameter_mm: length('diameter') }),
    closedObject({ type: { const: 'regular_polygon' }, center: point2, sides: { type: 'integer', minimum: 3, maximum: 64 }, circumradius_mm: length('circumradius') }),
    closedObject({
      type: { const: 'polyline' },
      start: point2,
      segments: { type: 'array', minItems: 2, maxItems: 200, items: { oneOf: [lineSegment, arcSegment] } },
    }),
  ],
};

/** Sketch fragment: a workplane (origin, normal, x_dir) and a profile with optional inner loops. */
export const sketchSchema: JsonSchema = closedObject({
  workplane: closedObject({ origin: vec3, normal: vec3, x_dir: vec3 }, ['origin', 'normal', 'x_dir'], 'normal and x_dir must be non-zero and orthogonal.'),
  profile: closedObject(
    { outer: profileShapeSchema, inner: { type: 'array', maxItems: 64, items: profileShapeSchema, description: 'Holes inside the outer loop.' } },
    ['outer'],
  ),
});
