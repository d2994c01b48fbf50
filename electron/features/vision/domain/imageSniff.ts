import { visionError } from './errors';

export type ImageFormat = 'png' | 'jpeg' | 'webp' | 'gif';

/** What the magic bytes and header say, read without decoding any pixels. */
export interface SniffedImage {
  format: ImageFormat;
  mimeType: `image/${ImageFormat}`;
  width: number;
  height: number;
}

const startsWith = (bytes: Uint8Array, prefix: number[], offset = 0) => prefix.every((b, i) => bytes[offset + i] === b);
const ascii = (bytes: Uint8Array, from: number, length: number) => String.fromCharCode(...bytes.subarray(from, from + length));
const be16 = (b: Uint8Array, o: number) => (b[o]! << 8) | b[o + 1]!;
const be32 = (b: Uint8Array, o: number) => ((b[o]! << 24) >>> 0) + ((b[o + 1]! << 16) | (b[o + 2]! << 8) | b[o + 3]!);
const le16 = (b: Uint8Array, o: number) => b[o]! | (b[o + 1]! << 8);
const le24 = (b: Uint8Array, o: number) => b[o]! | (b[o + 1]! << 8) | (b[o + 2]! << 16);

function corrupt(format: ImageFormat): never {
  throw visionError('VISION_IMAGE_CORRUPT', `The ${format.toUpperCase()} header is truncated or damaged.`, { format });
}

/**
 * Identifies an image from its magic bytes (never from a file name or a declared MIME type)
 * and reads its dimensions from the header. Errors: VISION_UNSUPPORTED_FORMAT (SVG, HTML,
 * empty or any other content), VISION_IMAGE_CORRUPT (a known format with a broken header).
 */
export function sniffImage(bytes: Uint8Array): SniffedImage {
  if (bytes.length === 0) throw visionError('VISION_UNSUPPORTED_FORMAT', 'The image is empty (0 bytes).');
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return sniffPng(bytes);
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return sniffJpeg(bytes);
  if (ascii(bytes, 0, 6) === 'GIF87a' || ascii(bytes, 0, 6) === 'GIF89a') {
    if (bytes.length < 10) corrupt('gif');
    return sized('gif', le16(bytes, 6), le16(bytes, 8));
  }
  if (ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 4) === 'WEBP') return sniffWebp(bytes);
  throw visionError('VISION_UNSUPPORTED_FORMAT', `Unsupported image content (${describeUnknown(bytes)}); PNG, JPEG, WebP and GIF are accepted.`, {
    detected: describeUnknown(bytes),
  });
}

function sized(format: ImageFormat, width: number, height: number): SniffedImage {
  if (width <= 0 || height <= 0) corrupt(format);
  return { format, mimeType: `image/${format}`, width, height };
}

function sniffPng(bytes: Uint8Array): SniffedImage {
  if (bytes.length < 24 || ascii(bytes, 12, 4) !== 'IHDR') corrupt('png');
  return sized('png', be32(bytes, 16), be32(bytes, 20));
}

/** Walks JPEG marker segments up to the first start-of-frame, which holds the dimensions. */
function sniffJpeg(bytes: Uint8Array): SniffedImage {
  let offset = 2;
  while (offset + 4 <= bytes.length) {
    if (bytes[offset] !== 0xff) corrupt('jpeg');
    const marker = bytes[offset + 1]!;
    if (marker === 0xff) {
      offset += 1; // fill byte
      continue;
    }
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd8)) {
      offset += 2;
      continue;
    }
    const length = be16(bytes, offset + 2);
    if (length < 2) corrupt('jpeg');
    const isStartOfFrame = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
    if (isStartOfFrame) {
      if (offset + 9 > bytes.length) corrupt('jpeg');
      return sized('jpeg', be16(bytes, offset + 7), be16(bytes, offset + 5));
    }
    if (marker === 0xd9 || marker === 0xda) break; // end of image / scan data before any frame header
    offset += 2 + length;
  }
  return corrupt('jpeg');
}

function sniffWebp(bytes: Uint8Array): SniffedImage {
  const chunk = ascii(bytes, 12, 4);
  if (chunk === 'VP8 ' && bytes.length >= 30) return sized('webp', le16(bytes, 26) & 0x3fff, le16(bytes, 28) & 0x3fff);
  if (chunk === 'VP8L' && bytes.length >= 25) {
    const bits = bytes[21]! | (bytes[22]! << 8) | (bytes[23]! << 16) | (bytes[24]! << 24);
    return sized('webp', (bits & 0x3fff) + 1, ((bits >>> 14) & 0x3fff) + 1);
  }
  if (chunk === 'VP8X' && bytes.length >= 30) return sized('webp', le24(bytes, 24) + 1, le24(bytes, 27) + 1);
  return corrupt('webp');
}

/** A name for refused content, so the error says what was actually sent. */
function describeUnknown(bytes: Uint8Array): string {
  const head = new TextDecoder('utf-8', { fatal: false }).decode(bytes.subarray(0, 512)).replace(/^\uFEFF/, '').trimStart().toLowerCase();
  if (head.includes('<svg')) return 'SVG';
  if (head.startsWith('<!doctype html') || head.startsWith('<html') || head.includes('<body')) return 'HTML';
  if (head.startsWith('<?xml')) return 'XML';
  if (head.startsWith('%pdf')) return 'PDF';
  return 'unknown binary';
}
