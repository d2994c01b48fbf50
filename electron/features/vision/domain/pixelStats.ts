/**
 * Pixel statistics behind the PNG encoding choice (pure: interleaved 8-bit samples in, numbers out).
 * Channels are 1 (grey), 2 (grey + alpha), 3 (RGB) or 4 (RGBA).
 */

/**
 * Fidelity a quantised palette PNG must keep to replace lossless truecolour: PSNR over all
 * channels ≥ 40 dB and mean absolute difference ≤ 1.0 level of 255. Measured on the benchmark
 * images: the 4000×3000 colour CAD sheet resampled to 1280 px (Lanczos-2) quantises at
 * 41.4 dB / 0.67 (anti-aliased edges shift a little, lines and text stay put); a photo at
 * 35.6 dB / 3.45 (visible banding) stays truecolour.
 */
export const PALETTE_FIDELITY = { minPsnrDb: 40, maxMeanAbsDiff: 1.0 } as const;

/** Colours of an image with ≤ `max` distinct pixel values, each pixel's palette index; undefined when there are more. */
export interface ExactPalette {
  /** Pixel values, `channels` samples each, in order of first appearance. */
  entries: Uint8Array;
  count: number;
  indexes: Uint8Array;
}

const key = (data: Uint8Array, i: number, channels: number): number => {
  switch (channels) {
    case 1:
      return data[i]!;
    case 2:
      return (data[i]! << 8) | data[i + 1]!;
    case 3:
      return (data[i]! << 16) | (data[i + 1]! << 8) | data[i + 2]!;
    default:
      return ((data[i]! << 24) | (data[i + 1]! << 16) | (data[i + 2]! << 8) | data[i + 3]!) >>> 0;
  }
};

/** The exact palette of an image that has at most `max` (≤ 256) distinct pixel values. */
export function exactPalette(data: Uint8Array, channels: number, max = 256): ExactPalette | undefined {
  const pixels = Math.floor(data.length / channels);
  const indexes = new Uint8Array(pixels);
  const lookup = new Map<number, number>();
  const entries = new Uint8Array(max * channels);
  let lastKey = -1;
  let lastIndex = 0;
  for (let p = 0, i = 0; p < pixels; p++, i += channels) {
    const k = key(data, i, channels);
    if (k !== lastKey) {
      let index = lookup.get(k);
      if (index === undefined) {
        if (lookup.size >= max) return undefined;
        index = lookup.size;
        lookup.set(k, index);
        entries.set(data.subarray(i, i + channels), index * channels);
      }
      lastKey = k;
      lastIndex = index;
    }
    indexes[p] = lastIndex;
  }
  return { entries: entries.slice(0, lookup.size * channels), count: lookup.size, indexes };
}

/** True when every alpha sample is 255 (or there is no alpha channel). */
export function isOpaque(data: Uint8Array, channels: number): boolean {
  if (channels !== 2 && channels !== 4) return true;
  for (let i = channels - 1; i < data.length; i += channels) if (data[i] !== 255) return false;
  return true;
}

/**
 * Heuristic skip for quantisation: an image where over a quarter of a sample of pixels are
 * distinct colours is photographic (noise, gradients) and would fail PALETTE_FIDELITY anyway,
 * so it is not worth the ~0.4 s quantisation attempt. The colour CAD sheet resampled to 1280 px
 * has ~14 % (18 % with Lanczos-3, whose ringing adds colours).
 */
export function looksPhotographic(data: Uint8Array, channels: number): boolean {
  const pixels = Math.floor(data.length / channels);
  const stride = Math.max(1, Math.floor(pixels / 20_000));
  const seen = new Set<number>();
  let sampled = 0;
  for (let p = 0; p < pixels; p += stride, sampled++) seen.add(key(data, p * channels, channels));
  return seen.size > sampled / 4;
}

/** How far two same-shaped images are apart: largest sample difference, mean absolute difference, PSNR (Infinity when equal). */
export function compareSamples(a: Uint8Array, b: Uint8Array): { maxDiff: number; meanAbsDiff: number; psnrDb: number } {
  if (a.length !== b.length) throw new RangeError('compareSamples needs equal-length sample arrays');
  let max = 0;
  let sum = 0;
  let squares = 0;
  for (let i = 0; i < a.length; i++) {
    const d = Math.abs(a[i]! - b[i]!);
    if (d > max) max = d;
    sum += d;
    squares += d * d;
  }
  const mse = squares / Math.max(1, a.length);
  return { maxDiff: max, meanAbsDiff: sum / Math.max(1, a.length), psnrDb: mse === 0 ? Infinity : 10 * Math.log10((255 * 255) / mse) };
}

/** True when a quantised rendering keeps PALETTE_FIDELITY against the original samples. */
export function keepsFidelity(original: Uint8Array, quantised: Uint8Array): boolean {
  const { psnrDb, meanAbsDiff } = compareSamples(original, quantised);
  return psnrDb >= PALETTE_FIDELITY.minPsnrDb && meanAbsDiff <= PALETTE_FIDELITY.maxMeanAbsDiff;
}
