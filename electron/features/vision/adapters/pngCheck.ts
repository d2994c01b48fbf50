import { crc32, inflateSync, type ZlibOptions } from 'node:zlib';

/**
 * A PNG whose chunks hold nothing libvips would act on beyond the pixels: no EXIF (so its
 * orientation is 1), no ICC profile, not interlaced, only the chunks listed in PLAIN_ANCILLARY.
 * Such a PNG can be checked without libvips (see pngPixelsIntact); every other PNG is left to
 * libvips, which stays the judge of what it can decode.
 */
export interface PlainPngLayout {
  width: number;
  height: number;
  bitDepth: number;
  colourType: number;
  /** Every chunk as [offset of its type field, data length], in file order. */
  chunks: Array<[number, number]>;
  /** The IDAT payloads, in order. */
  idat: Uint8Array[];
}

const SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
/** Samples per pixel by colour type (0 grey, 2 RGB, 3 indexed, 4 grey+alpha, 6 RGBA). */
const CHANNELS: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };
const DEPTHS: Record<number, readonly number[]> = { 0: [1, 2, 4, 8, 16], 2: [8, 16], 3: [1, 2, 4, 8], 4: [8, 16], 6: [8, 16] };
/** Ancillary chunks with fixed, checkable contents that change nothing about decoding or orientation. */
const PLAIN_ANCILLARY: Record<string, (data: Uint8Array) => boolean> = {
  pHYs: (d) => d.length === 9 && d[8]! <= 1,
  sRGB: (d) => d.length === 1 && d[0]! <= 3,
  gAMA: (d) => d.length === 4 && (d[0]! | d[1]! | d[2]! | d[3]!) !== 0,
  tIME: (d) => d.length === 7,
  // Keyword, NUL, text. ImageMagick's "Raw profile type exif" text could carry an orientation.
  tEXt: (d) => {
    const nul = d.indexOf(0);
    return nul >= 1 && nul <= 79 && !String.fromCharCode(...d.subarray(0, nul)).startsWith('Raw profile');
  },
};
/**
 * Decoded size up to which pngPixelsIntact is the cheaper check: libvips costs ~0.5 ms of thread
 * hops and pipeline set-up even for an icon, but inflates large images faster (zlib-ng, off the
 * event loop), so bigger PNGs are left to it. 256 KiB is a 300×300 RGB screenshot.
 */
const CHECKABLE_DECODED_BYTES = 256 * 1024;

const be32 = (b: Uint8Array, o: number) => ((b[o]! << 24) >>> 0) + ((b[o + 1]! << 16) | (b[o + 2]! << 8) | b[o + 3]!);
const type = (b: Uint8Array, o: number) => String.fromCharCode(b[o]!, b[o + 1]!, b[o + 2]!, b[o + 3]!);

/**
 * Walks the chunk list (no CRC or inflate: cheap even for a large file) and returns the layout of
 * a plain PNG, or undefined when the file is anything else, damaged included.
 */
