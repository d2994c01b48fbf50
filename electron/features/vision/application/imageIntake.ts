import { AppError } from '../../../../shared/errors';
import { visionError } from '../domain/errors';
import { sniffImage } from '../domain/imageSniff';
import type { ImageOrigin, SessionImage } from '../domain/session';
import type { ImageProcessor } from '../ports/imageProcessor';
import type { ImageSourceLoader } from '../ports/imageSources';
import type { ProgressReporter } from '../ports/runtime';
import type { NewSessionImage } from '../ports/sessionRepository';
import { mapSettled } from './concurrency';

export interface IntakeLimits {
  /** Byte cap per image (MAX_IMAGE_MB). */
  maxImageBytes: number;
  /** Pixel cap checked from the header before any decode (decompression bombs). */
  maxInputPixels: number;
  /** Sources loaded in parallel within one call. */
  loadConcurrency: number;
}

export interface IntakeDeps {
  loader: ImageSourceLoader;
  processor: ImageProcessor;
  limits: IntakeLimits;
}

/**
 * Sniffs and prepares one original: type from magic bytes, pixel limit from the header, then
 * a single decode by the processor. Errors: VISION_UNSUPPORTED_FORMAT, VISION_IMAGE_CORRUPT,
 * VISION_IMAGE_TOO_LARGE.
 */
export async function prepareOriginal(deps: IntakeDeps, bytes: Uint8Array, label: string, origin: ImageOrigin, index: number): Promise<NewSessionImage> {
  if (bytes.length > deps.limits.maxImageBytes) {
    throw visionError('VISION_IMAGE_TOO_LARGE', `${label} is ${bytes.length} bytes, over the ${deps.limits.maxImageBytes}-byte limit.`, { limitBytes: deps.limits.maxImageBytes });
  }
  const sniffed = sniffImage(bytes);
  if (sniffed.width * sniffed.height > deps.limits.maxInputPixels) {
    throw visionError('VISION_IMAGE_TOO_LARGE', `${label} declares ${sniffed.width}×${sniffed.height} pixels, over the ${deps.limits.maxInputPixels}-pixel limit.`, {
      width: sniffed.width,
      height: sniffed.height,
      limitPixels: deps.limits.maxInputPixels,
    });
  }
  const { original, prepared } = await deps.processor.prepare(bytes, sniffed);
  return {
    index,
    origin,
    label,
    originalSha256: original.sha256,
    originalMimeType: original.mimeType,
    originalWidth: original.width,
    originalHeight: original.height,
    preparedSha256: prepared.sha256,
    preparedMimeType: prepared.mimeType,
    preparedWidth: prepared.width,
    preparedHeight: prepared.height,
    originalBytes: bytes,
    preparedBytes: prepared.bytes,
  };
}

/**
 * Loads and prepares the sources of one turn. Content already in the session (same sha256 of
 * the original) is not decoded again: the existing image index is reused. Returns the images
 * to add and, per source, the session index it maps to. The first failing source fails the
 * whole call (with its position in `data.sourceIndex`), so a turn never sees half its images.
 */
export async function takeInSources(
  deps: IntakeDeps,
  sources: readonly string[],
  existing: readonly SessionImage[],
  options: { signal?: AbortSignal; onProgress?: ProgressReporter },
): Promise<{ newImages: NewSessionImage[]; indexes: number[] }> {
  let done = 0;
  const loaded = await mapSettled(sources, deps.limits.loadConcurrency, async (source) => {
    const result = await deps.loader.load(source, { maxBytes: deps.limits.maxImageBytes, ...(options.signal ? { signal: options.signal } : {}) });
    options.onProgress?.(++done, sources.length * 2, `loaded ${result.label}`);
    return result;
  });
  const knownBySha = new Map(existing.map((image) => [image.originalSha256, image.index]));
  const newImages: NewSessionImage[] = [];
  const indexes: number[] = [];
  let nextIndex = existing.length;
  for (const [position, outcome] of loaded.entries()) {
    if (outcome.status === 'rejected') throw withSourceIndex(outcome.reason, position);
    const { bytes, label } = outcome.value;
    const sha = deps.processor.sha256(bytes);
    const known = knownBySha.get(sha);
    if (known !== undefined) {
      indexes.push(known);
    } else {
      const image = await prepareOriginal(deps, bytes, label, 'source', nextIndex).catch((error: unknown) => {
        throw withSourceIndex(error, position);
      });
      newImages.push(image);
      knownBySha.set(sha, nextIndex);
      indexes.push(nextIndex++);
    }
    options.onProgress?.(sources.length + position + 1, sources.length * 2, `prepared ${label}`);
  }
  return { newImages, indexes };
}

/** Tells the caller which of several sources failed. */
function withSourceIndex(error: unknown, sourceIndex: number): unknown {
  if (!(error instanceof AppError)) return error;
  return new AppError(error.code, error.message, { retryable: error.retryable, data: { ...(error.data ?? {}), sourceIndex }, cause: error });
}
