import { workplaneFrame } from '../workplane';
import { dot, norm, sub } from '../vec3';
import type { Vec3 } from '../vec3';
import type { BoundingBox } from '../topology';
import type { PreflightCheck, PreflightInput } from './types';

function bboxCorners(box: BoundingBox): Vec3[] {
  const corners: Vec3[] = [];
  for (const x of [box.min[0], box.max[0]]) for (const y of [box.min[1], box.max[1]]) for (const z of [box.min[2], box.max[2]]) corners.push([x, y, z]);
  return corners;
}

/** Largest distance of the body's exact bbox in front of `origin` along unit `direction` (≤ 0: nothing ahead). */
export function exitDistance(box: BoundingBox, origin: Vec3, direction: Vec3): number {
  return Math.max(...bboxCorners(box).map((corner) => dot(sub(corner, origin), direction)));
}

/** Unit cut directions of a sketch-based cut or a hole (holes go against the host face normal). */
export function cutDirections(input: PreflightInput): { origin: Vec3; direction: Vec3 }[] {
  const { feature, resolved } = input;
  if (feature.atomic_id === 'hole') {
    const normal = resolved.host_face?.normal;
    return normal ? [{ origin: resolved.host_face?.centroid ?? [0, 0, 0], direction: [-normal[0], -normal[1], -normal[2]] }] : [];
  }
  if (!feature.sketch) return [];
  const frame = workplaneFrame(feature.sketch.workplane);
  const reversed: Vec3 = [-frame.z[0], -frame.z[1], -frame.z[2]];
  const mode = feature.params?.direction ?? (feature.params?.reverse === true ? 'reverse' : 'normal');
  if (mode === 'both') return [{ origin: frame.origin, direction: frame.z }, { origin: frame.origin, direction: reversed }];
  return [{ origin: frame.origin, direction: mode === 'reverse' ? reversed : frame.z }];
}

/** A body exists to cut or modify. */
export const bodyExists: PreflightCheck = ({ previous }) => (previous && previous.measurements.solid_count > 0 ? null : 'there is no body yet to modify');

/** join needs an existing body; the first feature must say new_body (no silent reinterpretation). */
export const joinNeedsBody: PreflightCheck = ({ feature, previous }) =>
  feature.params?.body === 'join' && (!previous || previous.measurements.solid_count === 0) ? 'body "join" needs an existing body; use "new_body" for the first solid' : null;

/** The body lies ahead of the sketch plane in at least one cut direction. */
export const cutReachesBody: PreflightCheck = (input) => {
  const box = input.previous?.measurements.bbox;
  if (!box) return 'there is no body to cut';
  const reach = cutDirections(input).map((d) => exitDistance(box, d.origin, d.direction));
  return reach.some((r) => r > 1e-6) ? null : 'the cut direction points away from the body: nothing would be removed';
};

/**
 * For through cuts/holes the runtime sizes the tool from the exact bbox; refuse when the body does
 * not extend past the start plane (exit distance ≤ 0), since no exit face could exist.
 */
export const throughExitDistance: PreflightCheck = (input) => {
  const through = input.feature.atomic_id === 'extrude_cut_through' || (input.feature.params?.extent as { kind?: string } | undefined)?.kind === 'through_all';
  if (!through) return null;
  const box = input.previous?.measurements.bbox;
  if (!box) return 'there is no body to cut through';
  const distances = cutDirections(input).map((d) => exitDistance(box, d.origin, d.direction));
  return distances.length > 0 && distances.some((d) => d > 1e-6) ? null : `exit distance along the cut direction is ${Math.max(...distances, 0).toPrecision(4)} mm`;
};

/** Shell thickness leaves material: less than half the body's smallest bbox extent. */
export const shellThicknessFits: PreflightCheck = ({ feature, previous }) => {
  const box = previous?.measurements.bbox;
  const thickness = feature.params?.thickness_mm;
  if (!box || typeof thickness !== 'number') return 'shell needs a body and a thickness';
  const smallest = Math.min(box.max[0] - box.min[0], box.max[1] - box.min[1], box.max[2] - box.min[2]);
  return thickness * 2 < smallest ? null : `wall thickness ${thickness} mm is not less than half the smallest body extent (${smallest.toPrecision(4)} mm)`;
};

/** Pattern directions, axes and mirror normals are non-zero. */
export const directionNonzero: PreflightCheck = ({ feature }) => {
  const params = feature.params ?? {};
  const vector = (params.direction ?? (params.axis as { direction?: unknown } | undefined)?.direction ?? (params.plane as { normal?: unknown } | undefined)?.normal) as Vec3 | undefined;
  return vector && norm(vector) > 1e-9 ? null : 'direction / axis / plane normal is the zero vector';
};
