import type { Sharp, SharpOptions } from 'sharp';
import { exactPalette, isOpaque, keepsFidelity, looksPhotographic } from '../domain/pixelStats';
import { encodeIndexedPng } from './indexedPng';

type SharpFactory = (input: Uint8Array, options: SharpOptions) => Sharp;

/** Decoded pixels: interleaved 8-bit samples. */
export interface RawPixels {
  data: Uint8Array;
  width: number;
  height: number;
  channels: number;
}

/** How a PNG was encoded (benchmarks and tests report it). */
export type PngEncoding = 'indexed-exact' | 'palette-quantised' | 'truecolour';

/** True when every pixel of RGB(A) samples has R = G = B. */
function isGrey(data: Uint8Array, channels: 3 | 4): boolean {
  for (let i = 0; i < data.length; i += channels) if (data[i] !== data[i + 1] || data[i] !== data[i + 2]) return false;
  return true;
}

/**
 * Drops an alpha channel that is 255 everywhere and collapses R = G = B to grey: both lossless.
 * One copy at most (RGBA line art is decoded at 1280×960 for every resized drawing).
 */
export function reduceChannels(pixels: RawPixels): RawPixels {
  const { data, channels } = pixels;
  const alpha = (channels === 2 || channels === 4) && !isOpaque(data, channels);
  const grey = channels <= 2 || isGrey(data, channels as 3 | 4);
  const keep = (grey ? 1 : 3) + (alpha ? 1 : 0);
  if (keep === channels) return pixels;
  const pixelCount = data.length / channels;
  const out = new Uint8Array(pixelCount * keep);
  if (keep === 1) {
    for (let p = 0, i = 0; p < pixelCount; p++, i += channels) out[p] = data[i]!;
  } else if (keep === 2) {
    // Translucent RGBA whose colour is grey (grey + alpha input is kept as it is).
    for (let p = 0, i = 0, o = 0; p < pixelCount; p++, i += 4, o += 2) {
      out[o] = data[i]!;
      out[o + 1] = data[i + 3]!;
    }
  } else {
    // Opaque RGBA to RGB.
    for (let p = 0, i = 0, o = 0; p < pixelCount; p++, i += 4, o += 3) {
      out[o] = data[i]!;
      out[o + 1] = data[i + 1]!;
      out[o + 2] = data[i + 2]!;
    }
  }
  return { ...pixels, data: out, channels: keep };
}

/** Grey (1 channel) as RGB, grey + alpha (2) as RGBA: the layout a palette PNG decodes to. */
function greyAsColour(data: Uint8Array, channels: 1 | 2): Uint8Array {
  const pixels = data.length / channels;
  const out = new Uint8Array(pixels * (channels + 2));
  for (let p = 0, i = 0, o = 0; p < pixels; p++, i += channels, o += channels + 2) {
    out[o] = out[o + 1] = out[o + 2] = data[i]!;
    if (channels === 2) out[o + 3] = data[i + 1]!;
  }
  return out;
}

/**
 * Encodes resized pixels as the smallest PNG that keeps the picture: an exact indexed PNG when
 * there are ≤ 256 distinct values (bit-identical); else a libimagequant palette when it keeps
 * PALETTE_FIDELITY (PSNR ≥ 40 dB, mean difference ≤ 1 level); else lossless
 * truecolour. Photographic pixels skip the quantisation attempt (see looksPhotographic).
 */
export async function encodeSmallestPng(sharp: SharpFactory, input: RawPixels): Promise<{ bytes: Uint8Array; encoding: PngEncoding }> {
  const pixels = reduceChannels(input);
  const { data, width, height, channels } = pixels;
  const palette = exactPalette(data, channels);
  if (palette) return { bytes: encodeIndexedPng(width, height, channels, palette), encoding: 'indexed-exact' };
  const raw = { raw: { width, height, channels: channels as 1 | 2 | 3 | 4 } };
  const truecolour = () => sharp(data, raw).png({ compressionLevel: 6 }).toBuffer();
  if (looksPhotographic(data, channels)) return { bytes: await truecolour(), encoding: 'truecolour' };
  const quantised = await sharp(data, raw).png({ palette: true, colours: 256, dither: 0, effort: 1, compressionLevel: 9 }).toBuffer();
  // Compared as the RGB(A) the palette decodes to: libvips' 'b-w' conversion would drop the
  // alpha of grey + alpha, and a grey input's palette entries are checked on every channel.
  const decoded = sharp(quantised, {});
  const withAlpha = channels === 2 || channels === 4;
  const back = await (withAlpha ? decoded.ensureAlpha() : decoded.removeAlpha()).toColourspace('srgb').raw().toBuffer();
  const original = channels === 1 || channels === 2 ? greyAsColour(data, channels) : data;
  // A quantised palette of line art is a fraction of the truecolour size, so sizes are not compared.
  if (back.length === original.length && keepsFidelity(original, back)) return { bytes: quantised, encoding: 'palette-quantised' };
  return { bytes: await truecolour(), encoding: 'truecolour' };
}
