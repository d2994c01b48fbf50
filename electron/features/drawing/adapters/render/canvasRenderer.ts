import { existsSync, readFileSync } from 'node:fs';
import { createCanvas, GlobalFonts, PDFDocument, type SKRSContext2D } from '@napi-rs/canvas';
import type { DrawingIndex } from '../../domain/bounds';
import type { Box, Vec2 } from '../../domain/model';
import { layoutScene, type ScenePart } from '../../domain/scene';
import type { Primitive, ResolvedColor } from '../../domain/world';
import { AppError } from '../../../../../shared/errors';
import type { DxfScreenshotRenderer } from '../../ports/drawingRenderer';
import { aciToRgb, cssColorOnWhite } from './aciColors';
import { drawGradientFills } from './gradientFill';
import { encodePng } from './pngEncoder';
import { loadTextFont, TextFont } from './textFont';
import { compositeTexts, GlyphMasks, maskable } from './glyphMasks';
import { drawGreeked, drawTexts } from './textPainter';

/** Where Debian/Ubuntu (fonts-noto-cjk) and Fedora put the Noto CJK collections. */
export const DEFAULT_CJK_FONT_FILES = [
  '/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc',
  '/usr/share/fonts/noto-cjk/NotoSansCJK-Regular.ttc',
  '/usr/share/fonts/google-noto-cjk/NotoSansCJK-Regular.ttc',
  '/usr/share/fonts/opentype/noto/NotoSerifCJK-Regular.ttc',
];
/** The Simplified Chinese face of the collection (Chinese drawings are the main audience). */
const CJK_FACE = 'NotoSansCJKsc-Regular';
/** The sheet colour (WIPEOUT masks are filled with it). */
const BACKGROUND = '#ffffff';
/** Texts smaller than this many pixels are unreadable anyway and cost render time. */
const MIN_TEXT_PX = 2;

type TextPrimitive = Extract<Primitive, { kind: 'text' }>;

/** Pixel mapping of one picture: drawing (x, y) → pixel (px, py), y down. */
interface View {
  bbox: Box;
  s: number;
  /** Pixels per plotted millimetre, for lineweights. */
  pxPerMm: number;
  width: number;
  height: number;
}

function colorOf(c: ResolvedColor): string {
  return cssColorOnWhite(c.rgb ?? aciToRgb(c.aci));
}

/**
 * Screenshot renderer drawing straight onto a @napi-rs/canvas (Skia) 2D context: linework
 * batched per colour, texts drawn by Skia in an explicitly loaded CJK face registered under
 * its own family name (no system font lookup for it, so output does not depend on what else
 * is installed), viewports clipped to their outline. Throws CAD_RENDER_FONT_MISSING at creation
 * when no CJK font can be loaded, and CAD_DXF_TOO_COMPLEX from render when the picture would
 * expand past the scene budget.
 */
function registeredFont(fontFiles: string[]): { font: TextFont; masks: GlyphMasks } {
  const { metrics, face, file } = loadTextFont(fontFiles, CJK_FACE, { exists: existsSync, read: (f) => readFileSync(f) });
  // Skia's font registry is process-wide: one family per face file, registered once.
  const family = `CadSight ${metrics.postscriptName ?? CJK_FACE} ${file}`;
  if (!GlobalFonts.has(family) && !GlobalFonts.register(face, family)) throw new AppError('CAD_RENDER_FONT_MISSING', `the rasteriser could not load the font ${file}`, { data: { fontFiles } });
  const font = new TextFont(metrics, family);
  return { font, masks: new GlyphMasks(font) };
}

/** PostScript points per millimetre. */
const PT_PER_MM = 72 / 25.4;

/**
 * A vector PDF of one sheet: the region `bbox` (drawing units) of a layout on a page of
 * `widthMm` × `heightMm`; lines, arcs and hatches as PDF paths, every text drawn as text with the
 * CJK font embedded (no glyph bitmaps). Throws CAD_RENDER_FONT_MISSING when no CJK font is installed.
 */
