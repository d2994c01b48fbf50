/**
 * Is the text of a drawing still legible at the size it is sent, and where should an agent zoom
 * if not? Estimated from the sent pixels themselves (pure: an ink mask in, numbers out): the
 * connected components of ink shaped like characters or words, their median height, and the
 * grid cells holding most of them.
 */
import type { FractionRegion } from './imageMath';

/** Text shorter than this (pixels, as sent) is hard to read for vision models; zoom until it is this tall. */
export const MIN_LEGIBLE_TEXT_PX = 8;
/** Character-like components are at most this tall: anything taller is linework or a symbol. */
const MAX_CHAR_PX = 40;
/** Fewer character-like components than this is too little text to judge. */
const MIN_CHARS = 20;
/** The ink mask is labelled at most up to this many pixels (a 1280×960 image is 1.2 M). */
export const MAX_LABELLED_PIXELS = 4_000_000;
/** Grid over the image in which the densest cells are proposed for zooming. */
const GRID = 4;

export interface SmallText {
  /** Median height of the character-like components, in pixels of the analysed image. */
  textHeightPx: number;
  /** How many character-like components were found. */
  components: number;
  /** Up to three regions (fractions of the image) holding the most small text, each sized so a zoom makes it legible. */
  zoomRegions: FractionRegion[];
}

/**
 * Ink of interleaved 8-bit samples: 1 where a pixel's luminance is more than `threshold`
 * levels from the paper (the most common luminance: white sheets and dark model-space
 * screenshots alike), else 0. Alpha, when present, is ignored. The default keeps the
 * anti-aliased flanks of thin strokes: at 96 a resized diagonal breaks into dashes 2-3 px tall
 * that read as tiny text (4000 px CAD sheet at 1280 px: 9,453 components, 2,261 at 48).
 */
export function inkMask(data: Uint8Array, width: number, height: number, channels: number, threshold = 48): Uint8Array {
  const pixels = width * height;
  const luminance = new Uint8Array(pixels);
  const histogram = new Uint32Array(256);
  for (let p = 0, i = 0; p < pixels; p++, i += channels) {
    // Rec. 601 weights in fixed point (/1024).
    const value = channels >= 3 ? (data[i]! * 306 + data[i + 1]! * 601 + data[i + 2]! * 117) >> 10 : data[i]!;
    luminance[p] = value;
    histogram[value]!++;
  }
  let paper = 0;
  for (let v = 1; v < 256; v++) if (histogram[v]! > histogram[paper]!) paper = v;
  const mask = new Uint8Array(pixels);
  for (let p = 0; p < pixels; p++) mask[p] = Math.abs(luminance[p]! - paper) > threshold ? 1 : 0;
  return mask;
}

interface Box {
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
  area: number;
}

/**
 * Bounding boxes of the 8-connected components of `mask`: one raster pass with union-find over
 * typed arrays (labels are provisional runs, so a 1280×960 sheet stays in tens of milliseconds).
 */
