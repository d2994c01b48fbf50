import { visionError } from './errors';

export { estimateVisionTokens } from '../../../../shared/imageBilling';

/** A region as fractions of the image (0..1), as zoom_image receives it. */
export interface FractionRegion {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface PixelRect {
  left: number;
  top: number;
  width: number;
  height: number;
}

/**
 * Converts a fractional region to a pixel rectangle of a width×height image (at least 1×1,
 * clamped inside the image). Errors: VISION_REGION_INVALID (outside 0..1, empty, overflowing).
 */
export function regionToPixels(region: FractionRegion, width: number, height: number): PixelRect {
  const { x, y, width: w, height: h } = region;
  const valid = [x, y, w, h].every((v) => Number.isFinite(v) && v >= 0 && v <= 1) && w > 0 && h > 0 && x + w <= 1 + 1e-9 && y + h <= 1 + 1e-9;
  if (!valid) throw visionError('VISION_REGION_INVALID', 'The region must be fractions within the image: 0 <= x, y; width, height > 0; x + width <= 1; y + height <= 1.', { region });
  const left = Math.min(width - 1, Math.floor(x * width));
  const top = Math.min(height - 1, Math.floor(y * height));
  return {
    left,
    top,
    width: Math.max(1, Math.min(width - left, Math.round(w * width))),
    height: Math.max(1, Math.min(height - top, Math.round(h * height))),
  };
}
