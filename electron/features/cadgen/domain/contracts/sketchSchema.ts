import { closedObject, length, point2, vec3 } from './schemaParts';
import type { JsonSchema } from './schemaParts';

const lineSegment = closedObject({ type: { const: 'line' }, to: point2 });
const arcSegment = closedObject({ type: { const: 'arc' }, via: point2, to: point2 }, ['type', 'via', 'to'], 'three-point arc from the previous point');

/** One closed 2D shape in sketch-plane coordinates (mm). */
export const profileShapeSchema: JsonSchema = {
  oneOf: [
    closedObject({ type: { const: 'rectangle' }, center: point2, width_mm: length(), height_mm: length() }),
    closedObject({
      type: { const: 'rounded_rectangle' },
      center: point2,
      width_mm: length(),
      height_mm: length(),
      corner_radius_mm: length('< half the shorter side'),
    }),
    closedObject({ type: { const: 'circle' }, center: point2, diameter_mm: length() }),
    closedObject({ type: { const: 'regular_polygon' }, center: point2, sides: { type: 'integer', minimum: 3, maximum: 64 }, circumradius_mm: length() }),
    closedObject({
      type: { const: 'polyline' },
      start: point2,
      segments: { type: 'array', minItems: 2, maxItems: 200, items: { oneOf: [lineSegment, arcSegment] } },
    }),
  ],
};

/** Where a sketch document keeps its one copy of the shape schema (outer and inner loops refer to it). */
export const SKETCH_DEFS: Record<string, JsonSchema> = { profile_shape: profileShapeSchema };
const shapeRef: JsonSchema = { $ref: '#/$defs/profile_shape' };

/**
 * Sketch fragment: a workplane (origin, normal, x_dir) and a profile with optional inner loops.
 * Its `$ref`s resolve against the root of the document it is embedded in, which must carry
 * SKETCH_DEFS as `$defs` (fragmentSchema does; sketchDocument is the standalone form). Written
 * out twice, the shape schema made the extrude fragment schema ~9 KB of every fragment turn.
 */
export const sketchSchema: JsonSchema = closedObject({
  workplane: closedObject({ origin: vec3, normal: vec3, x_dir: vec3 }, ['origin', 'normal', 'x_dir'], 'normal ⟂ x_dir, both non-zero'),
  profile: closedObject({ outer: shapeRef, inner: { type: 'array', maxItems: 64, items: shapeRef, description: 'holes in outer' } }, ['outer']),
});

/** sketchSchema as a standalone document (validating a sketch on its own). */
export const sketchDocument: JsonSchema = { ...sketchSchema, $defs: SKETCH_DEFS };
