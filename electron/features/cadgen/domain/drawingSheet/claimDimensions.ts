import type { Claim } from '../claims';
import type { TopologySnapshot } from '../topology';
import { dot, parallel } from '../vec3';
import type { Vec3 } from '../vec3';
import { findBores } from '../verifiers/bores';
import type { Bore } from '../verifiers/bores';
import { filletFaces } from '../verifiers/blendVerifiers';
import { angleDimension, endOnView, holeLocations, radiusDimension } from './featureDimensions';
import type { DimView, PlannedDimension, PlannedTolerance } from './plannedDimension';

export type { DimView, PlannedDimension, PlannedTolerance } from './plannedDimension';

/** Why a claim produced no dimension of its own. */
export type UndimensionedReason = 'not_dimensional' | 'covered_by_other_dimension' | 'geometry_not_found' | 'not_seen_end_on' | 'unsupported_claim_kind';

export interface ClaimDimensionEntry {
  claim_id: string;
  claim_kind: string;
  /** Ids of the planned dimensions that show this claim's values. */
  dimensions: string[];
  /** Values (mm) the claim states, each to be found as a DIMENSION measurement. */
  values_mm: number[];
  /** Angles (degrees) the claim states, each to be found as an angular DIMENSION's measurement. */
  values_deg?: number[];
  reason?: UndimensionedReason;
}

export interface DimensionPlan {
  dimensions: PlannedDimension[];
  claims: ClaimDimensionEntry[];
}

const NOT_DIMENSIONAL = new Set(['single_connected_body', 'solid_count_equals', 'volume_mm3', 'visual', 'coplanar']);
const TOL = 1e-3;
/**
 * A claim's tolerance_mm is put on the drawing (± after the value) from this size up: below it
 * the tolerance is the verification's precision (the protocol's default 0.001 mm), not a
 * requirement a workshop must hold, and GB/T 1804-m covers the size.
 */
const DRAWING_TOLERANCE_MM = 0.01;

const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
const vec = (v: unknown): Vec3 | undefined => (Array.isArray(v) && v.length === 3 && v.every((x) => typeof x === 'number') ? [v[0] as number, v[1] as number, v[2] as number] : undefined);

/** The claim's tolerance when it is a drawing tolerance (see DRAWING_TOLERANCE_MM), as ±. */
function toleranceOf(claim: Claim | undefined): PlannedTolerance | undefined {
  const t = num(claim?.expected.tolerance_mm);
  return t !== undefined && t >= DRAWING_TOLERANCE_MM ? { upper: t, lower: -t } : undefined;
}

/** The bore a claim is about: same diameter, axis parallel, the claimed position on its axis line. */
function matchBore(bores: Bore[], diameter: number, axis: Vec3 | undefined, position: Vec3 | undefined): Bore | undefined {
  return bores.find((b) => {
    if (Math.abs(b.diameter_mm - diameter) > TOL) return false;
    if (axis && !parallel(axis, b.axis.direction, 1e-6)) return false;
    if (!position) return true;
    const d: Vec3 = [position[0] - b.axis.origin[0], position[1] - b.axis.origin[1], position[2] - b.axis.origin[2]];
    const along = dot(d, b.axis.direction);
    return Math.hypot(d[0] - along * b.axis.direction[0], d[1] - along * b.axis.direction[1], d[2] - along * b.axis.direction[2]) <= TOL;
  });
}

/**
 * Maps the contract's claims to the dimensions a GB sheet must carry, each value once: overall
 * sizes from bbox claims (a round part's two equal extents become one Ø on its outer cylinder),
 * bore diameters with the count of equal bores ("6×Ø6"), hole patterns as "N×Ød EQS" plus the
 * PCD. Claims whose values another dimension already shows, or that are not sizes, are listed
 * with a typed reason instead.
 */
