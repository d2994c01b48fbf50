import { visionError } from './errors';

const STANDARD = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const URL_SAFE = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

const decodeTable = (() => {
  const table = new Int16Array(128).fill(-1);
  for (let i = 0; i < 64; i++) {
    table[STANDARD.charCodeAt(i)] = i;
    table[URL_SAFE.charCodeAt(i)] = i;
  }
  return table;
})();

/** Most bytes a base64 text of `length` characters (whitespace included) can decode to. */
export function maxDecodedBytes(length: number): number {
  return Math.floor((length * 3) / 4);
}

/** True when `text` (whitespace ignored) only uses one base64 alphabet plus optional padding. */
export function looksLikeBase64(text: string): boolean {
  const compact = text.replace(/\s+/g, '');
  if (compact.length === 0 || compact.length % 4 === 1) return false;
  if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(compact)) return false;
  const standard = /[+/]/.test(compact);
  const urlSafe = /[-_]/.test(compact);
  return !(standard && urlSafe);
}

/**
 * Decodes standard or URL-safe base64 (padding optional, whitespace ignored). The size is
 * checked from the text length BEFORE any allocation, so a huge string cannot exhaust memory.
 * Errors: VISION_IMAGE_TOO_LARGE (decoded size would exceed maxBytes),
 * VISION_SOURCE_INVALID (bad characters, mixed alphabets, impossible length or padding).
 */
export function decodeBase64(text: string, maxBytes: number): Uint8Array {
  // Whitespace can only shrink the result, so the raw length is a safe upper bound.
  if (maxDecodedBytes(text.length) > maxBytes) {
    const compactLength = text.replace(/\s+/g, '').length;
    if (maxDecodedBytes(compactLength) - 2 > maxBytes) {
      throw visionError('VISION_IMAGE_TOO_LARGE', `Base64 data decodes to more than ${maxBytes} bytes.`, { limitBytes: maxBytes });
    }
  }
  const compact = text.replace(/\s+/g, '');
  if (!looksLikeBase64(compact)) {
    throw visionError('VISION_SOURCE_INVALID', 'The base64 data contains invalid characters, mixes alphabets or has a bad length.');
  }
  const body = compact.replace(/=+$/, '');
  const padding = compact.length - body.length;
  if (padding > 0 && compact.length % 4 !== 0) {
    throw visionError('VISION_SOURCE_INVALID', 'The base64 padding is inconsistent with its length.');
  }
  const outLength = Math.floor((body.length * 3) / 4);
  if (outLength > maxBytes) {
    throw visionError('VISION_IMAGE_TOO_LARGE', `Base64 data decodes to ${outLength} bytes, over the ${maxBytes}-byte limit.`, { limitBytes: maxBytes });
  }
  const out = new Uint8Array(outLength);
  let buffer = 0;
  let bits = 0;
  let written = 0;
  for (let i = 0; i < body.length; i++) {
    buffer = (buffer << 6) | decodeTable[body.charCodeAt(i)]!;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[written++] = (buffer >> bits) & 0xff;
    }
  }
  // Non-zero leftover bits mean the text is not a canonical encoding of any byte string.
  if ((buffer & ((1 << bits) - 1)) !== 0) {
    throw visionError('VISION_SOURCE_INVALID', 'The base64 data has non-zero trailing bits.');
  }
  return out;
}
