import type { SKRSContext2D } from '@napi-rs/canvas';
import { MTEXT_LINE_PITCH } from '../../domain/bounds';
import type { Box } from '../../domain/model';
import type { MtextColor } from '../../domain/textEscapes';
import type { Primitive } from '../../domain/world';
import { layoutText, type LaidLine } from './textLayout';
import type { TextFont } from './textFont';

type TextPrimitive = Extract<Primitive, { kind: 'text' }>;

/** Pixel mapping of one picture: drawing (x, y) → pixel ((x − minX)·s, (maxY − y)·s). */
export interface TextView {
  bbox: Box;
  s: number;
}

/** Fraction bar thickness in cap heights. */
const BAR = 0.07;

/**
 * Canvas transform of a text's own frame: x along the baseline (× width factor), y down the
 * glyphs' up direction (mirrored texts have it 90° clockwise from the baseline), oblique texts
 * sheared so glyph tops lean forward; origin at the anchor pixel.
 */
export function frameMatrix(p: TextPrimitive, view: TextView): [number, number, number, number, number, number] {
  const r = (p.rotation * Math.PI) / 180;
  const cos = Math.cos(r);
  const sin = Math.sin(r);
  const wf = p.widthFactor ?? 1;
  const lean = p.oblique ? Math.tan((p.oblique * Math.PI) / 180) : 0;
  // pixel directions (y down) of the baseline and of the glyphs' up
  const dx = cos;
  const dy = -sin;
  const ux = p.mirrored ? sin : -sin;
  const uy = p.mirrored ? cos : -cos;
  return [wf * dx, wf * dy, -ux - lean * dx, -uy - lean * dy, (p.at.x - view.bbox.minX) * view.s, (view.bbox.maxY - p.at.y) * view.s];
}

/** Pixel offset (y down) of the first line's baseline below the anchor: top, middle, bottom, baseline alignment. */
export function firstBaseline(p: TextPrimitive, size: number, lines: number): number {
  const pitch = size * MTEXT_LINE_PITCH;
  const block = size + (lines - 1) * pitch;
  return p.vAlign === 3 ? size : p.vAlign === 2 ? size - block / 2 : p.vAlign === 1 ? size - block : -(lines - 1) * pitch;
}

/** Offset of a line's start from the anchor for its horizontal alignment (same units as `width`). */
export const lineShift = (p: TextPrimitive, width: number): number => (p.hAlign === 1 ? -width / 2 : p.hAlign === 2 ? -width : 0);

/**
 * Draws texts with the canvas's own text drawing in the registered face (Skia caches glyph
 * masks, which is many times faster than filling glyph outlines), each in its frame (see
 * frameMatrix); stacked parts at their smaller size, fraction bars as thin rectangles.
 * Draws in the current fill style (inline MTEXT colours in `inlineColor`'s CSS colour) and leaves
 * the transform changed: callers reset it.
 */
export function drawTexts(ctx: SKRSContext2D, texts: TextPrimitive[], view: TextView, font: TextFont, inlineColor?: (c: MtextColor) => string): void {
  const base = ctx.fillStyle;
  let currentFont = '';
  const setFont = (px: number): void => {
    const spec = `${Math.round(px * 100) / 100}px "${font.family}"`;
    if (spec !== currentFont) ctx.font = currentFont = spec;
  };
  ctx.textAlign = 'left';
  ctx.textBaseline = 'alphabetic';
  // CAD text is not kerned: advances must add up to the font's own widths (alignment, wrapping)
  ctx.fontKerning = 'none';
  for (const p of texts) {
    const size = p.height * view.s;
    const k = size / font.capHeight; // pixels per font unit
    const lines = layoutText(p, font);
    const first = firstBaseline(p, size, lines.length);
    const pitch = size * MTEXT_LINE_PITCH;
    ctx.setTransform(...frameMatrix(p, view));
    lines.forEach((line, i) => {
      const baseline = first + i * pitch;
      const shift = lineShift(p, line.width);
      for (const piece of line.pieces) {
        const x = k * (piece.x + shift);
        const y = baseline - k * piece.rise;
        if (piece.kind === 'bar') {
          ctx.fillRect(x, y - (BAR * size) / 2, k * piece.width, Math.max(BAR * size, 0.5));
          continue;
        }
        setFont(k * font.unitsPerEm * piece.scale);
        if (piece.color && inlineColor) ctx.fillStyle = inlineColor(piece.color);
        ctx.fillText(font.shown(piece.text), x, y);
        if (piece.color && inlineColor) ctx.fillStyle = base;
      }
    });
  }
}

/** Texts too small to read drawn as a faint bar per line (greeking), so their presence shows; in the current fill style. */
export function drawGreeked(ctx: SKRSContext2D, texts: TextPrimitive[], view: TextView, font: TextFont): void {
  if (texts.length === 0) return;
  ctx.save();
  ctx.globalAlpha = 0.45;
  for (const p of texts) {
    const size = p.height * view.s;
    const k = size / font.capHeight;
    const lines: LaidLine[] = layoutText(p, font);
    const first = firstBaseline(p, size, lines.length);
    const pitch = size * MTEXT_LINE_PITCH;
    ctx.setTransform(...frameMatrix(p, view));
    lines.forEach((line, i) => {
      const top = first + i * pitch - size;
      ctx.fillRect(k * lineShift(p, line.width), top + size * 0.15, k * line.width, Math.max(0.5, size * 0.7));
    });
  }
  ctx.restore();
}
