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

/** Drops an alpha channel that is 255 everywhere and collapses R = G = B to grey: both lossless. */
export function reduceChannels(pixels: RawPixels): RawPixels {
  let { data, channels } = pixels;
  if ((channels === 2 || channels === 4) && isOpaque(data, channels)) {
    const keep = channels - 1;
    const out = new Uint8Array((data.length / channels) * keep);
    for (let i = 0, o = 0; i < data.length; i += channels, o += keep) for (let c = 0; c < keep; c++) out[o + c] = data[i + c]!;
    data = out;
    channels = keep;
  }
  if (channels === 3) {
    let grey = true;
    for (let i = 0; i < data.length && grey; i += 3) grey = data[i] === data[i + 1] && data[i] === data[i + 2];
    if (grey) {
      const out = new Uint8Array(data.length / 3);
      for (let i = 0, o = 0; i < data.length; i += 3, o++) out[o] = data[i]!;
      data = out;
      channels = 1;
    }
  }
  return { ...pixels, data, channels };
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
