import type { DrawingIndex } from '../../domain/bounds';
import { MTEXT_LINE_PITCH } from '../../domain/bounds';
import type { Box } from '../../domain/model';
import { layoutByName } from '../../domain/queries';
import type { Primitive, ResolvedColor } from '../../domain/world';
import { aciToRgb, cssColorOnWhite } from './aciColors';
import type { GlyphOutliner } from './glyphOutliner';

/** Texts smaller than this many pixels are unreadable anyway and cost render time. */
const MIN_TEXT_PX = 2;

export interface SvgView {
  svg: string;
  width: number;
  height: number;
  pixelsPerUnit: number;
}

function colorOf(c: ResolvedColor): string {
  return cssColorOnWhite(c.rgb ?? aciToRgb(c.aci));
}

/** Builds the SVG of a layout region: paths grouped by colour, texts as glyph outlines of the CJK font. */
export function buildSvg(index: DrawingIndex, layoutName: string, bbox: Box, maxEdge: number, highlight: Box[], outliner: GlyphOutliner, hiddenLayers?: ReadonlySet<string>): SvgView {
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
  const glyphIds = new Set<number>();
  const layout = layoutByName(index, layoutName);
  for (const entity of index.entitiesIn(layout, bbox)) for (const p of index.primitives(entity, true)) addPrimitive(p);
  function addPrimitive(p: Primitive): void {
    if (hiddenLayers?.has(p.layer.toUpperCase())) return;
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
    // baseline of the first line below the anchor (y down): top, middle, bottom, baseline
    const firstBaseline = p.vAlign === 3 ? size : p.vAlign === 2 ? size - block / 2 : p.vAlign === 1 ? size - block : -(lines.length - 1) * pitch;
    const k = size / outliner.capHeight;
    const uses: string[] = [];
    lines.forEach((line, i) => {
      const laid = outliner.layout(line);
      const shift = p.hAlign === 1 ? -laid.width / 2 : p.hAlign === 2 ? -laid.width : 0;
      const baseline = -(firstBaseline + i * pitch) / k; // font units, y up
      for (const g of laid.glyphs) {
        glyphIds.add(g.id);
        uses.push(`<use href="#g${g.id}" x="${(g.x + shift).toFixed(0)}" y="${baseline.toFixed(0)}"/>`);
      }
    });
    texts.push(`<g fill="${color}" transform="translate(${px(p.at.x)} ${py(p.at.y)})${p.rotation ? ` rotate(${(-p.rotation).toFixed(2)})` : ''} scale(${k.toPrecision(5)} ${(-k).toPrecision(5)})">${uses.join('')}</g>`);
  }
  const parts = [`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">`, `<rect width="100%" height="100%" fill="#ffffff"/>`];
  for (const [color, ds] of fills) parts.push(`<path d="${ds.join('')}" fill="${color}" stroke="${color}" stroke-width="0.5"/>`);
  for (const [color, ds] of strokes) parts.push(`<path d="${ds.join('')}" fill="none" stroke="${color}" stroke-width="1" stroke-linejoin="round" stroke-linecap="round"/>`);
  parts.push(`<defs>${[...glyphIds].map((id) => `<path id="g${id}" d="${outliner.outline(id)}"/>`).join('')}</defs>`, ...texts);
  for (const hb of highlight) parts.push(`<rect x="${px(hb.minX)}" y="${py(hb.maxY)}" width="${((hb.maxX - hb.minX) * s).toFixed(1)}" height="${((hb.maxY - hb.minY) * s).toFixed(1)}" fill="none" stroke="#ff0000" stroke-width="3"/>`);
  parts.push('</svg>');
  return { svg: parts.join(''), width, height, pixelsPerUnit: s };
}
