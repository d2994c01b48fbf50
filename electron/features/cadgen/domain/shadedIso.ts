import { textPath, textWidth } from './drawingLettering';
import { VIEW_CAMERAS } from './drawingViews';
import { formatMm } from './drawingSvg';
import type { TopologySnapshot } from './topology';
import { dot, normalize } from './vec3';
import type { Vec3 } from './vec3';

/** Triangles of one face (flat xyz lists, outward vertex normals), as the kernel tessellated it. */
export interface ShadedFaceMesh {
  positions: number[];
  normals: number[];
  indices: number[];
}

/** Grey levels of the shading: few enough that a 16-colour palette PNG keeps every one of them. */
const SHADES = 12;
/** Light from over the viewer's left shoulder, so the three visible sides of a box differ in grey. */
const LIGHT = normalize([-0.2, -0.55, 0.8]) as Vec3;

const n = (v: number): string => String(Math.round(v * 1000) / 1000);

function grey(level: number): string {
  const value = Math.round(95 + (level / (SHADES - 1)) * 150);
  const hex = value.toString(16).padStart(2, '0');
  return `#${hex}${hex}${hex}`;
}

/**
 * The isometric view shaded, for the reviewer: front-facing triangles drawn back to front in
 * SHADES flat greys (Lambert light), the kernel's hidden-line-removed visible edges on top in
 * black, and the overall size as lettering. Same drawing coordinates as the line views
 * (x = p · x_axis, y = −p · y_axis), so `visibleEdges` are the iso ProjectionView's paths.
 */
export function shadedIsoSvg(meshes: readonly ShadedFaceMesh[], visibleEdges: readonly string[], snapshot: TopologySnapshot): string {
  const camera = VIEW_CAMERAS.iso;
  const triangles: { depth: number; level: number; d: string }[] = [];
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  for (const mesh of meshes) {
    const point = (i: number): Vec3 => [mesh.positions[3 * i] as number, mesh.positions[3 * i + 1] as number, mesh.positions[3 * i + 2] as number];
    const normal = (i: number): Vec3 => [mesh.normals[3 * i] as number, mesh.normals[3 * i + 1] as number, mesh.normals[3 * i + 2] as number];
    for (let t = 0; t + 2 < mesh.indices.length; t += 3) {
      const ids = [mesh.indices[t] as number, mesh.indices[t + 1] as number, mesh.indices[t + 2] as number];
      const summed = ids.map(normal).reduce<Vec3>((a, b) => [a[0] + b[0], a[1] + b[1], a[2] + b[2]], [0, 0, 0]);
      const facing = normalize(summed);
      // Back faces are hidden by the solid itself; culling them keeps the painter's order honest.
      if (!facing || dot(facing, camera.toward_viewer) <= 0) continue;
      const points = ids.map(point);
      const xy = points.map((p) => [dot(p, camera.x_axis), -dot(p, camera.y_axis)] as const);
      for (const [x, y] of xy) {
        minX = Math.min(minX, x);
        maxX = Math.max(maxX, x);
        minY = Math.min(minY, y);
        maxY = Math.max(maxY, y);
      }
      const depth = points.reduce((sum, p) => sum + dot(p, camera.toward_viewer), 0) / 3;
      const level = Math.min(SHADES - 1, Math.round(Math.max(0, dot(facing, LIGHT)) * (SHADES - 1)));
      triangles.push({ depth, level, d: `M${n(xy[0]![0])} ${n(xy[0]![1])}L${n(xy[1]![0])} ${n(xy[1]![1])}L${n(xy[2]![0])} ${n(xy[2]![1])}Z` });
    }
  }
  if (triangles.length === 0) {
    minX = minY = 0;
    maxX = maxY = 1;
  }
  triangles.sort((a, b) => a.depth - b.depth);
  // Consecutive triangles of one grey share a path: far fewer elements, same painter's order.
  const runs: { level: number; d: string[] }[] = [];
  for (const t of triangles) {
    const last = runs[runs.length - 1];
    if (last && last.level === t.level) last.d.push(t.d);
    else runs.push({ level: t.level, d: [t.d] });
  }
  const size = Math.max(maxX - minX, maxY - minY, 1e-3);
  const text = size * 0.035;
  const box = snapshot.measurements.bbox;
  const e = box.max.map((v, k) => v - (box.min[k] as number));
  const overall = `${formatMm(e[0] as number)} × ${formatMm(e[1] as number)} × ${formatMm(e[2] as number)} (X × Y × Z)`;
  const title = `ISOMETRIC VIEW · SHADED · FROM ${camera.from}`;
  const centreX = (minX + maxX) / 2;
  const overallY = maxY + text * 2;
  const titleY = overallY + text * 2.2;
  const pad = text;
  const halfText = Math.max(textWidth(overall, text), textWidth(title, text * 1.1)) / 2;
  const left = Math.min(minX, centreX - halfText) - pad;
  const right = Math.max(maxX, centreX + halfText) + pad;
  const vb = [left, minY - pad, right - left, titleY + text * 0.6 + pad - (minY - pad)].map(n);
  // A hairline stroke in the fill colour closes the anti-aliasing seams between triangles.
  const faces = runs.map((r) => `<path d="${r.d.join('')}" fill="${grey(r.level)}" stroke="${grey(r.level)}" stroke-width="${n(size / 900)}"/>`).join('');
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="${vb.join(' ')}" width="${vb[2]}mm" height="${vb[3]}mm">`,
    `<rect x="${vb[0]}" y="${vb[1]}" width="${vb[2]}" height="${vb[3]}" fill="white"/>`,
    `<g stroke-linejoin="round">${faces}</g>`,
    `<g fill="none" stroke="black" stroke-linecap="round" stroke-linejoin="round" stroke-width="${n(size / 300)}">${visibleEdges.map((d) => `<path d="${d}"/>`).join('')}</g>`,
    `<g fill="none" stroke="#1f4fbf" stroke-linecap="round" stroke-width="${n(text / 9)}"><path d="${textPath(overall, centreX, overallY, text, 'middle')}${textPath(title, centreX, titleY, text * 1.1, 'middle')}"/></g>`,
    `<title>Isometric view, shaded, from ${camera.from}</title><desc>${overall}</desc></svg>`,
  ].join('');
}