export function plainPngLayout(bytes: Uint8Array): PlainPngLayout | undefined {
  if (bytes.length < 8 || SIGNATURE.some((b, i) => bytes[i] !== b)) return undefined;
  const chunks: Array<[number, number]> = [];
  const idat: Uint8Array[] = [];
  let header: Omit<PlainPngLayout, 'chunks' | 'idat'> | undefined;
  let paletteEntries = 0;
  let idatEnded = false;
  for (let offset = 8; ; ) {
    if (offset + 12 > bytes.length) return undefined;
    const length = be32(bytes, offset);
    const name = type(bytes, offset + 4);
    const end = offset + 12 + length;
    if (length > 0x7fffffff || end > bytes.length) return undefined;
    const data = bytes.subarray(offset + 8, offset + 8 + length);
    chunks.push([offset + 4, length]);
    if (idat.length > 0 && name !== 'IDAT') idatEnded = true;
    if (chunks.length === 1) {
      if (name !== 'IHDR') return undefined;
      header = readHeader(data);
      if (!header) return undefined;
    } else if (name === 'IDAT') {
      if (idatEnded || (header!.colourType === 3 && paletteEntries === 0)) return undefined;
      idat.push(data);
    } else if (name === 'IEND') {
      // Bytes after IEND are something libvips may warn about: not plain.
      return length === 0 && end === bytes.length && idat.length > 0 ? { ...header!, chunks, idat } : undefined;
    } else if (name === 'PLTE') {
      const entries = length / 3;
      // Fewer entries than the bit depth can address would need every index checked: libvips decides.
      const fullPalette = header!.colourType !== 3 || entries === 1 << header!.bitDepth;
      if (idat.length > 0 || paletteEntries > 0 || header!.colourType === 0 || header!.colourType === 4 || !Number.isInteger(entries) || !fullPalette) return undefined;
      paletteEntries = entries;
    } else if (name === 'tRNS') {
      const ok = header!.colourType === 0 ? length === 2 : header!.colourType === 2 ? length === 6 : header!.colourType === 3 && paletteEntries > 0 && length <= paletteEntries;
      if (!ok || idat.length > 0) return undefined;
    } else if (!PLAIN_ANCILLARY[name]?.(data)) {
      return undefined;
    }
    offset = end;
  }
}

function readHeader(data: Uint8Array): Omit<PlainPngLayout, 'chunks' | 'idat'> | undefined {
  if (data.length !== 13) return undefined;
  const width = be32(data, 0);
  const height = be32(data, 4);
  const [bitDepth, colourType, compression, filter, interlace] = [data[8]!, data[9]!, data[10]!, data[11]!, data[12]!];
  if (width === 0 || height === 0 || width > 0x7fffffff || height > 0x7fffffff) return undefined;
  if (!DEPTHS[colourType]?.includes(bitDepth) || compression !== 0 || filter !== 0 || interlace !== 0) return undefined;
  return { width, height, bitDepth, colourType };
}

/** Bytes of the filtered rows a plain PNG's image data inflates to. */
function decodedBytes(layout: PlainPngLayout): { rowBytes: number; total: number } {
  const rowBytes = Math.ceil((layout.width * CHANNELS[layout.colourType]! * layout.bitDepth) / 8);
  return { rowBytes, total: layout.height * (rowBytes + 1) };
}

/** True when checking the pixels here (pngPixelsIntact) is cheaper than a libvips decode. */
export function isCheckablePng(layout: PlainPngLayout): boolean {
  return decodedBytes(layout).total <= CHECKABLE_DECODED_BYTES;
}

/**
 * True when a plain PNG is intact: every chunk CRC matches, the IDAT stream is one complete zlib
 * stream (Adler-32 checked by zlib, nothing after it) that inflates to exactly the rows the
 * header declares, and every row starts with a valid filter type (0–4). That is all a decoder
 * needs from a non-interlaced PNG with a full palette, so libvips would decode it too. It
 * inflates on the calling thread: meant for PNGs that pass isCheckablePng.
 */
export function pngPixelsIntact(bytes: Uint8Array, layout: PlainPngLayout): boolean {
  for (const [typeOffset, length] of layout.chunks) {
    if (crc32(bytes.subarray(typeOffset, typeOffset + 4 + length)) !== be32(bytes, typeOffset + 4 + length)) return false;
  }
  const { rowBytes, total } = decodedBytes(layout);
  const compressed = layout.idat.length === 1 ? layout.idat[0]! : Buffer.concat(layout.idat);
  let result: { buffer: Buffer; engine: { bytesWritten: number } };
  try {
    // `info` reports how much input the stream consumed, so bytes after its end are seen.
    result = inflateSync(compressed, { maxOutputLength: total, info: true } as ZlibOptions) as unknown as typeof result;
  } catch {
    return false; // truncated, damaged, or more data than the header declares
  }
  if (result.buffer.length !== total || result.engine.bytesWritten !== compressed.length) return false;
  for (let row = 0; row < total; row += rowBytes + 1) if (result.buffer[row]! > 4) return false;
  return true;
}