export function componentBoxes(mask: Uint8Array, width: number, height: number): Box[] {
  const labels = new Int32Array(mask.length);
  // Label 0 is "no ink"; provisional labels start at 1. At most one new label per ink pixel.
  let parent = new Int32Array(1024);
  let next = 1;
  const find = (a: number): number => {
    while (parent[a] !== a) {
      parent[a] = parent[parent[a]!]!;
      a = parent[a]!;
    }
    return a;
  };
  const join = (a: number, b: number): number => {
    const ra = find(a);
    const rb = find(b);
    if (ra === rb) return ra;
    const [low, high] = ra < rb ? [ra, rb] : [rb, ra];
    parent[high] = low;
    return low;
  };
  for (let y = 0, p = 0; y < height; y++) {
    for (let x = 0; x < width; x++, p++) {
      if (!mask[p]) continue;
      // Already visited 8-neighbours: left, up-left, up, up-right (0 = none or no ink).
      const left = x > 0 ? labels[p - 1]! : 0;
      const upLeft = x > 0 && y > 0 ? labels[p - width - 1]! : 0;
      const up = y > 0 ? labels[p - width]! : 0;
      const upRight = y > 0 && x < width - 1 ? labels[p - width + 1]! : 0;
      let label = left || upLeft || up || upRight;
      if (label) {
        if (upLeft && upLeft !== label) label = join(label, upLeft);
        if (up && up !== label) label = join(label, up);
        if (upRight && upRight !== label) label = join(label, upRight);
      }
      if (!label) {
        if (next === parent.length) {
          const grown = new Int32Array(parent.length * 2);
          grown.set(parent);
          parent = grown;
        }
        parent[next] = next;
        label = next++;
      }
      labels[p] = label;
    }
  }
  // Boxes per root label: minX, minY, maxX, maxY, area.
  const slot = new Int32Array(next).fill(-1);
  const boxes: Box[] = [];
  for (let y = 0, p = 0; y < height; y++) {
    for (let x = 0; x < width; x++, p++) {
      if (!labels[p]) continue;
      const root = find(labels[p]!);
      let i = slot[root]!;
      if (i < 0) {
        i = slot[root] = boxes.length;
        boxes.push({ minX: x, minY: y, maxX: x, maxY: y, area: 0 });
      }
      const box = boxes[i]!;
      if (x < box.minX) box.minX = x;
      if (x > box.maxX) box.maxX = x;
      box.maxY = y;
      box.area++;
    }
  }
  return boxes;
}

/**
 * A glyph or a run of glyphs: not taller than MAX_CHAR_PX, at least 3 px tall (shorter ink is
 * dots, dashes and stroke fragments; text that small is unreadable anyway), not a long thin stroke.
 */
function characterLike(box: Box): boolean {
  const w = box.maxX - box.minX + 1;
  const h = box.maxY - box.minY + 1;
  return h >= 3 && h <= MAX_CHAR_PX && w <= 12 * h && box.area >= 3 && box.area >= 0.15 * w * h;
}

/**
 * Small text of an image (its ink mask, width × height): undefined when the image has too
 * little character-like ink to judge or its text is at least MIN_LEGIBLE_TEXT_PX tall;
 * otherwise the median text height and up to three zoom regions. Images larger than
 * MAX_LABELLED_PIXELS are not analysed (the work is capped).
 */
export function findSmallText(mask: Uint8Array, width: number, height: number): SmallText | undefined {
  if (width * height > MAX_LABELLED_PIXELS || width < 1 || height < 1) return undefined;
  const chars = componentBoxes(mask, width, height).filter(characterLike);
  if (chars.length < MIN_CHARS) return undefined;
  const heights = chars.map((b) => b.maxY - b.minY + 1).sort((a, b) => a - b);
  const textHeightPx = heights[Math.floor(heights.length / 2)]!;
  if (textHeightPx >= MIN_LEGIBLE_TEXT_PX) return undefined;
  const counts = new Array<number>(GRID * GRID).fill(0);
  for (const b of chars) {
    const cx = Math.min(GRID - 1, Math.floor((((b.minX + b.maxX) / 2) * GRID) / width));
    const cy = Math.min(GRID - 1, Math.floor((((b.minY + b.maxY) / 2) * GRID) / height));
    counts[cy * GRID + cx]!++;
  }
  // A region 1/zoom of the image on each side makes the median text MIN_LEGIBLE_TEXT_PX tall.
  const size = floor3(Math.min(1, textHeightPx / MIN_LEGIBLE_TEXT_PX));
  const zoomRegions = counts
    .map((count, cell) => ({ count, cell }))
    .filter((c) => c.count > 0)
    .sort((a, b) => b.count - a.count || a.cell - b.cell)
    .slice(0, 3)
    .map(({ cell }) => {
      const centre = { x: ((cell % GRID) + 0.5) / GRID, y: (Math.floor(cell / GRID) + 0.5) / GRID };
      const clamp = (c: number) => floor3(Math.min(1 - size, Math.max(0, c - size / 2)));
      return { x: clamp(centre.x), y: clamp(centre.y), width: size, height: size };
    });
  return { textHeightPx, components: chars.length, zoomRegions };
}

// Rounded down: a region and its offset stay inside 0..1 (zoom_image refuses x + width > 1).
const floor3 = (n: number) => Math.floor(n * 1000) / 1000;
