import type { PixelRect } from './imageMath';

/**
 * What a provider does with an image, as a size budget: images inside it reach the model at
 * full resolution; larger ones are shrunk by the provider (or refused), so we shrink them first
 * and send fewer bytes for the same pixels the model will see.
 */
export interface ImageLimits {
  /** Profile name, reported in benchmarks and logs. */
  profile: 'openai' | 'anthropic' | 'qwen-vl' | 'generic';
  /** Longest edge the model sees. */
  maxLongEdge: number;
  /** Shortest edge the model sees (OpenAI scales the short side down to 768); Infinity = none. */
  maxShortEdge: number;
  /** Pixel budget per image (Anthropic ~1.15 MP, Qwen-VL max_pixels); Infinity = none. */
  maxPixels: number;
  /** Edges are multiples of this (Qwen-VL: 28-px patches); 1 = any size. */
  patch: number;
}

/**
 * Legibility floor: a resize never takes the short edge below min(original short edge, 512 px).
 * At 512 px a 6000×600 strip keeps 16 px text at ≥ 13 px; when fitting the budget would go lower
 * the image is tiled instead of shrunk.
 */
export const MIN_SHORT_EDGE = 512;
/** Most tiles one image becomes; a longer strip is scaled so that this many tiles cover it. */
export const MAX_TILES = 8;
/** Neighbouring tiles overlap by this many pixels so text on a seam is whole in one of them. */
export const TILE_OVERLAP = 32;

/** Qwen-VL's default max_pixels on DashScope: 1280 visual tokens of 28×28 pixels. */
const QWEN_MAX_PIXELS = 1280 * 28 * 28;

/**
 * The limits of a provider, by wire protocol and (for OpenAI-compatible gateways) by what it
 * serves: OpenAI high detail fits 2048 px and scales the short side to 768 px; Anthropic
 * resizes above 1568 px or ~1.15 MP; Qwen-VL cuts 28-px patches within max_pixels. Any other
 * Chat Completions gateway keeps the configured long edge (IMAGE_MAX_EDGE, default 1280).
 * `edgeCap` (an explicitly configured IMAGE_MAX_EDGE) lowers every profile's long edge.
 */
export function imageLimitsFor(provider: { protocol: string; id: string; baseUrl: string; model: string }, genericMaxEdge: number, edgeCap?: number): ImageLimits {
  const limits = profileLimits(provider, genericMaxEdge);
  return edgeCap === undefined ? limits : { ...limits, maxLongEdge: Math.min(limits.maxLongEdge, edgeCap) };
}

function profileLimits(provider: { protocol: string; id: string; baseUrl: string; model: string }, genericMaxEdge: number): ImageLimits {
  if (provider.protocol === 'openai-responses') return { profile: 'openai', maxLongEdge: 2048, maxShortEdge: 768, maxPixels: Infinity, patch: 1 };
  if (provider.protocol === 'anthropic-messages') return { profile: 'anthropic', maxLongEdge: 1568, maxShortEdge: Infinity, maxPixels: 1_150_000, patch: 1 };
  if (provider.id === 'qwen' || /dashscope/i.test(provider.baseUrl) || /qwen.*vl|qvq/i.test(provider.model)) {
    return { profile: 'qwen-vl', maxLongEdge: 28 * 1280, maxShortEdge: Infinity, maxPixels: QWEN_MAX_PIXELS, patch: 28 };
  }
  return { profile: 'generic', maxLongEdge: genericMaxEdge, maxShortEdge: Infinity, maxPixels: Infinity, patch: 1 };
}

/** How one image is sent: untouched, resized once, or cut into labelled tiles. */
export type ImagePlan =
  | { kind: 'keep'; width: number; height: number }
  | { kind: 'resize'; width: number; height: number }
  | {
      kind: 'tiles';
      /** Size of the whole image at the tiling scale. */
      width: number;
      height: number;
      /** Tile rectangles in original pixels, in reading order (left to right, then top to bottom). */
      tiles: Array<{ source: PixelRect; width: number; height: number }>;
      /** True when even MAX_TILES tiles needed a scale below the legibility floor. */
      belowFloor: boolean;
    };

/** Largest scale ≤ 1 at which width×height fits every budget of `limits`. */
export function fitScale(width: number, height: number, limits: ImageLimits): number {
  const long = Math.max(width, height);
  const short = Math.min(width, height);
  return Math.min(1, limits.maxLongEdge / long, limits.maxShortEdge / short, Math.sqrt(limits.maxPixels / (width * height)));
}