export function renderSheetPdf(request: { index: DrawingIndex; layout: string; bbox: Box; widthMm: number; heightMm: number; title: string }, fontFiles: string[] = DEFAULT_CJK_FONT_FILES): Uint8Array {
  const { font, masks } = registeredFont(fontFiles);
  const { bbox, widthMm, heightMm } = request;
  const width = widthMm * PT_PER_MM;
  const height = heightMm * PT_PER_MM;
  const s = width / (bbox.maxX - bbox.minX);
  const view: View = { bbox, s, pxPerMm: PT_PER_MM, width, height };
  const pdf = new PDFDocument({ title: request.title, creator: 'CadSight', producer: 'CadSight' });
  // The PDF page context is the same Skia context type the raster canvas hands out.
  const ctx = pdf.beginPage(width, height) as SKRSContext2D;
  ctx.fillStyle = BACKGROUND;
  ctx.fillRect(0, 0, width, height);
  for (const part of layoutScene(request.index, request.layout, bbox)) drawPart(ctx, part, view, font, masks, undefined, true);
  pdf.endPage();
  const bytes = pdf.close();
  return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

export function createCanvasDxfRenderer(fontFiles: string[] = DEFAULT_CJK_FONT_FILES): DxfScreenshotRenderer {
  const { font, masks } = registeredFont(fontFiles);
  return {
    async render({ index, layout, bbox, maxEdge, highlight, hiddenLayers }) {
      const w = bbox.maxX - bbox.minX;
      const h = bbox.maxY - bbox.minY;
      const s = maxEdge / Math.max(w, h);
      // A paper layout is in mm, or inches when $MEASUREMENT is 0 (imperial); model space is assumed
      // plotted to fit an A3 sheet's long edge (420 mm).
      const paper = index.doc.layouts.find((l) => l.name.toUpperCase() === layout.toUpperCase())?.paperSpace === true;
      const imperial = index.doc.header.get('$MEASUREMENT')?.values[0]?.value.trim() === '0';
      const view: View = { bbox, s, pxPerMm: paper ? (imperial ? s / 25.4 : s) : maxEdge / 420, width: Math.max(1, Math.round(w * s)), height: Math.max(1, Math.round(h * s)) };
      const scene = layoutScene(index, layout, bbox);
      const canvas = createCanvas(view.width, view.height);
      const ctx = canvas.getContext('2d');
      ctx.fillStyle = BACKGROUND;
      ctx.fillRect(0, 0, view.width, view.height);
      for (const part of scene) drawPart(ctx, part, view, font, masks, hiddenLayers);
      ctx.setTransform(1, 0, 0, 1, 0, 0);
      ctx.strokeStyle = '#ff0000';
      ctx.lineWidth = 3;
      for (const hb of highlight) ctx.strokeRect((hb.minX - bbox.minX) * s, (bbox.maxY - hb.maxY) * s, (hb.maxX - hb.minX) * s, (hb.maxY - hb.minY) * s);
      const png = encodePng(canvas.data(), view.width, view.height);
      return { png: new Uint8Array(png.buffer, png.byteOffset, png.byteLength), width: view.width, height: view.height, pixelsPerUnit: s };
    },
  };
}

/** `vectorText`: every text through Skia's text drawing (PDF), never glyph-mask bitmaps or greeking. */
function drawPart(ctx: SKRSContext2D, part: ScenePart, view: View, font: TextFont, masks: GlyphMasks, hiddenLayers?: ReadonlySet<string>, vectorText = false): void {
  const { bbox, s } = view;
  const px = (x: number): number => (x - bbox.minX) * s;
  const py = (y: number): number => (bbox.maxY - y) * s;
  ctx.save();
  if (part.clip) {
    ctx.beginPath();
    part.clip.forEach((p, i) => (i === 0 ? ctx.moveTo(px(p.x), py(p.y)) : ctx.lineTo(px(p.x), py(p.y))));
    ctx.closePath();
    ctx.clip();
  }
  const fills = new Map<string, Primitive[]>();
  const strokes = new Map<string, Primitive[]>();
  const texts: TextPrimitive[] = [];
  const greeked: TextPrimitive[] = [];
  const gradients: Extract<Primitive, { kind: 'path' }>[] = [];
  const reach = Math.hypot(bbox.maxX - bbox.minX, bbox.maxY - bbox.minY) + Math.hypot((bbox.minX + bbox.maxX) / 2, (bbox.minY + bbox.maxY) / 2);
  for (const raw of part.primitives) {
    // The viewer's layer toggles: left out like a layer that is off (names compared upper-case).
    if (hiddenLayers?.has(raw.layer.toUpperCase())) continue;
    if (raw.kind === 'text') {
      (vectorText || raw.height * s >= MIN_TEXT_PX ? texts : greeked).push(raw);
      continue;
    }
    const p = raw.infinite ? extendAcross(raw, reach) : raw;
    if (p.gradient) {
      gradients.push(p);
      continue;
    }
    const target = p.filled ? fills : strokes;
    // strokes batch per colour and pixel width (lineweight or polyline width), in half pixels
    const widthPx = p.width ? Math.max(1, p.width * s) : p.weight ? Math.max(1, p.weight * view.pxPerMm) : 1;
    const key = p.mask ? BACKGROUND : p.filled ? colorOf(p.color) : `${colorOf(p.color)}|${Math.round(widthPx * 2) / 2}|${dashKey(p.dashes, s)}`;
    const list = target.get(key);
    if (list) list.push(p);
    else target.set(key, [p]);
  }
  // Points closer than half a pixel to the last one drawn add nothing visible (a bolt circle at
  // 1:100 is 72 points on 3 pixels) but cost a native call each: they are skipped.
  const trace = (list: Primitive[]): void => {
    ctx.beginPath();
    for (const p of list) {
      if (p.kind !== 'path' || p.points.length === 0) continue;
      const points = p.points;
      let lastX = px((points[0] as Vec2).x);
      let lastY = py((points[0] as Vec2).y);
      ctx.moveTo(lastX, lastY);
      let drawn = 0;
      for (let i = 1; i < points.length; i++) {
        const x = px((points[i] as Vec2).x);
        const y = py((points[i] as Vec2).y);
        if (Math.abs(x - lastX) < 0.5 && Math.abs(y - lastY) < 0.5 && i < points.length - 1) continue;
        ctx.lineTo(x, y);
        lastX = x;
        lastY = y;
        drawn++;
      }
      if (drawn === 0 || (drawn === 1 && Math.abs(px((points[0] as Vec2).x) - lastX) < 0.5 && Math.abs(py((points[0] as Vec2).y) - lastY) < 0.5)) ctx.lineTo(lastX + 0.5, lastY); // a POINT or a sub-pixel shape: a dot
      if (p.closed) ctx.closePath();
    }
  };
  ctx.lineJoin = 'round';
  ctx.lineCap = 'round';
  for (const [color, list] of fills) {
    trace(list);
    ctx.fillStyle = color;
    ctx.fill();
    ctx.strokeStyle = color;
    ctx.lineWidth = 0.5;
    ctx.stroke();
  }
  drawGradientFills(ctx, gradients, px, py);
  for (const [key, list] of strokes) {
    const [color, width, dash] = key.split('|') as [string, string, string];
    trace(list);
    ctx.strokeStyle = color;
    ctx.lineWidth = Number(width);
    ctx.setLineDash(dash ? dash.split(',').map(Number) : []);
    ctx.stroke();
  }
  ctx.setLineDash([]);
  // axis-aligned small texts from cached glyph masks; the others by Skia, per colour
  const composited = vectorText ? [] : texts.filter((t) => maskable(t, view, font));
  compositeTexts(ctx, composited, view, font, masks, (t) => colorOf(t.color));
  const drawn = vectorText ? texts : composited.length === texts.length ? [] : texts.filter((t) => !maskable(t, view, font));
  for (const [list, draw] of [[greeked, drawGreeked], [drawn, drawTexts]] as const) {
    for (const [color, group] of groupBy(list, (t) => colorOf(t.color))) {
      ctx.fillStyle = color;
      draw(ctx, group, view, font, colorOf);
    }
  }
  ctx.restore();
}

function groupBy<T>(items: T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    const list = groups.get(k);
    if (list) list.push(item);
    else groups.set(k, [item]);
  }
  return groups;
}

