import { cross, dot, norm, normalize } from './vec3';
import type { Vec3 } from './vec3';
import type { Workplane } from './document';
import type { Point2 } from './profileGeometry';

export interface Frame {
  origin: Vec3;
  x: Vec3;
  y: Vec3;
  z: Vec3;
}

/** Why a workplane is unusable, or null when normal and x_dir are non-zero and orthogonal. */
export function workplaneProblem(plane: Workplane): string | null {
  if (norm(plane.normal) < 1e-9) return 'workplane normal is the zero vector';
  if (norm(plane.x_dir) < 1e-9) return 'workplane x_dir is the zero vector';
  const cosine = dot(plane.normal, plane.x_dir) / (norm(plane.normal) * norm(plane.x_dir));
  if (Math.abs(cosine) > 1e-9) return `workplane x_dir is not orthogonal to the normal (cos = ${cosine.toPrecision(3)})`;
  return null;
}

/** Right-handed orthonormal frame of a valid workplane (y = normal × x). */
export function workplaneFrame(plane: Workplane): Frame {
  const z = normalize(plane.normal);
  const x = normalize(plane.x_dir);
  if (!z || !x) throw new RangeError('workplaneFrame needs a valid workplane');
  return { origin: plane.origin, x, y: cross(z, x), z };
}

export function toWorld(frame: Frame, p: Point2): Vec3 {
  return [
    frame.origin[0] + frame.x[0] * p[0] + frame.y[0] * p[1],
    frame.origin[1] + frame.x[1] * p[0] + frame.y[1] * p[1],
    frame.origin[2] + frame.x[2] * p[0] + frame.y[2] * p[1],
  ];
}
