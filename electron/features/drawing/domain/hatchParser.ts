import { arcPoints, ellipsePoints, splinePoints } from './geometry';
import type { Vec2 } from './model';
import type { TagView } from './tagView';
import { numberAt } from './tagView';

/**
 * Reads HATCH boundary paths as point loops (edges flattened). The boundary data is a counted
 * sequence; a cursor that only consumes expected codes keeps a damaged hatch from running past
 * its own tags. Loops that cannot be read are dropped, the rest is kept.
 */
export function readHatchLoops(view: TagView): Vec2[][] {
  const tags = view.tags;
  let i = view.indexOf(91);
  if (i < 0) return [];
  const take = (code: number): number | undefined => {
    if (i < view.end && tags.codes[i] === code) return numberAt(tags, i++);
    return undefined;
  };
  const takePoint = (code: number): Vec2 | undefined => {
    const x = take(code);
    const y = take(code + 10);
    return x === undefined || y === undefined ? undefined : { x, y };
  };
  const pathCount = take(91) ?? 0;
  const loops: Vec2[][] = [];
  for (let path = 0; path < pathCount && i < view.end; path++) {
    const flags = take(92);
    if (flags === undefined) break;
    const loop: Vec2[] = [];
    if ((flags & 2) !== 0) {
      const hasBulge = take(72) ?? 0;
      take(73);
      const count = take(93) ?? 0;
      const vertices: { x: number; y: number; bulge: number }[] = [];
      for (let v = 0; v < count; v++) {
        const p = takePoint(10);
        if (!p) break;
        vertices.push({ ...p, bulge: hasBulge ? (take(42) ?? 0) : 0 });
      }
      for (const v of vertices) loop.push({ x: v.x, y: v.y });
      if (vertices.length > 0) loop.push({ x: (vertices[0] as Vec2).x, y: (vertices[0] as Vec2).y });
    } else {
      const edges = take(93) ?? 0;
      for (let e = 0; e < edges && i < view.end; e++) {
        const edgeType = take(72);
        if (edgeType === undefined) break;
        loop.push(...readEdge(edgeType));
      }
    }
    // source boundary object references
    const sources = take(97) ?? 0;
    for (let s = 0; s < sources; s++) if (tags.codes[i] === 330) i++;
    if (loop.length > 1) loops.push(loop);
  }
  return loops;

  function readEdge(edgeType: number): Vec2[] {
    if (edgeType === 1) {
      const a = takePoint(10);
      const b = takePoint(11);
      return a && b ? [a, b] : [];
    }
    if (edgeType === 2) {
      const center = takePoint(10);
      const radius = take(40) ?? 0;
      const start = take(50) ?? 0;
      const end = take(51) ?? 360;
      const ccw = take(73) ?? 1;
      if (!center) return [];
      // Clockwise edges store complementary angles (360 - angle): swap them back to a CCW arc.
      return ccw ? arcPoints(center, radius, start, end) : arcPoints(center, radius, 360 - end, 360 - start).reverse();
    }
    if (edgeType === 3) {
      const center = takePoint(10);
      const major = takePoint(11);
      const ratio = take(40) ?? 1;
      const start = take(50) ?? 0;
      const end = take(51) ?? 360;
      const ccw = take(73) ?? 1;
      if (!center || !major) return [];
      const rad = Math.PI / 180;
      return ccw ? ellipsePoints(center, major, ratio, start * rad, end * rad) : ellipsePoints(center, major, ratio, (360 - end) * rad, (360 - start) * rad).reverse();
    }
    if (edgeType === 4) {
      const degree = take(94) ?? 3;
      take(73);
      take(74);
      const knotCount = take(95) ?? 0;
      const controlCount = take(96) ?? 0;
      const knots: number[] = [];
      for (let k = 0; k < knotCount; k++) {
        const knot = take(40);
        if (knot === undefined) break;
        knots.push(knot);
      }
      const control: Vec2[] = [];
      const weights: number[] = [];
      for (let c = 0; c < controlCount; c++) {
        const p = takePoint(10);
        if (!p) break;
        control.push(p);
        const w = take(42);
        if (w !== undefined) weights.push(w);
      }
      const fitCount = take(97) ?? 0;
      for (let f = 0; f < fitCount; f++) takePoint(11);
      takePoint(12);
      takePoint(13);
      return splinePoints(degree, control, knots, weights);
    }
    return [];
  }
}
