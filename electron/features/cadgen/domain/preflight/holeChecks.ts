import { dot, sub } from '../vec3';
import type { Vec3 } from '../vec3';
import { pointOnPlanarFace } from './faceRegion';
import type { PreflightCheck } from './types';

const ON_FACE_TOLERANCE_MM = 1e-4;

/** The host face is planar (holes are drilled along its normal). */
export const hostFacePlanar: PreflightCheck = ({ resolved }) =>
  resolved.host_face?.kind === 'plane' && resolved.host_face.normal ? null : `host face is a ${resolved.host_face?.kind ?? 'missing'} face, holes need a planar face`;

/**
 * Every position lies in the host face's plane, inside its exact bbox and on its material (not in
 * an existing hole or outside an L-shaped outline), traced from the face's boundary edges.
 */
export const holePositionsOnHostFace: PreflightCheck = ({ feature, resolved, previous }) => {
  const face = resolved.host_face;
  if (!face?.normal) return 'host face is not planar';
  const positions = (feature.params?.positions_mm ?? []) as Vec3[];
  for (const [i, p] of positions.entries()) {
    const offset = dot(sub(p, face.centroid), face.normal);
    if (Math.abs(offset) > ON_FACE_TOLERANCE_MM) return `position ${i + 1} is ${offset.toPrecision(4)} mm off the host face plane`;
    const inside = [0, 1, 2].every((k) => (p[k] as number) >= (face.bbox.min[k] as number) - ON_FACE_TOLERANCE_MM && (p[k] as number) <= (face.bbox.max[k] as number) + ON_FACE_TOLERANCE_MM);
    if (!inside) return `position ${i + 1} lies outside the host face`;
    if (previous && pointOnPlanarFace(face, previous.edges, p) === false) return `position ${i + 1} [${p.map((v) => Number(v.toFixed(4))).join(', ')}] is not on the solid material of the host face (it falls in an opening or outside its outline)`;
  }
  const unique = new Set(positions.map((p) => p.map((v) => v.toFixed(6)).join(',')));
  return unique.size === positions.length ? null : 'two hole positions coincide';
};

/** Counterbore/countersink diameters exceed the hole; a counterbore is shallower than a blind hole. */
export const holeStyleDimensions: PreflightCheck = ({ feature }) => {
  const params = feature.params ?? {};
  const diameter = params.diameter_mm as number;
  const style = params.style as { kind: string; diameter_mm?: number; depth_mm?: number };
  const extent = params.extent as { kind: string; depth_mm?: number };
  if (style.kind !== 'simple' && (style.diameter_mm ?? 0) <= diameter) return `${style.kind} diameter must exceed the hole diameter ${diameter} mm`;
  if (style.kind === 'counterbore' && extent.kind === 'blind' && (style.depth_mm ?? 0) >= (extent.depth_mm ?? 0)) return 'counterbore depth must be less than the hole depth';
  return null;
};
