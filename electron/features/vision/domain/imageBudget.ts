import type { SessionImage } from './session';

/** Per-request image budget of a session. */
export interface ImageBudget {
  maxImages: number;
  maxPixels: number;
}

export interface BudgetSelection {
  included: Set<number>;
  omitted: number[];
  /** A sentence stating the policy when something was left out (returned to the caller). */
  note?: string;
}

/**
 * Chooses which session images travel with a request. Policy: the images this turn adds or
 * refers to are always sent; then the most recent other images, newest first, while both the
 * count and the pixel budget allow. Omitted images stay in the session and in the history as
 * a text placeholder; the caller is told which ones were left out.
 */
/** Pixels an image costs per request: its tiles when tiled, else the prepared image. */
export function sentPixels(image: SessionImage): number {
  return image.tiles ? image.tiles.reduce((sum, t) => sum + t.width * t.height, 0) : image.preparedWidth * image.preparedHeight;
}

export function selectImages(images: SessionImage[], budget: ImageBudget, mustInclude: ReadonlySet<number>): BudgetSelection {
  const included = new Set<number>();
  let pixels = 0;
  for (const image of images) {
    if (!mustInclude.has(image.index)) continue;
    included.add(image.index);
    pixels += sentPixels(image);
  }
  for (const image of [...images].reverse()) {
    if (included.has(image.index)) continue;
    const area = sentPixels(image);
    if (included.size + 1 > budget.maxImages || pixels + area > budget.maxPixels) continue;
    included.add(image.index);
    pixels += area;
  }
  const omitted = images.filter((i) => !included.has(i.index)).map((i) => i.index);
  if (omitted.length === 0) return { included, omitted };
  const megapixels = Math.round((budget.maxPixels / 1e6) * 10) / 10;
  return {
    included,
    omitted,
    note:
      `Session image budget (${budget.maxImages} images / ${megapixels} MP per request) exceeded: images ` +
      `${omitted.map((i) => `#${i}`).join(', ')} were not re-sent this turn (the newest images and the ones this turn uses were kept). ` +
      'Use zoom_image on an omitted image or start a new session to bring it back.',
  };
}
