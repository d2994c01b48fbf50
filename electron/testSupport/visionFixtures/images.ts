import { deflateSync } from 'node:zlib';
import sharp from 'sharp';

/** Test images generated at run time (nothing binary is checked in). */

/** A solid-colour PNG of width×height. */
export async function solidPng(width: number, height: number, rgb: [number, number, number] = [200, 30, 30]): Promise<Uint8Array> {
  return new Uint8Array(await sharp({ create: { width, height, channels: 3, background: { r: rgb[0], g: rgb[1], b: rgb[2] } } }).png().toBuffer());
}

/** A JPEG with an EXIF orientation tag (6 = rotate 90° clockwise to display). */
export async function orientedJpeg(width: number, height: number, orientation: number): Promise<Uint8Array> {
  return new Uint8Array(
    await sharp({ create: { width, height, channels: 3, background: { r: 10, g: 120, b: 200 } } })
      .jpeg()
      .withMetadata({ orientation })
      .toBuffer(),
  );
}

/**
 * A CAD-like line drawing: white sheet, frame, grid, anti-aliased diagonals, circles, dimension
 * text in several layer colours (or plotted monochrome) and a title block. At 4000×3000 it is a
 * PNG of about 3.5 MB, like an exported drawing sheet.
 */
export async function lineArtPng(width: number, height: number, style: 'colour' | 'monochrome' = 'colour'): Promise<Uint8Array> {
  const colours = style === 'colour' ? ['#000', '#c00', '#00a', '#080', '#a0a', '#0aa'] : ['#000', '#333', '#000', '#555'];
  const parts: string[] = [];
  let seed = 7;
  const rnd = (n: number) => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed % n;
  };
  for (let x = 100; x < width - 100; x += Math.round(width / 40)) parts.push(`<line x1="${x}" y1="100" x2="${x}" y2="${height - 100}" stroke="#000" stroke-width="2"/>`);
  for (let y = 100; y < height - 100; y += Math.round(height / 30)) parts.push(`<line x1="100" y1="${y}" x2="${width - 100}" y2="${y}" stroke="#000" stroke-width="1"/>`);
  const count = Math.round((width * height) / 55_000);
  for (let i = 0; i < count; i++) {
    const c = colours[i % colours.length];
    parts.push(`<line x1="${rnd(width)}" y1="${rnd(height)}" x2="${rnd(width)}" y2="${rnd(height)}" stroke="${c}" stroke-width="${1 + (i % 3)}"/>`);
    if (i % 3 === 0) parts.push(`<circle cx="${rnd(width)}" cy="${rnd(height)}" r="${10 + rnd(120)}" fill="none" stroke="${c}" stroke-width="2"/>`);
    if (i % 4 === 0) parts.push(`<text x="${rnd(width)}" y="${rnd(height)}" font-size="${14 + rnd(20)}" fill="${c}" font-family="sans-serif">Ø${rnd(200)} R${rnd(50)} ±0.${rnd(9)}</text>`);
  }
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="#fff"/>
    <rect x="50" y="50" width="${width - 100}" height="${height - 100}" fill="none" stroke="#000" stroke-width="8"/>${parts.join('')}
    <rect x="${width - 900}" y="${height - 350}" width="850" height="300" fill="#fff" stroke="#000" stroke-width="4"/></svg>`;
  return new Uint8Array(await sharp(Buffer.from(svg)).png({ compressionLevel: 9 }).toBuffer());
}

/** A photo-like image: smooth gradients plus deterministic noise (compresses like a photo). */
export async function photoJpeg(width: number, height: number): Promise<Uint8Array> {
  const raw = Buffer.alloc(width * height * 3);
  let seed = 12345;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      const noise = (seed >> 16) % 40;
      const i = (y * width + x) * 3;
      raw[i] = (x * 255) / width + noise;
      raw[i + 1] = (y * 255) / height + noise;
      raw[i + 2] = 128 + noise;
    }
  }
  return new Uint8Array(await sharp(raw, { raw: { width, height, channels: 3 } }).jpeg({ quality: 90 }).toBuffer());
}

function pngChunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

function crc32(bytes: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of bytes) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = crc & 1 ? (crc >>> 1) ^ 0xedb88320 : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}

/**
 * A decompression bomb: a few KB of PNG declaring a width×height canvas of zero bytes
 * (zlib squeezes the all-zero scanlines ~1000:1).
 */
export function pngBomb(width: number, height: number): Uint8Array {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 0; // greyscale
  // Only the first rows are actually present: a decoder must refuse by the header, not by running out.
  const rows = Buffer.alloc((width + 1) * Math.min(height, 64));
  return new Uint8Array(Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), pngChunk('IHDR', ihdr), pngChunk('IDAT', deflateSync(rows)), pngChunk('IEND', Buffer.alloc(0))]));
}
