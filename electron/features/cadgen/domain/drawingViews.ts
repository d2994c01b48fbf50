import type { Vec3 } from './vec3';

/**
 * Orthographic projection method. First angle (GB/T 4458.1, ISO 128-30 method E) is the default:
 * the top view sits below the front view and the view from the left sits to its right. Third angle
 * (ISO method A, ASME) puts the top view above and the view from the right to the right.
 */
export type ProjectionMethod = 'first_angle' | 'third_angle';
export const DEFAULT_PROJECTION_METHOD: ProjectionMethod = 'first_angle';

/** Views are named by the side they look from: "left" looks from −X towards +X. */
export type ProjectionViewName = 'front' | 'top' | 'left' | 'right' | 'iso';

/**
 * A parallel-projection camera in model coordinates (Z up, front = the −Y side). `toward_viewer`
 * points from the part to the eye; `x_axis`/`y_axis` are the drawing's right and up directions.
 */
export interface ViewCamera {
  view: ProjectionViewName;
  toward_viewer: Vec3;
  x_axis: Vec3;
  y_axis: Vec3;
  /** Where the eye is, for labels ("from −Y"). */
  from: string;
}

const s2 = Math.SQRT1_2;
const s3 = 1 / Math.sqrt(3);
const s6 = 1 / Math.sqrt(6);

export const VIEW_CAMERAS: Readonly<Record<ProjectionViewName, ViewCamera>> = {
  front: { view: 'front', toward_viewer: [0, -1, 0], x_axis: [1, 0, 0], y_axis: [0, 0, 1], from: '−Y' },
  top: { view: 'top', toward_viewer: [0, 0, 1], x_axis: [1, 0, 0], y_axis: [0, 1, 0], from: '+Z' },
  left: { view: 'left', toward_viewer: [-1, 0, 0], x_axis: [0, -1, 0], y_axis: [0, 0, 1], from: '−X' },
  right: { view: 'right', toward_viewer: [1, 0, 0], x_axis: [0, 1, 0], y_axis: [0, 0, 1], from: '+X' },
  // Isometric from the front-right-top octant (+X, −Y, +Z), Z drawn upwards.
  iso: { view: 'iso', toward_viewer: [s3, -s3, s3], x_axis: [s2, s2, 0], y_axis: [-s6, s6, 2 * s6], from: '+X −Y +Z' },
};

/** The views drawn for a method: front, top, the side view the method places right of the front, iso. */
export function viewsFor(method: ProjectionMethod): ProjectionViewName[] {
  return ['front', 'top', method === 'first_angle' ? 'left' : 'right', 'iso'];
}
