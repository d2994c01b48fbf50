import { polygonArea, polygonSelfIntersects, polygonsTouch, pointInPolygon, shapePolygon } from '../profileGeometry';
import { toWorld, workplaneFrame, workplaneProblem } from '../workplane';
import { cross, dot, norm, sub } from '../vec3';
import type { Point2 } from '../profileGeometry';
import type { PreflightCheck } from './types';

const shapeProblem = (label: string, shape: Parameters<typeof shapePolygon>[0]): string | null => {
  if (shape.type === 'rounded_rectangle' && shape.corner_radius_mm * 2 >= Math.min(shape.width_mm, shape.height_mm)) {
    return `${label}: corner radius must be less than half the shorter side`;
  }
  const polygon = shapePolygon(shape);
  if (polygon.degenerate) return `${label}: an arc's three points are collinear`;
  if (!polygon.closed) return `${label}: polyline does not return to its start point`;
  if (polygonSelfIntersects(polygon.points)) return `${label}: profile intersects itself or has no area`;
  return null;
};

/** Workplane normal and x_dir are non-zero and orthogonal. */
export const workplaneValid: PreflightCheck = ({ feature }) => (feature.sketch ? workplaneProblem(feature.sketch.workplane) : 'sketch missing');

/** Outer and inner loops are closed and simple; inner loops lie strictly inside the outer loop and apart. */
export const profileClosedSimple: PreflightCheck = ({ feature }) => {
  const profile = feature.sketch?.profile;
  if (!profile) return 'sketch profile missing';
  const outerProblem = shapeProblem('outer loop', profile.outer);
  if (outerProblem) return outerProblem;
  const outer = shapePolygon(profile.outer).points;
  const inners: Point2[][] = [];
  for (const [i, inner] of (profile.inner ?? []).entries()) {
    const problem = shapeProblem(`inner loop ${i + 1}`, inner);
    if (problem) return problem;
    const points = shapePolygon(inner).points;
    if (polygonsTouch(points, outer) || !points.every((p) => pointInPolygon(p, outer))) return `inner loop ${i + 1} is not strictly inside the outer loop`;
    for (const [j, other] of inners.entries()) {
      if (polygonsTouch(points, other) || pointInPolygon(points[0] as Point2, other) || pointInPolygon(other[0] as Point2, points)) {
        return `inner loops ${j + 1} and ${i + 1} overlap`;
      }
    }
    inners.push(points);
  }
  return Math.abs(polygonArea(outer)) > 1e-9 ? null : 'outer loop has no area';
};

/** The revolve axis lies in the sketch plane (point on the plane, direction perpendicular to its normal). */
export const revolveAxisInSketchPlane: PreflightCheck = ({ feature }) => {
  const axis = feature.params?.axis as { origin: [number, number, number]; direction: [number, number, number] } | undefined;
  const plane = feature.sketch?.workplane;
  if (!axis || !plane) return 'revolve needs a sketch and an axis';
  if (norm(axis.direction) < 1e-9) return 'revolve axis direction is the zero vector';
  const n = workplaneFrame(plane).z;
  const offset = dot(sub(axis.origin, plane.origin), n);
  if (Math.abs(offset) > 1e-6) return `revolve axis origin is ${offset.toPrecision(4)} mm off the sketch plane`;
  const cosine = dot(axis.direction, n) / norm(axis.direction);
  if (Math.abs(cosine) > 1e-9) return 'revolve axis direction is not parallel to the sketch plane';
  return null;
};

/** The profile stays on one side of the revolve axis (touching is allowed), else the solid self-intersects. */
export const revolveProfileOneSide: PreflightCheck = ({ feature }) => {
  const axis = feature.params?.axis as { origin: [number, number, number]; direction: [number, number, number] } | undefined;
  const sketch = feature.sketch;
  if (!axis || !sketch) return 'revolve needs a sketch and an axis';
  const frame = workplaneFrame(sketch.workplane);
  const side = cross(frame.z, axis.direction);
  const points = shapePolygon(sketch.profile.outer).points;
  const signed = points.map((p) => {
    return dot(sub(toWorld(frame, p), axis.origin), side) / norm(side);
  });
  const tolerance = 1e-6;
  const crosses = signed.some((s) => s > tolerance) && signed.some((s) => s < -tolerance);
  return crosses ? 'profile crosses the revolve axis' : null;
};
