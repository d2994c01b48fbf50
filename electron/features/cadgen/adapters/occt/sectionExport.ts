import type { Shape3D } from 'replicad';
import { VIEW_CAMERAS } from '../../domain/drawingViews';
import type { SectionView } from '../../ports/cadRuntime';
import type { Arena } from './arena';
import type { Kernel } from './kernel';

/** Points per curved edge of a cut face's boundary (a hatch boundary is a polygon). */
const CURVE_SAMPLES = 32;
const PLANE_TOL = 1e-6;

/**
 * A full section seen from the front (GB/T 4458.6): the body is cut by the plane y = `planeY`,
 * the half towards the viewer (−Y) removed, and the rest projected with the front camera; the cut
 * faces (planar, normal −Y, on the plane) are returned as boundary loops (outer first, then holes)
 * in front-view drawing coordinates (x, z) for hatching. Curved boundary edges are sampled.
 */
export function exportSection(kernel: Kernel, arena: Arena, body: Shape3D, planeY: number): SectionView {
  const bb = body.boundingBox;
  arena.track(bb);
  const [[x0, y0, z0], [x1, , z1]] = bb.bounds;
  const pad = 1 + Math.max(x1 - x0, z1 - z0);
  const knife = arena.track(kernel.r.makeBox([x0 - pad, y0 - pad, z0 - pad], [x1 + pad, planeY, z1 + pad]));
  const half = arena.track(body.clone().cut(knife));
  kernel.oc.BRepLib.EncodeRegularity(half.wrapped, 1e-10);
  const camera = VIEW_CAMERAS.front;
  const projector = arena.track(new kernel.r.ProjectionCamera([0, 0, 0], [...camera.toward_viewer], [...camera.x_axis]));
  const { visible } = kernel.r.drawProjection(half, projector);
  arena.track(visible);
  const faces: number[][][] = [];
  for (const face of half.faces) {
    const planar = face.geomType === 'PLANE';
    const normal = planar ? arena.track(face.normalAt()) : undefined;
    const centre = planar ? arena.track(face.center) : undefined;
    if (!normal || !centre || Math.abs(normal.y + 1) > PLANE_TOL || Math.abs(centre.y - planeY) > 1e-5) {
      arena.track(face);
      continue;
    }
    // replicad's innerWires() and outerWire() both delete the face they are called on.
    const inner = face.clone().innerWires();
    const loops: number[][] = [];
    for (const wire of [face.outerWire(), ...inner]) {
      arena.track(wire);
      const pieces: [number, number][][] = [];
      for (const edge of wire.edges) {
        arena.track(edge);
        const n = edge.geomType === 'LINE' ? 1 : CURVE_SAMPLES;
        const pts: [number, number][] = [];
        for (let i = 0; i <= n; i++) {
          const p = arena.track(edge.pointAt(i / n));
          pts.push([p.x, p.z]);
        }
        pieces.push(pts);
      }
      loops.push(chainLoop(pieces));
    }
    faces.push(loops);
  }
  const flatten = (paths: string[] | string[][]): string[] => (paths as (string | string[])[]).flat();
  return { plane_y: planeY, visible: flatten(visible.toSVGPaths()), faces };
}

/**
 * Joins edge polylines into one closed loop by their shared ends (a wire's edges need not run
 * in the wire's direction): flat [x, z, …] without the closing repeat.
 */
function chainLoop(pieces: [number, number][][]): number[] {
  const rest = pieces.slice(1);
  const loop = [...(pieces[0] ?? [])];
  const d = (a: [number, number], b: [number, number]): number => Math.hypot(a[0] - b[0], a[1] - b[1]);
  while (rest.length > 0) {
    const end = loop[loop.length - 1] as [number, number];
    let best = 0;
    let reverse = false;
    let gap = Infinity;
    rest.forEach((piece, i) => {
      const head = d(piece[0] as [number, number], end);
      const tail = d(piece[piece.length - 1] as [number, number], end);
      if (head < gap) [gap, best, reverse] = [head, i, false];
      if (tail < gap) [gap, best, reverse] = [tail, i, true];
    });
    const next = rest.splice(best, 1)[0] as [number, number][];
    loop.push(...(reverse ? [...next].reverse() : next).slice(1));
  }
  if (loop.length > 1 && d(loop[0] as [number, number], loop[loop.length - 1] as [number, number]) < 1e-7) loop.pop();
  return loop.flat();
}
