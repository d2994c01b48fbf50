import * as fontkit from 'fontkit';
import { AppError } from '../../../../../shared/errors';

/**
 * Stand-ins for characters the CJK font lacks, so drawings show a symbol instead of an empty box:
 * the diameter sign %%c (U+2300) is drawn as Ø, as many CAD fonts draw it.
 */
const FALLBACK: Record<string, string> = { '\u2300': '\u00d8' };

/**
 * Metrics of the one explicitly loaded text font: CAD text is not shaped (no ligatures or
 * kerning), so a line's width is the sum of its characters' advances, cached per character.
 * The rasteriser draws with the same face (registered under `family`), so these widths are
 * the widths it draws.
 */
export class TextFont {
  private readonly byChar = new Map<string, { shown: string; advance: number }>();

  constructor(
    private readonly font: fontkit.Font,
    /** Family name the face is registered under in the rasteriser. */
    readonly family: string,
  ) {}

  /** Cap height in font units: DXF text height is a cap height. */
  get capHeight(): number {
    return this.font.capHeight || this.font.unitsPerEm * 0.7;
  }

  get unitsPerEm(): number {
    return this.font.unitsPerEm;
  }

  /** Advance width of one character in font units (its stand-in's when the font lacks it). */
  advance(ch: string): number {
    return (this.byChar.get(ch) ?? this.learn(ch)).advance;
  }

  /** Advance width of a string in font units. */
  width(text: string): number {
    let x = 0;
    for (const ch of text) x += (this.byChar.get(ch) ?? this.learn(ch)).advance;
    return x;
  }

  /** The string as the font draws it: characters it lacks replaced by their stand-ins. */
  shown(text: string): string {
    let out = '';
    let changed = false;
    for (const ch of text) {
      const shown = (this.byChar.get(ch) ?? this.learn(ch)).shown;
      if (shown !== ch) changed = true;
      out += shown;
    }
    return changed ? out : text;
  }

  private learn(ch: string): { shown: string; advance: number } {
    let glyph = this.font.glyphForCodePoint(ch.codePointAt(0) as number);
    let shown = ch;
    const stand = glyph.id === 0 ? FALLBACK[ch] : undefined;
    if (stand) {
      glyph = this.font.glyphForCodePoint(stand.codePointAt(0) as number);
      shown = stand;
    }
    const learned = { shown, advance: glyph.advanceWidth };
    this.byChar.set(ch, learned);
    return learned;
  }
}

/**
 * One face of a font collection (.ttc) as a standalone font file: its table directory with the
 * tables it points to copied behind it (offsets rewritten, 4-byte aligned). A plain .ttf/.otf
 * is returned as is. The rasteriser registers whole files, and a collection's first face is
 * Japanese, where Chinese drawings need the Simplified Chinese glyph forms.
 */
export function collectionFace(bytes: Buffer, index: number): Buffer {
  if (bytes.length < 12 || bytes.readUInt32BE(0) !== 0x74746366 /* 'ttcf' */) return bytes;
  const count = bytes.readUInt32BE(8);
  if (index < 0 || index >= count) throw new RangeError(`font collection has ${count} faces, not ${index + 1}`);
  const start = bytes.readUInt32BE(12 + 4 * index);
  const tables = bytes.readUInt16BE(start + 4);
  const records = Array.from({ length: tables }, (_, i) => {
    const at = start + 12 + 16 * i;
    return { at, offset: bytes.readUInt32BE(at + 8), length: bytes.readUInt32BE(at + 12) };
  });
  let size = 12 + 16 * tables;
  const placed = records.map((r) => {
    const at = size;
    size += (r.length + 3) & ~3;
    return at;
  });
  const out = Buffer.alloc(size);
  bytes.copy(out, 0, start, start + 12);
  records.forEach((r, i) => {
    const at = 12 + 16 * i;
    bytes.copy(out, at, r.at, r.at + 8); // tag and checksum
    out.writeUInt32BE(placed[i] as number, at + 8);
    out.writeUInt32BE(r.length, at + 12);
    bytes.copy(out, placed[i] as number, r.offset, r.offset + r.length);
  });
  return out;
}

/** File access for loadTextFont (injected: the renderer adapter owns no I/O policy). */
export interface FontFiles {
  exists(file: string): boolean;
  read(file: string): Buffer;
}

/**
 * Opens the first existing font file (a .ttc collection picks `postscriptName`, else its first
 * face) and returns its metrics and the bytes of that face as a standalone font. Throws
 * CAD_RENDER_FONT_MISSING when none exists or none can be read as a font.
 */
export function loadTextFont(fontFiles: string[], postscriptName: string, files: FontFiles): { metrics: fontkit.Font; face: Buffer; file: string } {
  for (const file of fontFiles) {
    if (!files.exists(file)) continue;
    try {
      const bytes = files.read(file);
      const opened = fontkit.create(bytes);
      if ('fonts' in opened) {
        const found = opened.fonts.findIndex((f) => f.postscriptName === postscriptName);
        const face = collectionFace(bytes, Math.max(0, found));
        return { metrics: fontkit.create(face) as fontkit.Font, face, file };
      }
      return { metrics: opened, face: bytes, file };
    } catch {
      continue; // not a font we can read: try the next candidate, report all below
    }
  }
  throw new AppError('CAD_RENDER_FONT_MISSING', `no usable CJK font found (looked for ${fontFiles.join(', ')}); install fonts-noto-cjk`, { data: { fontFiles } });
}
