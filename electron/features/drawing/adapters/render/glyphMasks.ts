import { createCanvas, ImageData, type SKRSContext2D } from '@napi-rs/canvas';
import type { Primitive } from '../../domain/world';
import { MTEXT_LINE_PITCH } from '../../domain/bounds';
import { layoutText } from './textLayout';
import type { TextFont } from './textFont';
import { firstBaseline, frameMatrix, lineShift, type TextView } from './textPainter';

type TextPrimitive = Extract<Primitive, { kind: 'text' }>;

/** Coverage of one glyph drawn by Skia: `alpha` rows × `width`, its top-left `left`/`top` pixels from the glyph origin (baseline start). */
interface Mask {
  width: number;
  height: number;
  left: number;
  top: number;
  alpha: Uint8Array;
}

/** Glyph origins are placed to a quarter pixel along the baseline (four masks per glyph at most). */
const PHASES = 4;
/** Largest font size (px) composited from masks; larger texts are few and drawn by Skia directly. */
const MAX_MASK_FONT_PX = 48;
/** Masks kept across renders (a few hundred bytes each); the cache is dropped when it is full. */
const MAX_MASKS = 30_000;

/**
 * Glyph coverage masks, drawn once by Skia in the text face and reused: a native text call costs
 * tens of microseconds (shaping a new string each time), a mask copy a fraction of one. Owned by
 * one renderer (no shared state).
 */
export class GlyphMasks {
  private readonly sets = new Map<string, Map<string, Mask[]>>();
  private count = 0;

  constructor(private readonly font: TextFont) {}

  /** Masks at `fontPx` with a width factor and a lean (tan of the oblique angle): `glyph(ch, phase)` with the origin `phase` quarter pixels into the mask. */
  at(fontPx: number, widthFactor: number, lean: number): (ch: string, phase: number) => Mask {
    const key = `${fontPx}|${widthFactor}|${lean}`;
    let set = this.sets.get(key);
    if (!set) this.sets.set(key, (set = new Map()));
    const masks = set;
    return (ch, phase) => {
      let phases = masks.get(ch);
      if (!phases) masks.set(ch, (phases = []));
      let mask = phases[phase];
      if (!mask) {
        if (++this.count > MAX_MASKS) {
          this.sets.clear();
          this.count = 0;
        }
        mask = phases[phase] = this.draw(ch, fontPx, phase / PHASES, widthFactor, lean);
      }
      return mask;
    };
  }

  private draw(ch: string, fontPx: number, phase: number, widthFactor: number, lean: number): Mask {
    const pad = Math.ceil(fontPx * (0.3 + Math.abs(lean))) + 2;
    const advance = (this.font.advance(ch) / this.font.unitsPerEm) * fontPx * widthFactor;
    const width = Math.ceil(advance + 2 * pad);
    const height = Math.ceil(fontPx * 1.6) + 2 * pad;
    const baseline = pad + Math.ceil(fontPx * 1.1);
    const canvas = createCanvas(width, height);
    const ctx = canvas.getContext('2d');
    ctx.fontKerning = 'none';
    ctx.font = `${fontPx}px "${this.font.family}"`;
    ctx.fillStyle = '#000';
    ctx.setTransform(widthFactor, 0, -lean, 1, pad + phase, baseline);
    ctx.fillText(this.font.shown(ch), 0, 0);
    const data = ctx.getImageData(0, 0, width, height).data;
    let [minX, minY, maxX, maxY] = [width, height, -1, -1];
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        if ((data[(y * width + x) * 4 + 3] as number) === 0) continue;
        if (x < minX) minX = x;
        if (x > maxX) maxX = x;
        if (y < minY) minY = y;
        if (y > maxY) maxY = y;
      }
    }
    if (maxX < 0) return { width: 0, height: 0, left: 0, top: 0, alpha: new Uint8Array(0) };
    const w = maxX - minX + 1;
    const h = maxY - minY + 1;
    const alpha = new Uint8Array(w * h);
    for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) alpha[y * w + x] = data[((y + minY) * width + x + minX) * 4 + 3] as number;
    return { width: w, height: h, left: minX - pad, top: minY - baseline, alpha };
  }
}

/**
 * Whether a text can be composited from masks: its baseline runs along a pixel axis (any
 * multiple of 90°, mirrored or not), it is small enough, and it has no stacks (drawn by Skia).
 */
export function maskable(p: TextPrimitive, view: TextView, font: TextFont): boolean {
  if (p.runs) return false;
  const fontPx = ((p.height * view.s) / font.capHeight) * font.unitsPerEm;
  if (fontPx > MAX_MASK_FONT_PX) return false;
  const r = (p.rotation * Math.PI) / 180;
  return Math.abs(Math.sin(r) * Math.cos(r)) < 1e-9;
}

