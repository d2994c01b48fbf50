import type { PixelRect } from '../domain/imageMath';
import type { SmallText } from '../domain/textLegibility';
import type { SniffedImage } from '../domain/imageSniff';

/** Image bytes plus what the model needs to know about them. */
export interface EncodedImage {
  bytes: Uint8Array;
  mimeType: string;
  width: number;
  height: number;
  sha256: string;
  /**
   * How the bytes were produced: the untouched original, JPEG, an exact indexed PNG (≤ 256
   * values, bit-identical), a quantised palette PNG that kept the fidelity threshold, or
   * lossless truecolour PNG.
   */
  encoding?: 'original' | 'jpeg' | 'indexed-exact' | 'palette-quantised' | 'truecolour';
}

/** One tile of an image too long to shrink legibly: its rectangle in the oriented original. */
export interface EncodedTile extends EncodedImage {
  source: PixelRect;
}

/** Result of preparing one original for the model. */
export interface PreparedImage {
  /** Orientation-corrected size of the original. */
  original: { width: number; height: number; mimeType: string; sha256: string };
  /**
   * What goes to the model: the original bytes themselves when `reencoded` is false. For a tiled
   * image this is the fitted overview (thumbnails, zoom canvas) and `tiles` go to the model.
   */
  prepared: EncodedImage;
  /** Tiles in reading order (left to right, or top to bottom), when the image is tiled. */
  tiles?: EncodedTile[];
  reencoded: boolean;
  /**
   * Set when a resized line-art image's text is below MIN_LEGIBLE_TEXT_PX as sent: its height
   * there and where to zoom (fractions of the image, as zoom_image takes them).
   */
  smallText?: SmallText;
}

/**
 * Decodes, validates and (only when needed) resizes/re-encodes or tiles images. Implementations
 * decode with a pixel limit, apply EXIF orientation, keep the original bytes when nothing must change.
 * Error codes: VISION_IMAGE_CORRUPT (truncated/damaged data), VISION_IMAGE_TOO_LARGE (pixel limit).
 */
export interface ImageProcessor {
  /**
   * Validates `bytes` (already sniffed as `sniffed`) and produces the model payload.
   * `knownSha256`: the caller's sha256 of `bytes`, so the original is hashed once per call.
   */
  prepare(bytes: Uint8Array, sniffed: SniffedImage, knownSha256?: string): Promise<PreparedImage>;
  /** Crops an oriented original at full resolution, then fits the crop to the provider's limits. */
  crop(originalBytes: Uint8Array, rect: PixelRect): Promise<EncodedImage>;
  /** Hex sha256 of bytes (content-hash cache key). */
  sha256(bytes: Uint8Array): string;
}
