import type { DrawingIndex } from '../../domain/dxf/bounds';
import { MTEXT_LINE_PITCH } from '../../domain/dxf/bounds';
import { boxesIntersect } from '../../domain/dxf/geometry';
import type { Box } from '../../domain/dxf/model';
import { layoutByName } from '../../domain/dxf/queries';
import type { Primitive, ResolvedColor } from '../../domain/dxf/world';
import { aciToRgb, cssColorOnWhite } from './aciColors';

/** Noto Sans CJK cap height is ~0.73 em; DXF text height is the cap height. */
const EM_PER_CAP = 1.37;
/** Texts smaller than this many pixels are unreadable anyway and cost render time. */
const MIN_TEXT_PX = 2;

export interface SvgView {
  svg: string;
  width: number;
  height: number;
  pixelsPerUnit: number;
}

function escapeXml(text: string): string {
  return text.replace(/[<>&"]/g, (c) => (c === '<' ? '&lt;' : c === '>' ? '&gt;' : c === '&' ? '&amp;' : '&quot;'));
}

function colorOf(c: ResolvedColor): string {
  return cssColorOnWhite(c.rgb ?? aciToRgb(c.aci));
}

/** Builds the SVG of a layout region: paths grouped by colour, texts as SVG text with the CJK font. */
export function buildSvg(index: DrawingIndex, layoutName: string, bbox: Box, maxEdge: number, highlight: Box[], fontFamily: string): SvgView {
  const w = bbox.maxX - bbox.minX;
  const h = bbox.maxY - bbox.minY;
  const s = maxEdge / Math.max(w, h);
  const width = Math.max(1, Math.round(w * s));
  const height = Math.max(1, Math.round(h * s));
  const px = (x: number): string => ((x - bbox.minX) * s).toFixed(1);
  const py = (y: number): string => ((bbox.maxY - y) * s).toFixed(1);
  const strokes = new Map<string, string[]>();
  const fills = new Map<string, string[]>();
  const texts: string[] = [];
  const layout = layoutByName(index, layoutName);
  for (const entity of layout.entities) {
    if (!boxesIntersect(index.box(entity), bbox)) continue;
    for (const p of index.primitives(entity, true)) addPrimitive(p);
  }
  function addPrimitive(p: Primitive): void {
    const color = colorOf(p.color);
    if (p.kind === 'path') {
      const d = `M${p.points.map((q) => `${px(q.x)} ${py(q.y)}`).join('L')}${p.closed ? 'Z' : ''}`;
      const target = p.filled ? fills : strokes;
      const list = target.get(color);
      if (list) list.push(d);
      else target.set(color, [d]);
      return;
    }
    const size = p.height * s;
    if (size < MIN_TEXT_PX) return;
    const lines = p.text.split('\n');
    const pitch = size * MTEXT_LINE_PITCH;
    const block = size + (lines.length - 1) * pitch;
    // baseline of the first line relative to the anchor, y down
    const firstBaseline = p.vAlign === 3 ? size : p.vAlign === 2 ? size - block / 2 : p.vAlign === 1 ? size - block : -(lines.length - 1) * pitch;
    const anchor = p.hAlign === 1 ? 'middle' : p.hAlign === 2 ? 'end' : 'start';
    const x = px(p.at.x);
    const y = py(p.at.y);
    const spans = lines.map((line, i) => `<tspan x="${x}" y="${(Number(y) + firstBaseline + i * pitch).toFixed(1)}">${escapeXml(line)}</tspan>`).join('');
    texts.push(`<text font-size="${(size * EM_PER_CAP).toFixed(1)}" fill="${color}" text-anchor="${anchor}"${p.rotation ? ` transform="rotate(${(-p.rotation).toFixed(2)} ${x} ${y})"` : ''}>${spans}</text>`);
  }
  const parts = [`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">`, `<rect width="100%" height="100%" fill="#ffffff"/>`];
  for (const [color, ds] of fills) parts.push(`<path d="${ds.join('')}" fill="${color}" stroke="${color}" stroke-width="0.5"/>`);
  for (const [color, ds] of strokes) parts.push(`<path d="${ds.join('')}" fill="none" stroke="${color}" stroke-width="1" stroke-linejoin="round" stroke-linecap="round"/>`);
  parts.push(`<g font-family="${escapeXml(fontFamily)}">${texts.join('')}</g>`);
  for (const hb of highlight) parts.push(`<rect x="${px(hb.minX)}" y="${py(hb.maxY)}" width="${((hb.maxX - hb.minX) * s).toFixed(1)}" height="${((hb.maxY - hb.minY) * s).toFixed(1)}" fill="none" stroke="#ff0000" stroke-width="3"/>`);
  parts.push('</svg>');
  return { svg: parts.join(''), width, height, pixelsPerUnit: s };
}
