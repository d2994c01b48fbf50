/** Standard views of the 3D viewer. CAD documents are Z-up (the drawings' convention: front looks along +Y). */
export type ViewName = 'front' | 'top' | 'right' | 'iso';
export type Vec3 = readonly [number, number, number];

export const VIEW_NAMES: readonly ViewName[] = ['front', 'top', 'right', 'iso'];

const normalize = (v: Vec3): Vec3 => {
  const length = Math.hypot(v[0], v[1], v[2]);
  return [v[0] / length, v[1] / length, v[2] / length];
};

/**
 * Unit direction from the part's centre towards the camera. The camera's up stays +Z (the orbit
 * controls are built around it), so the top view leans a hair towards −Y: it then shows +X to the
 * right and +Y up, like the top view of a drawing, instead of an undefined roll.
 */
export const VIEW_DIRECTIONS: Readonly<Record<ViewName, Vec3>> = {
  front: [0, -1, 0],
  top: normalize([0, -1e-4, 1]),
  right: [1, 0, 0],
  iso: normalize([1, -1, 0.8]),
};

/**
 * The camera distance that frames points (relative to the centre) seen from `direction`, for a
 * perspective camera with vertical field of view `fovDeg` and `aspect` (width / height), up = +Z.
 */
export function framingDistance(points: Iterable<Vec3>, direction: Vec3, fovDeg: number, aspect: number): number {
  const forward: Vec3 = [-direction[0], -direction[1], -direction[2]];
  // right = forward × up(+Z), then the screen's up = right × forward.
  const right = normalize([forward[1], -forward[0], 0].every((c) => Math.abs(c) < 1e-12) ? [1, 0, 0] : [forward[1], -forward[0], 0]);
  const up: Vec3 = [right[1] * forward[2] - right[2] * forward[1], right[2] * forward[0] - right[0] * forward[2], right[0] * forward[1] - right[1] * forward[0]];
  const tanV = Math.tan((fovDeg * Math.PI) / 360);
  const tanH = tanV * aspect;
  const dot = (a: Vec3, b: Vec3): number => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
  let distance = 1e-6;
  for (const p of points) {
    const depth = dot(p, direction);
    distance = Math.max(distance, depth + Math.abs(dot(p, right)) / tanH, depth + Math.abs(dot(p, up)) / tanV);
  }
  return distance;
}