/**
 * Composites maskable texts (see maskable) onto the context: glyph masks blended into a
 * transparent layer in the texts' colours, the layer drawn once, so the current clip applies.
 * `color` gives a text's `#rrggbb` colour.
 */
export function compositeTexts(ctx: SKRSContext2D, texts: TextPrimitive[], view: TextView & { width: number; height: number }, font: TextFont, masks: GlyphMasks, color: (p: TextPrimitive) => string): void {
  if (texts.length === 0) return;
  const { width, height } = view;
  const layer = new Uint8ClampedArray(width * height * 4);
  for (const p of texts) {
    const css = color(p);
    const rgb = Number.parseInt(css.slice(1), 16);
    const [cr, cg, cb] = [(rgb >> 16) & 0xff, (rgb >> 8) & 0xff, rgb & 0xff];
    const size = p.height * view.s;
    const k = size / font.capHeight;
    const fontPx = Math.round(k * font.unitsPerEm * 8) / 8;
    const wf = Math.round((p.widthFactor ?? 1) * 100) / 100;
    const lean = p.oblique ? Math.round(Math.tan((p.oblique * Math.PI) / 180) * 100) / 100 : 0;
    const [a, b, c, d, e, f] = frameMatrix(p, view);
    // unit pixel axes of the baseline (along) and of "down the glyph" (across); a multiple of 90°
    const along = { x: Math.round(a / (p.widthFactor ?? 1)), y: Math.round(b / (p.widthFactor ?? 1)) };
    const across = { x: Math.round(c + lean * along.x), y: Math.round(d + lean * along.y) };
    const glyph = masks.at(fontPx, wf, lean);
    const lines = layoutText(p, font);
    const first = firstBaseline(p, size, lines.length);
    const pitch = size * MTEXT_LINE_PITCH;
    lines.forEach((line, i) => {
      const baseline = first + i * pitch;
      for (const piece of line.pieces) {
        if (piece.kind !== 'text') continue;
        let x = k * (piece.x + lineShift(p, line.width)) * (p.widthFactor ?? 1);
        for (const ch of piece.text) {
          const advance = k * font.advance(ch) * (p.widthFactor ?? 1);
          if (ch !== ' ') {
            // glyph origin in pixels, split into whole pixels and a quarter-pixel phase along the baseline
            // (an oblique frame also moves lower lines' origins back along the baseline)
            const ox = e + (x - lean * baseline) * along.x + baseline * across.x;
            const oy = f + (x - lean * baseline) * along.y + baseline * across.y;
            const s = ox * along.x + oy * along.y;
            const base = Math.floor(s);
            let phase = Math.round((s - base) * PHASES);
            const shiftBase = phase === PHASES ? 1 : 0;
            if (phase === PHASES) phase = 0;
            const t = Math.round(ox * across.x + oy * across.y);
            blend(layer, width, height, glyph(ch, phase), along, across, base + shiftBase, t, cr, cg, cb);
          }
          x += advance;
        }
      }
    });
  }
  const canvas = createCanvas(width, height);
  canvas.getContext('2d').putImageData(new ImageData(layer, width, height), 0, 0);
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  ctx.drawImage(canvas, 0, 0);
}

/** Source-over of a coverage mask in one colour into an unpremultiplied RGBA layer. */
function blend(layer: Uint8ClampedArray, width: number, height: number, m: Mask, along: { x: number; y: number }, across: { x: number; y: number }, s0: number, t0: number, r: number, g: number, b: number): void {
  for (let j = 0; j < m.height; j++) {
    for (let i = 0; i < m.width; i++) {
      const coverage = m.alpha[j * m.width + i] as number;
      if (coverage === 0) continue;
      const s = s0 + m.left + i;
      const t = t0 + m.top + j;
      const px = s * along.x + t * across.x;
      const py = s * along.y + t * across.y;
      if (px < 0 || py < 0 || px >= width || py >= height) continue;
      const o = (py * width + px) * 4;
      const da = layer[o + 3] as number;
      if (da === 0) {
        layer[o] = r;
        layer[o + 1] = g;
        layer[o + 2] = b;
        layer[o + 3] = coverage;
        continue;
      }
      const sa = coverage / 255;
      const keep = (da / 255) * (1 - sa);
      const oa = sa + keep;
      layer[o] = (r * sa + (layer[o] as number) * keep) / oa;
      layer[o + 1] = (g * sa + (layer[o + 1] as number) * keep) / oa;
      layer[o + 2] = (b * sa + (layer[o + 2] as number) * keep) / oa;
      layer[o + 3] = oa * 255;
    }
  }
}