export function planDimensions(claims: Claim[], snapshot: TopologySnapshot): DimensionPlan {
  const bores = findBores(snapshot);
  const { min, max } = snapshot.measurements.bbox;
  const extent = [0, 1, 2].map((i) => (max[i] as number) - (min[i] as number));
  const mid = (i: number): number => ((max[i] as number) + (min[i] as number)) / 2;
  const centre: Vec3 = [mid(0), mid(1), mid(2)];
  const dims: PlannedDimension[] = [];
  const entries: ClaimDimensionEntry[] = [];
  const boreDims = new Map<Bore, string>();
  let next = 0;
  const id = (): string => `D${++next}`;

  const boreDimension = (bore: Bore, pattern?: { pcd: number; centre: Vec3; count: number }): string => {
    const existing = boreDims.get(bore);
    if (existing) return existing;
    const view = endOnView(bore.axis.direction) ?? 'top';
    const equal = bores.filter((b) => Math.abs(b.diameter_mm - bore.diameter_mm) <= TOL && parallel(b.axis.direction, bore.axis.direction, 1e-6));
    const dimId = id();
    dims.push({ id: dimId, kind: 'diameter', centre: bore.axis.origin, axis: bore.axis.direction, radius: bore.diameter_mm / 2, value: bore.diameter_mm, count: pattern?.count ?? equal.length, view, ...(pattern ? { pattern: { pcd: pattern.pcd, centre: pattern.centre } } : {}) });
    for (const b of equal) boreDims.set(b, dimId);
    return dimId;
  };

  for (const claim of claims) {
    const e = claim.expected;
    const entry: ClaimDimensionEntry = { claim_id: claim.id, claim_kind: claim.kind, dimensions: [], values_mm: [] };
    entries.push(entry);
    if (NOT_DIMENSIONAL.has(claim.kind)) {
      entry.reason = 'not_dimensional';
      continue;
    }
    switch (claim.kind) {
      case 'bbox_dimension_mm': {
        const values = Array.isArray(e.values_mm) ? (e.values_mm as unknown[]).map(num).filter((v): v is number => v !== undefined) : [];
        entry.values_mm = values;
        const free = new Set([0, 1, 2]);
        // A round part: X = Y = the diameter of an outer cylinder on the Z axis → one Ø in the top view.
        const shaft = snapshot.faces.find((f) => f.kind === 'cylinder' && f.concave === false && f.axis && parallel(f.axis.direction, [0, 0, 1], 1e-6) && Math.abs(2 * (f.radius_mm ?? 0) - (extent[0] as number)) <= TOL && Math.abs((extent[0] as number) - (extent[1] as number)) <= TOL);
        for (const value of values) {
          if (shaft && free.has(0) && free.has(1) && Math.abs(value - (extent[0] as number)) <= TOL) {
            const dimId = id();
            dims.push({ id: dimId, kind: 'diameter', centre: [centre[0], centre[1], max[2] as number], axis: [0, 0, 1], radius: value / 2, value, count: 1, view: 'top' });
            entry.dimensions.push(dimId);
            free.delete(0);
            free.delete(1);
            continue;
          }
          if (shaft && !free.has(0) && !free.has(1) && Math.abs(value - (extent[0] as number)) <= TOL && entry.dimensions.length > 0) continue;
          const axis = [...free].find((i) => Math.abs((extent[i] as number) - value) <= TOL);
          if (axis === undefined) continue;
          free.delete(axis);
          const dimId = id();
          dims.push({ id: dimId, kind: 'extent', axis: axis as 0 | 1 | 2, value, view: axis === 1 ? 'side' : 'front' });
          entry.dimensions.push(dimId);
        }
        if (entry.dimensions.length === 0) entry.reason = 'geometry_not_found';
        break;
      }
      case 'cylindrical_bore':
      case 'through_cylindrical_bore': {
        const diameter = num(e.diameter_mm);
        if (diameter === undefined) {
          entry.reason = 'unsupported_claim_kind';
          break;
        }
        entry.values_mm = [diameter];
        const bore = matchBore(bores, diameter, vec(e.axis), vec(e.position));
        if (!bore) entry.reason = 'geometry_not_found';
        else entry.dimensions.push(boreDimension(bore));
        break;
      }
      case 'circular_hole_pattern': {
        const diameter = num(e.diameter_mm);
        const pcd = num(e.pcd_mm);
        const count = num(e.count);
        const c = vec(e.centre) ?? [0, 0, 0];
        const axis = vec(e.axis) ?? [0, 0, 1];
        if (diameter === undefined || pcd === undefined || count === undefined) {
          entry.reason = 'unsupported_claim_kind';
          break;
        }
        entry.values_mm = [diameter, pcd];
        const members = bores.filter((b) => Math.abs(b.diameter_mm - diameter) <= TOL && parallel(b.axis.direction, axis, 1e-6) && Math.abs(2 * Math.hypot(...([0, 1, 2].map((i) => ((b.axis.origin[i] as number) - (c[i] as number)) * (1 - Math.abs(axis[i] as number))) as [number, number, number])) - pcd) <= 10 * TOL);
        const first = members[0];
        if (!first) {
          entry.reason = 'geometry_not_found';
          break;
        }
        entry.dimensions.push(boreDimension(first, { pcd, centre: c, count }));
        const pcdId = id();
        dims.push({ id: pcdId, kind: 'pcd', centre: c, axis, value: pcd, view: endOnView(axis) ?? 'top' });
        entry.dimensions.push(pcdId);
        break;
      }
      case 'fillet_radius': {
        const radius = num(e.radius_mm);
        if (radius === undefined) {
          entry.reason = 'unsupported_claim_kind';
          break;
        }
        entry.values_mm = [radius];
        const dim = radiusDimension(snapshot, radius, (e.convexity as 'convex' | 'concave' | 'any' | undefined) ?? 'any', id());
        if (!dim) entry.reason = filletFaces(snapshot, (e.convexity as 'convex' | 'concave' | 'any' | undefined) ?? 'any').some((f) => Math.abs((f.radius_mm ?? 0) - radius) <= TOL) ? 'not_seen_end_on' : 'geometry_not_found';
        else {
          dims.push(dim);
          entry.dimensions.push(dim.id);
        }
        break;
      }
      case 'face_angle_deg': {
        const angle = num(e.angle_deg);
        const direction = vec(e.edge_direction);
        if (angle === undefined || !direction) {
          entry.reason = 'unsupported_claim_kind';
          break;
        }
        entry.values_deg = [angle];
        const dim = angleDimension(snapshot, direction, angle, num(e.tolerance_deg) ?? TOL, id());
        if (!dim) entry.reason = endOnView(direction) ? 'geometry_not_found' : 'not_seen_end_on';
        else {
          dims.push(dim);
          entry.dimensions.push(dim.id);
        }
        break;
      }
      case 'hole_set':
      case 'linear_hole_pattern':
      case 'rectangular_hole_layout': {
        const diameter = num(e.diameter_mm);
        const bore = diameter === undefined ? undefined : bores.find((b) => Math.abs(b.diameter_mm - diameter) <= TOL);
        if (diameter === undefined) {
          entry.reason = 'unsupported_claim_kind';
          break;
        }
        // The pitches are shown by the holes' location chain (consecutive centres), linked below.
        entry.values_mm = [diameter, ...[e.pitch_mm, e.x_pitch_mm, e.y_pitch_mm].map(num).filter((v): v is number => v !== undefined)];
        if (!bore) entry.reason = 'geometry_not_found';
        else entry.dimensions.push(boreDimension(bore));
        break;
      }
      case 'hole_centre_distance': {
        const distance = num(e.distance_mm);
        entry.values_mm = distance === undefined ? [] : [distance];
        entry.reason = 'covered_by_other_dimension';
        break;
      }
      case 'coaxial': {
        const diameters = Array.isArray(e.diameters_mm) ? (e.diameters_mm as unknown[]).map(num).filter((v): v is number => v !== undefined) : [];
        entry.values_mm = diameters;
        entry.reason = 'covered_by_other_dimension';
        break;
      }
      default:
        entry.reason = 'unsupported_claim_kind';
    }
  }
  // Holes with a diameter dimension of their own (not on a pitch circle) are located from the datum edges.
  const located = [...boreDims].filter(([, dimId]) => dims.some((d) => d.id === dimId && d.kind === 'diameter' && !d.pattern));
  const locations = holeLocations(snapshot, located.map(([b]) => b), id);
  dims.push(...locations);
  for (const entry of entries) {
    if (entry.reason || entry.dimensions.length === 0) continue;
    const boresShown = located.filter(([, dimId]) => entry.dimensions.includes(dimId)).map(([b]) => b.axis.origin);
    const mine = locations.filter((l) => boresShown.some((o) => o === l.to));
    entry.dimensions.push(...mine.map((l) => l.id));
  }
  // Coaxial and other covering claims point at the dimensions that show their values.
  for (const entry of entries) {
    if (entry.reason !== 'covered_by_other_dimension') continue;
    const kinds = entry.claim_kind === 'hole_centre_distance' ? ['location'] : ['diameter'];
    entry.dimensions = entry.values_mm.flatMap((v) => dims.filter((d) => kinds.includes(d.kind) && Math.abs(d.value - v) <= TOL).map((d) => d.id).slice(0, 1));
    if (entry.dimensions.length < entry.values_mm.length) entry.reason = 'geometry_not_found';
  }
  for (const entry of entries) {
    const tolerance = toleranceOf(claims.find((c) => c.id === entry.claim_id));
    if (!tolerance || entry.reason) continue;
    for (const d of dims) if (entry.dimensions[0] === d.id && d.kind !== 'location') d.tolerance = tolerance;
  }
  return { dimensions: dims, claims: entries };
}