/** Rounds a scaled edge to the patch grid (at least one patch), never above `max`. */
function snap(edge: number, patch: number, max = Infinity): number {
  const rounded = patch > 1 ? Math.max(patch, Math.floor(edge / patch) * patch) : Math.max(1, Math.round(edge));
  return Math.min(rounded, patch > 1 ? Math.floor(max / patch) * patch || patch : Math.floor(max));
}

/**
 * Plans how an oriented width×height image reaches the model. Inside the limits (and on the
 * patch grid) it is kept; otherwise it is resized to fit when the short edge stays at or above
 * min(short, MIN_SHORT_EDGE); otherwise (very wide or tall images) it is scaled so the short
 * edge is exactly that floor and cut along its long axis into overlapping tiles that each fit.
 */
export function planImage(width: number, height: number, limits: ImageLimits): ImagePlan {
  const scale = fitScale(width, height, limits);
  // Inside the budget nothing is re-encoded, off the patch grid or not: Qwen-VL snaps to its grid itself.
  if (scale >= 1) return { kind: 'keep', width, height };
  const short = Math.min(width, height);
  const floor = Math.min(short, MIN_SHORT_EDGE);
  if (scale * short >= floor - 0.5 || short <= limits.patch) {
    // Patch-grid edges round down, so a Qwen-VL image never overshoots max_pixels.
    return { kind: 'resize', width: snap(width * scale, limits.patch), height: snap(height * scale, limits.patch) };
  }
  return tilePlan(width, height, floor / short, limits);
}

function tilePlan(width: number, height: number, wantedScale: number, limits: ImageLimits): ImagePlan {
  const wide = width >= height;
  const long = wide ? width : height;
  const short = wide ? height : width;
  // A tile is (strip short edge) × tileLong: its short side stays under OpenAI's 768 px cap, so
  // only the long-edge and pixel budgets bound its length.
  const tileLongAt = (s: number) => snap(Math.min(limits.maxLongEdge, limits.maxPixels / (short * s)), limits.patch);
  const count = (s: number) => Math.max(1, Math.ceil((long * s - TILE_OVERLAP) / (tileLongAt(s) - TILE_OVERLAP)));
  let scale = wantedScale;
  if (count(scale) > MAX_TILES) {
    // Too long even for MAX_TILES tiles: the largest scale at which MAX_TILES tiles cover it
    // (count only grows with the scale, so bisection finds it); the plan says it is below the floor.
    let low = 0;
    let high = scale;
    for (let i = 0; i < 40; i++) {
      const mid = (low + high) / 2;
      if (count(mid) <= MAX_TILES) low = mid;
      else high = mid;
    }
    scale = low;
  }
  const tileLong = tileLongAt(scale);
  const n = Math.min(MAX_TILES, count(scale));
  const scaledLong = Math.round(long * scale);
  const scaledShort = snap(short * scale, limits.patch);
  const step = n === 1 ? 0 : (scaledLong - tileLong) / (n - 1);
  const tiles: Array<{ source: PixelRect; width: number; height: number }> = [];
  for (let i = 0; i < n; i++) {
    const startScaled = Math.round(i * step);
    const lengthScaled = Math.min(tileLong, scaledLong - startScaled);
    const from = Math.floor(startScaled / scale);
    const to = i === n - 1 ? long : Math.min(long, Math.ceil((startScaled + lengthScaled) / scale));
    const tileLength = snap(lengthScaled, limits.patch, tileLong);
    const source: PixelRect = wide ? { left: from, top: 0, width: to - from, height: short } : { left: 0, top: from, width: short, height: to - from };
    tiles.push({ source, width: wide ? tileLength : scaledShort, height: wide ? scaledShort : tileLength });
  }
  return { kind: 'tiles', width: wide ? scaledLong : scaledShort, height: wide ? scaledShort : scaledLong, tiles, belowFloor: scale < wantedScale };
}

/** Text label of tile `i` of `n` (reading order is documented in the label itself). */
export function tileLabel(i: number, n: number, source: PixelRect, original: { width: number; height: number }): string {
  const wide = original.width >= original.height;
  const span = wide ? `x ${source.left}–${source.left + source.width} of ${original.width} px` : `y ${source.top}–${source.top + source.height} of ${original.height} px`;
  return `tile ${i + 1} of ${n}, ${wide ? 'left to right' : 'top to bottom'}, ${span}`;
}
