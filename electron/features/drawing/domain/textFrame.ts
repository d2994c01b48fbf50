import type { Affine } from './geometry';

/**
 * Orientation of a text on the drawing plane: its baseline direction, whether it is seen from
 * behind (mirrored: "up" is 90° clockwise from the baseline instead of counter-clockwise), and
 * its width factor (glyph x scale relative to the height).
 */
export interface TextFrame {
  /** Degrees, counter-clockwise, of the baseline direction (the way the characters advance). */
  rotation: number;
  mirrored: boolean;
  widthFactor: number;
}

/** TEXT/ATTRIB generation flags (group 71). */
const BACKWARD = 2;
const UPSIDE_DOWN = 4;

/**
 * Frame of a TEXT/ATTRIB/ATTDEF in world coordinates from its OCS rotation, generation flags and
 * extrusion sign. Backward (2) reverses the baseline, upside down (4) the up direction; a
 * negative extrusion (210/220/230 = 0,0,−1) sees the OCS from below, which mirrors its x axis
 * (AutoCAD's arbitrary axis: OCS x = −WCS x). Extrusions tilted out of the plane are treated by
 * the sign of their z only (a plan view).
 */
export function textGenerationFrame(rotationDeg: number, flags: number, extrusionZ: number, widthFactor: number): TextFrame {
  const wf = widthFactor > 0 ? widthFactor : 1;
  if (!(flags & (BACKWARD | UPSIDE_DOWN)) && extrusionZ >= 0) return { rotation: rotationDeg, mirrored: false, widthFactor: wf };
  let rotation = rotationDeg;
  let mirrored = false;
  if (flags & BACKWARD) {
    rotation += 180;
    mirrored = !mirrored;
  }
  if (flags & UPSIDE_DOWN) mirrored = !mirrored;
  if (extrusionZ < 0) {
    rotation = 180 - rotation;
    mirrored = !mirrored;
  }
  return { rotation: normalizeDeg(rotation), mirrored, widthFactor: wf };
}

/**
 * Frame of an MTEXT from its baseline direction (WCS, or an OCS rotation: `directionIsWcs` false)
 * and extrusion sign: MTEXT's y axis is extrusion × x direction, so a negative extrusion mirrors it.
 */
export function mtextFrame(rotationDeg: number, directionIsWcs: boolean, extrusionZ: number): TextFrame {
  if (extrusionZ >= 0) return { rotation: rotationDeg, mirrored: false, widthFactor: 1 };
  return { rotation: normalizeDeg(directionIsWcs ? rotationDeg : 180 - rotationDeg), mirrored: true, widthFactor: 1 };
}

/**
 * A text frame moved through an affine map (a block insert, a viewport): the baseline and up
 * vectors are mapped, a map with a negative determinant (a mirrored insert) flips `mirrored`,
 * and a non-uniform scale changes the width factor. Returns the height scale too (the up
 * vector's length). AutoCAD draws text inside mirrored blocks mirrored whatever MIRRTEXT says
 * (MIRRTEXT only steers the MIRROR command), so no readability correction is made here.
 */
export function transformTextFrame(frame: TextFrame, m: Affine): { frame: TextFrame; heightScale: number } {
  const r = (frame.rotation * Math.PI) / 180;
  const d = { x: Math.cos(r), y: Math.sin(r) };
  const up = frame.mirrored ? { x: d.y, y: -d.x } : { x: -d.y, y: d.x };
  const u = { x: m[0] * d.x + m[2] * d.y, y: m[1] * d.x + m[3] * d.y };
  const v = { x: m[0] * up.x + m[2] * up.y, y: m[1] * up.x + m[3] * up.y };
  const lu = Math.hypot(u.x, u.y);
  const lv = Math.hypot(v.x, v.y);
  if (lu === 0 || lv === 0) return { frame, heightScale: 0 };
  const mirrored = u.x * v.y - u.y * v.x < 0;
  // Written as the old rotation plus the map's turn plus what is left, so a plain rotated or scaled
  // insert keeps the rotation values it always had (no wrap into [0, 360)).
  const base = frame.rotation + (Math.atan2(m[1], m[0]) * 180) / Math.PI;
  const rest = Math.round(wrap180((Math.atan2(u.y, u.x) * 180) / Math.PI - base) * 1e9) / 1e9;
  return { frame: { rotation: base + rest, mirrored, widthFactor: (frame.widthFactor * lu) / lv }, heightScale: lv };
}

/** Degrees in (−180, 180]. */
function wrap180(deg: number): number {
  const d = ((((deg + 180) % 360) + 360) % 360) - 180;
  return d === -180 ? 180 : d;
}

/** Degrees in [0, 360), with float noise near whole degrees removed (keeps get_texts values stable). */
function normalizeDeg(deg: number): number {
  const d = ((deg % 360) + 360) % 360;
  const rounded = Math.round(d * 1e9) / 1e9;
  return rounded >= 360 ? 0 : rounded;
}
