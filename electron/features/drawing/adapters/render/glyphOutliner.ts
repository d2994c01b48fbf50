import * as fontkit from 'fontkit';
import { AppError } from '../../../../../shared/errors';

/**
 * Stand-ins for characters the CJK font lacks, so drawings show a symbol instead of an empty box:
 * the diameter sign %%c (U+2300) is drawn as Ø, as many CAD fonts draw it.
 */
const FALLBACK: Record<string, string> = { '\u2300': '\u00d8' };

/**
 * Turns text into glyph outlines from one explicitly loaded font, so the rasteriser draws paths
 * instead of shaping text (shaping through a rasteriser's font stack re-reads a 20 MB CJK
 * collection per text run). Characters map to glyphs one to one (CAD text is not shaped: no
 * ligatures or kerning), cached per character; outlines are cached per glyph id.
 */
export class GlyphOutliner {
  private readonly outlines = new Map<number, string>();
  private readonly byChar = new Map<string, { id: number; advance: number }>();

  constructor(private readonly font: fontkit.Font) {}

  /** Cap height in font units: DXF text height is a cap height. */
  get capHeight(): number {
    return this.font.capHeight || this.font.unitsPerEm * 0.7;
  }

  /** Glyphs of one line: ids and x offsets in font units, plus the advance width of the line. */
  layout(text: string): { glyphs: { id: number; x: number }[]; width: number } {
    const glyphs: { id: number; x: number }[] = [];
    let x = 0;
    for (const ch of text) {
      const glyph = this.byChar.get(ch) ?? this.learn(ch);
      glyphs.push({ id: glyph.id, x });
      x += glyph.advance;
    }
    return { glyphs, width: x };
  }

  private learn(ch: string): { id: number; advance: number } {
    const codePoint = ch.codePointAt(0) as number;
    let glyph = this.font.glyphForCodePoint(codePoint);
    const stand = glyph.id === 0 ? FALLBACK[ch] : undefined;
    if (stand) glyph = this.font.glyphForCodePoint(stand.codePointAt(0) as number);
    if (!this.outlines.has(glyph.id)) this.outlines.set(glyph.id, glyph.path.toSVG());
    const learned = { id: glyph.id, advance: glyph.advanceWidth };
    this.byChar.set(ch, learned);
    return learned;
  }

  /** SVG path data (font units, y up) of a glyph laid out before. */
  outline(id: number): string {
    return this.outlines.get(id) ?? '';
  }
}

/**
 * Opens the first existing font file (a .ttc collection picks `postscriptName`, else its first
 * face). Throws CAD_RENDER_FONT_MISSING when none exists or none can be read as a font.
 */
export function loadOutliner(fontFiles: string[], postscriptName: string, exists: (file: string) => boolean): { outliner: GlyphOutliner; file: string } {
  for (const file of fontFiles) {
    if (!exists(file)) continue;
    try {
      const opened = fontkit.openSync(file);
      const font = 'fonts' in opened ? (opened.fonts.find((f) => f.postscriptName === postscriptName) ?? opened.fonts[0]) : opened;
      if (font) return { outliner: new GlyphOutliner(font), file };
    } catch {
      continue; // not a font we can read: try the next candidate, report all below
    }
  }
  throw new AppError('CAD_RENDER_FONT_MISSING', `no usable CJK font found (looked for ${fontFiles.join(', ')}); install fonts-noto-cjk`, { data: { fontFiles } });
}