/** An XLINE/RAY primitive as a segment long enough to cross the whole picture (the canvas clips it). */
function extendAcross(p: Extract<Primitive, { kind: 'path' }>, reach: number): Extract<Primitive, { kind: 'path' }> {
  const [a, b] = p.points as [Vec2, Vec2];
  const d = { x: b.x - a.x, y: b.y - a.y };
  const length = Math.hypot(d.x, d.y) || 1;
  const k = (reach + Math.hypot(a.x, a.y)) / length;
  const start = p.infinite === 'both' ? { x: a.x - d.x * k, y: a.y - d.y * k } : a;
  return { ...p, points: [start, { x: a.x + d.x * k, y: a.y + d.y * k }] };
}

/**
 * Canvas dash array (pixels, dash/gap alternating) of a DXF linetype pattern, '' for a solid
 * stroke: continuous types, and patterns whose period is under 3 px (drawn solid, as CAD viewers
 * do when a pattern is too dense to see). Dots become half-pixel dashes.
 */
function dashKey(dashes: number[] | undefined, s: number): string {
  if (!dashes) return '';
  const runs: number[] = [];
  let lastSign = 0;
  for (const d of dashes) {
    const sign = d < 0 ? -1 : 1;
    const length = Math.max(0.5, Math.abs(d) * s);
    if (sign === lastSign) runs[runs.length - 1] = (runs[runs.length - 1] as number) + length;
    else runs.push(length);
    lastSign = sign;
  }
  if ((dashes[0] ?? 0) < 0) runs.push(runs.shift() as number); // canvas patterns start with a dash
  if (runs.length % 2 === 1) runs.push(0.5);
  const period = runs.reduce((a, b) => a + b, 0);
  return period < 3 ? '' : runs.map((r) => r.toFixed(2)).join(',');
}
