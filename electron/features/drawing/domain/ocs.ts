import type { Vec2 } from './model';

export interface Vec3 {
  x: number;
  y: number;
  z: number;
}

/** OCS axes of an extrusion: x, y and the unit normal z, all in WCS. */
export interface OcsAxes {
  ax: Vec3;
  ay: Vec3;
  az: Vec3;
}

/** Below this |Nx| and |Ny| the arbitrary-axis algorithm crosses with WCS Y instead of WCS Z. */
const ARBITRARY_AXIS_LIMIT = 1 / 64;

const cross = (a: Vec3, b: Vec3): Vec3 => ({ x: a.y * b.z - a.z * b.y, y: a.z * b.x - a.x * b.z, z: a.x * b.y - a.y * b.x });
const unit = (a: Vec3): Vec3 => {
  const length = Math.hypot(a.x, a.y, a.z);
  return { x: a.x / length, y: a.y / length, z: a.z / length };
};

/**
 * The DXF arbitrary-axis algorithm: the OCS of an entity whose extrusion (210/220/230) is `n`.
 * A zero or non-finite extrusion is read as the default (0,0,1), as AutoCAD does.
 */
export function arbitraryAxis(n: Vec3): OcsAxes {
  const length = Math.hypot(n.x, n.y, n.z);
  if (!Number.isFinite(length) || length < 1e-12) return { ax: { x: 1, y: 0, z: 0 }, ay: { x: 0, y: 1, z: 0 }, az: { x: 0, y: 0, z: 1 } };
  const az = unit(n);
  const ax = unit(Math.abs(az.x) < ARBITRARY_AXIS_LIMIT && Math.abs(az.y) < ARBITRARY_AXIS_LIMIT ? cross({ x: 0, y: 1, z: 0 }, az) : cross({ x: 0, y: 0, z: 1 }, az));
  return { ax, ay: unit(cross(az, ax)), az };
}

/** WCS point of the OCS point (x, y, z). */
export function ocsToWcs(axes: OcsAxes, p: Vec3): Vec3 {
  const { ax, ay, az } = axes;
  return { x: p.x * ax.x + p.y * ay.x + p.z * az.x, y: p.x * ax.y + p.y * ay.y + p.z * az.y, z: p.x * ax.z + p.y * ay.z + p.z * az.z };
}

/**
 * Plan (top) view of an OCS plane at elevation `z`: the 2D affine map OCS (x, y) → WCS (x, y),
 * as `[a, b, c, d, e, f]` with x' = a·x + b·y + e, y' = c·x + d·y + f.
 */
export type PlanMap = readonly [number, number, number, number, number, number];

export function planMap(axes: OcsAxes, elevation: number): PlanMap {
  const { ax, ay, az } = axes;
  return [ax.x, ay.x, ax.y, ay.y, elevation * az.x, elevation * az.y];
}

export function applyPlan(m: PlanMap, p: Vec2): Vec2 {
  return { x: m[0] * p.x + m[1] * p.y + m[4], y: m[2] * p.x + m[3] * p.y + m[5] };
}

/** The linear part only (directions, axis vectors). */
export function applyPlanLinear(m: PlanMap, p: Vec2): Vec2 {
  return { x: m[0] * p.x + m[1] * p.y, y: m[2] * p.x + m[3] * p.y };
}

/** True when the plan map mirrors (the OCS is seen from below): bulges and arc directions flip. */
export function planMirrors(m: PlanMap): boolean {
  return m[0] * m[3] - m[1] * m[2] < 0;
}

/** True when the plan map keeps lengths (the OCS plane is parallel to the WCS XY plane). */
export function planIsRigid(m: PlanMap): boolean {
  return Math.abs(Math.abs(m[0] * m[3] - m[1] * m[2]) - 1) < 1e-9;
}

/** The identity extrusion (0,0,1) needs no mapping. */
export function isDefaultExtrusion(n: Vec3): boolean {
  return n.x === 0 && n.y === 0 && n.z === 1;
}

export interface PlanEllipse {
  center: Vec2;
  majorAxis: Vec2;
  ratio: number;
  startParam: number;
  endParam: number;
}

/**
 * The ellipse arc p(t) = c + u·cos t + v·sin t, t from `start` to `end` (radians), written as a
 * counter-clockwise ELLIPSE in the WCS XY plane (the plan view of a tilted circle or ellipse).
 */
export function ellipseFromConjugate(c: Vec2, u: Vec2, v: Vec2, start: number, end: number): PlanEllipse {
  const t0 = 0.5 * Math.atan2(2 * (u.x * v.x + u.y * v.y), u.x * u.x + u.y * u.y - (v.x * v.x + v.y * v.y));
  const at = (t: number): Vec2 => ({ x: u.x * Math.cos(t) + v.x * Math.sin(t), y: u.y * Math.cos(t) + v.y * Math.sin(t) });
  let major = at(t0);
  let minor = at(t0 + Math.PI / 2);
  if (Math.hypot(minor.x, minor.y) > Math.hypot(major.x, major.y)) [major, minor] = [minor, major];
  const a = Math.hypot(major.x, major.y);
  const b = Math.hypot(minor.x, minor.y);
  const param = (t: number): number => {
    const d = at(t);
    // direction of the minor axis of a counter-clockwise ellipse: major turned by +90°
    return Math.atan2((-major.y * d.x + major.x * d.y) / (a * (b || 1)), (major.x * d.x + major.y * d.y) / (a * a));
  };
  const full = Math.abs(end - start) >= 2 * Math.PI - 1e-12;
  const mirrored = u.x * v.y - u.y * v.x < 0;
  let startParam = full ? 0 : param(mirrored ? end : start);
  let endParam = full ? 2 * Math.PI : param(mirrored ? start : end);
  if (!full && endParam <= startParam) endParam += 2 * Math.PI;
  if (startParam < 0 && !full) {
    startParam += 2 * Math.PI;
    endParam += 2 * Math.PI;
  }
  return { center: c, majorAxis: major, ratio: a > 0 ? b / a : 1, startParam, endParam };
}
