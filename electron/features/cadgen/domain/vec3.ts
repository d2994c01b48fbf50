/** Small 3D vector helpers shared by preflights, verifiers and the kernel adapter (pure). */
export type Vec3 = readonly [number, number, number];

export const add = (a: Vec3, b: Vec3): Vec3 => [a[0] + b[0], a[1] + b[1], a[2] + b[2]];
export const sub = (a: Vec3, b: Vec3): Vec3 => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
export const scale = (a: Vec3, k: number): Vec3 => [a[0] * k, a[1] * k, a[2] * k];
export const dot = (a: Vec3, b: Vec3): number => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
export const cross = (a: Vec3, b: Vec3): Vec3 => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
export const norm = (a: Vec3): number => Math.sqrt(dot(a, a));

/** Unit vector, or null for a (near) zero vector so callers must handle the degenerate case. */
export function normalize(a: Vec3): Vec3 | null {
  const n = norm(a);
  return n < 1e-12 ? null : scale(a, 1 / n);
}

/** Distance from point p to the infinite line through `origin` with unit `direction`. */
export function distanceToLine(p: Vec3, origin: Vec3, direction: Vec3): number {
  const d = sub(p, origin);
  return norm(sub(d, scale(direction, dot(d, direction))));
}

/** True when unit vectors a and b are parallel or anti-parallel within `angleTolRad`. */
export function parallel(a: Vec3, b: Vec3, angleTolRad = 1e-6): boolean {
  return norm(cross(a, b)) <= Math.sin(angleTolRad) + 1e-12;
}

/** Rounds every component so signatures are stable across floating-point noise. */
export function quantize(a: Vec3, step: number): Vec3 {
  const q = (v: number): number => {
    const r = Math.round(v / step) * step;
    return Object.is(r, -0) ? 0 : Number(r.toFixed(9));
  };
  return [q(a[0]), q(a[1]), q(a[2])];
}
