import type { PixelRect } from '../domain/imageMath';
import type { SniffedImage } from '../domain/imageSniff';

/** Image bytes plus what the model needs to know about them. */
export interface EncodedImage {
  bytes: Uint8Array;
  mimeType: string;
  width: number;
  height: number;
  sha256: string;
}

/** Result of preparing one original for the model. */
export interface PreparedImage {
  /** Orientation-corrected size of the original. */
  original: { width: number; height: number; mimeType: string; sha256: string };
  /** What goes to the model: the original bytes themselves when `reencoded` is false. */
  prepared: EncodedImage;
  reencoded: boolean;
}

/**
 * Decodes, validates and (only when needed) resizes/re-encodes images. Implementations decode
 * with a pixel limit, apply EXIF orientation, keep the original bytes when nothing must change.
 * Error codes: VISION_IMAGE_CORRUPT (truncated/damaged data), VISION_IMAGE_TOO_LARGE (pixel limit).
 */
export interface ImageProcessor {
  /** Validates `bytes` (already sniffed as `sniffed`) and produces the model payload. */
  prepare(bytes: Uint8Array, sniffed: SniffedImage): Promise<PreparedImage>;
  /** Crops an oriented original at full resolution, then fits the crop to the model's edge limit. */
  crop(originalBytes: Uint8Array, rect: PixelRect): Promise<EncodedImage>;
  /** Hex sha256 of bytes (content-hash cache key). */
  sha256(bytes: Uint8Array): string;
}
