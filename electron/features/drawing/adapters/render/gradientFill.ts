import type { SKRSContext2D } from '@napi-rs/canvas';
import type { Vec2 } from '../../domain/model';
import type { Primitive, ResolvedColor } from '../../domain/world';
import { aciToRgb, cssColorOnWhite } from './aciColors';

type PathPrimitive = Extract<Primitive, { kind: 'path' }>;

const css = (rgb: number): string => `#${(rgb & 0xffffff).toString(16).padStart(6, '0')}`;

/** The second colour of a one-colour gradient: the first shaded towards black (tint 0) or white (tint 1). */
function tinted(c: ResolvedColor, tint: number): string {
  const rgb = c.rgb ?? aciToRgb(c.aci);
  const t = Math.min(1, Math.max(0, tint));
  const channel = (v: number): number => Math.round(t >= 0.5 ? v + (255 - v) * (t - 0.5) * 2 : v * t * 2);
  return css((channel((rgb >> 16) & 0xff) << 16) | (channel((rgb >> 8) & 0xff) << 8) | channel(rgb & 0xff));
}

/**
 * Fills gradient HATCH outlines (pixel coordinates through px/py), one canvas gradient per
 * outline across its own extent: LINEAR and CURVED blend along the gradient angle, CYLINDER has
 * the second colour in the middle (INV*: swapped), SPHERICAL/HEMISPHERICAL blend radially from
 * the centre (or from the side the angle points away from when shifted).
 */
export function drawGradientFills(ctx: SKRSContext2D, list: PathPrimitive[], px: (x: number) => number, py: (y: number) => number): void {
  for (const p of list) {
    const g = p.gradient;
    if (!g || p.points.length < 3) continue;
    const pts: Vec2[] = p.points.map((q) => ({ x: px(q.x), y: py(q.y) }));
    const xs = pts.map((q) => q.x);
    const ys = pts.map((q) => q.y);
    const [minX, maxX, minY, maxY] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
    const cx = (minX + maxX) / 2;
    const cy = (minY + maxY) / 2;
    const radius = Math.max(1, Math.hypot(maxX - minX, maxY - minY) / 2);
    const first = cssColorOnWhite((g.colors[0] as ResolvedColor).rgb ?? aciToRgb((g.colors[0] as ResolvedColor).aci));
    const second = g.tint !== undefined ? tinted(g.colors[0] as ResolvedColor, g.tint) : cssColorOnWhite((g.colors[1] ?? (g.colors[0] as ResolvedColor)).rgb ?? aciToRgb((g.colors[1] ?? (g.colors[0] as ResolvedColor)).aci));
    const name = g.name.replace(/^GR_/, '');
    const inverse = name.startsWith('INV');
    const [a, b] = inverse ? [second, first] : [first, second];
    // pixel y runs down: the drawing's counter-clockwise angle is clockwise on the canvas
    const ux = Math.cos(g.angle);
    const uy = -Math.sin(g.angle);
    const shift = g.shift ? radius / 2 : 0;
    let fill;
    if (name.endsWith('SPHERICAL') || name.endsWith('HEMISPHERICAL')) {
      const fx = cx - ux * (shift + (name.endsWith('HEMISPHERICAL') ? radius / 2 : 0));
      const fy = cy - uy * (shift + (name.endsWith('HEMISPHERICAL') ? radius / 2 : 0));
      fill = ctx.createRadialGradient(fx, fy, 0, fx, fy, radius * 1.2);
      fill.addColorStop(0, b);
      fill.addColorStop(1, a);
    } else {
      fill = ctx.createLinearGradient(cx - ux * radius, cy - uy * radius, cx + ux * radius, cy + uy * radius);
      if (name.endsWith('CYLINDER')) {
        fill.addColorStop(0, a);
        fill.addColorStop(0.5, b);
        fill.addColorStop(1, a);
      } else {
        fill.addColorStop(0, a);
        fill.addColorStop(Math.min(0.9, 0.5 + (g.shift ? 0.25 : 0)), name.endsWith('CURVED') ? b : mid(a, b));
        fill.addColorStop(1, b);
      }
    }
    ctx.beginPath();
    pts.forEach((q, i) => (i === 0 ? ctx.moveTo(q.x, q.y) : ctx.lineTo(q.x, q.y)));
    ctx.closePath();
    ctx.fillStyle = fill;
    ctx.fill();
  }
}

/** The halfway colour of two #rrggbb colours (a linear blend's middle stop). */
function mid(a: string, b: string): string {
  const x = Number.parseInt(a.slice(1), 16);
  const y = Number.parseInt(b.slice(1), 16);
  const c = (shift: number): number => Math.round((((x >> shift) & 0xff) + ((y >> shift) & 0xff)) / 2);
  return css((c(16) << 16) | (c(8) << 8) | c(0));
}
