import type { Drawing, Shape3D } from 'replicad';
import type { Point2, ProfileShape } from '../../../domain/profileGeometry';
import type { Sketch } from '../../../domain/document';
import { workplaneFrame } from '../../../domain/workplane';
import { add, scale } from '../../../domain/vec3';
import type { Arena } from '../arena';
import type { Kernel } from '../kernel';

/** What sketchOnPlane returns (one sketch, several, or a compound): all extrude and revolve. */
type PlacedSketch = ReturnType<Drawing['sketchOnPlane']> & object;

function shapeDrawing(kernel: Kernel, arena: Arena, shape: ProfileShape): Drawing {
  const { r } = kernel;
  const at = (d: Drawing, center: Point2): Drawing => arena.track(d.translate(center[0], center[1]));
  switch (shape.type) {
    case 'rectangle':
      return at(arena.track(r.drawRectangle(shape.width_mm, shape.height_mm)), shape.center);
    case 'rounded_rectangle':
      return at(arena.track(r.drawRoundedRectangle(shape.width_mm, shape.height_mm, shape.corner_radius_mm)), shape.center);
    case 'circle':
      return at(arena.track(r.drawCircle(shape.diameter_mm / 2)), shape.center);
    case 'regular_polygon':
      return at(arena.track(r.drawPolysides(shape.circumradius_mm, shape.sides)), shape.center);
    case 'polyline': {
      let pen = r.draw([shape.start[0], shape.start[1]]);
      for (const segment of shape.segments) {
        pen = segment.type === 'line' ? pen.lineTo([segment.to[0], segment.to[1]]) : pen.threePointsArcTo([segment.to[0], segment.to[1]], [segment.via[0], segment.via[1]]);
      }
      return arena.track(pen.close());
    }
  }
}

/**
 * Extrudes the sketch profile (outer minus inner loops) between two signed offsets along the
 * workplane normal, e.g. [0, d] one-sided, [-d, 0] reversed, [-d/2, d/2] symmetric.
 */
export function extrudeBetween(kernel: Kernel, arena: Arena, sketch: Sketch, from: number, to: number): Shape3D {
  let drawing = shapeDrawing(kernel, arena, sketch.profile.outer);
  for (const inner of sketch.profile.inner ?? []) drawing = arena.track(drawing.cut(shapeDrawing(kernel, arena, inner)));
  const frame = workplaneFrame(sketch.workplane);
  const plane = arena.track(new kernel.r.Plane([...add(frame.origin, scale(frame.z, from))], [...frame.x], [...frame.z]));
  const sketched = arena.track(drawing.sketchOnPlane(plane)) as PlacedSketch;
  return arena.track(sketched.extrude(to - from) as Shape3D);
}

/** Revolves the sketch profile around an axis (model coordinates) by an angle in degrees. */
export function revolveSketch(kernel: Kernel, arena: Arena, sketch: Sketch, axis: { origin: number[]; direction: number[] }, angleDeg: number): Shape3D {
  let drawing = shapeDrawing(kernel, arena, sketch.profile.outer);
  for (const inner of sketch.profile.inner ?? []) drawing = arena.track(drawing.cut(shapeDrawing(kernel, arena, inner)));
  const frame = workplaneFrame(sketch.workplane);
  const plane = arena.track(new kernel.r.Plane([...frame.origin], [...frame.x], [...frame.z]));
  const sketched = arena.track(drawing.sketchOnPlane(plane)) as PlacedSketch;
  const [ox, oy, oz] = axis.origin as [number, number, number];
  const [dx, dy, dz] = axis.direction as [number, number, number];
  return arena.track(sketched.revolve([dx, dy, dz], { origin: [ox, oy, oz], angle: angleDeg }) as Shape3D);
}
