import { AppError } from '../../../../shared/errors';
import { visionError } from '../domain/errors';
import { sniffImage } from '../domain/imageSniff';
import { isPdf } from '../domain/pdfPages';
import type { ImageOrigin, SessionImage } from '../domain/session';
import type { ImageProcessor } from '../ports/imageProcessor';
import type { ImageSourceLoader } from '../ports/imageSources';
import type { PdfRenderer } from '../ports/pdfRenderer';
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
  /** Byte cap of a PDF source (drawing sets are larger than single images). */
  maxPdfBytes: number;
  /** Most PDF pages one call renders (all PDF sources together); pick others with pdf_pages. */
  maxPdfPages: number;
}

export interface IntakeDeps {
  loader: ImageSourceLoader;
  processor: ImageProcessor;
  pdf: PdfRenderer;
  limits: IntakeLimits;
}

/**
 * Sniffs and prepares one original: type from magic bytes, pixel limit from the header, then
 * a single decode by the processor. Errors: VISION_UNSUPPORTED_FORMAT, VISION_IMAGE_CORRUPT,
 * VISION_IMAGE_TOO_LARGE.
 */
export async function prepareOriginal(
  deps: IntakeDeps,
  bytes: Uint8Array,
  label: string,
  origin: ImageOrigin,
  index: number,
  extras: { text?: string; sha256?: string } = {},
): Promise<NewSessionImage> {
  const { text } = extras;
  // A rendered PDF page is our own output (bounded by pixels), not an input to cap by bytes.
  if (origin !== 'pdf-page' && bytes.length > deps.limits.maxImageBytes) {
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
  const { original, prepared, tiles, smallText } = await deps.processor.prepare(bytes, sniffed, extras.sha256);
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
    ...(text ? { text } : {}),
    ...(smallText ? { smallText } : {}),
    ...(tiles
      ? {
          tiles: tiles.map((t) => ({ sha256: t.sha256, mimeType: t.mimeType, width: t.width, height: t.height, source: t.source })),
          tileBytes: tiles.map((t) => t.bytes),
        }
      : {}),
  };
}

/**
 * Renders the chosen pages of a PDF and prepares each as a session image labelled
 * "<source> p.N/M", carrying its text layer. Errors: the PdfRenderer codes, and
 * VISION_PDF_TOO_MANY_PAGES when earlier PDFs of the call used up `pagesLeft`.
 */
export async function preparePdfPages(
  deps: IntakeDeps,
  bytes: Uint8Array,
  label: string,
  firstIndex: number,
  options: { pages?: string; pagesLeft: number; signal?: AbortSignal },
): Promise<NewSessionImage[]> {
  const maxPixelsPerPage = Math.min(deps.limits.maxInputPixels, PDF_PAGE_PIXELS);
  const rendered = await deps.pdf.render(bytes, { ...(options.pages !== undefined ? { pages: options.pages } : {}), maxPages: options.pagesLeft, maxPixelsPerPage, ...(options.signal ? { signal: options.signal } : {}) });
  const images: NewSessionImage[] = [];
  for (const page of rendered.pages) {
    images.push(await prepareOriginal(deps, page.png, `${label} p.${page.number}/${rendered.pageCount}`, 'pdf-page', firstIndex + images.length, { text: page.text }));
  }
  return images;
}

/** Pixels of one rendered page: an A3 sheet at ~200 DPI; zoom_image crops this render. */
const PDF_PAGE_PIXELS = 16_000_000;

/**
 * Loads and prepares the sources of one turn. Content already in the session (same sha256 of
 * the original) is not decoded again: the existing image index is reused. A PDF source becomes
 * one image per chosen page (`pdfPages`, e.g. "1-3"). Returns the images to add and, per
 * source, the session indexes it maps to. The first failing source fails the whole call (with
 * its position in `data.sourceIndex`), so a turn never sees half its images.
 */
export async function takeInSources(
  deps: IntakeDeps,
  sources: readonly string[],
  existing: readonly SessionImage[],
  options: { signal?: AbortSignal; onProgress?: ProgressReporter; pdfPages?: string },
): Promise<{ newImages: NewSessionImage[]; indexes: number[] }> {
  let done = 0;
  const maxBytes = Math.max(deps.limits.maxImageBytes, deps.limits.maxPdfBytes);
  const loaded = await mapSettled(sources, deps.limits.loadConcurrency, async (source) => {
    const result = await deps.loader.load(source, { maxBytes, ...(options.signal ? { signal: options.signal } : {}) });
    options.onProgress?.(++done, sources.length * 2, `loaded ${result.label}`);
    return result;
  });
  const knownBySha = new Map(existing.map((image) => [image.originalSha256, image.index]));
  const newImages: NewSessionImage[] = [];
  const indexes: number[] = [];
  let nextIndex = existing.length;
  let pagesLeft = deps.limits.maxPdfPages;
  for (const [position, outcome] of loaded.entries()) {
    if (outcome.status === 'rejected') throw withSourceIndex(outcome.reason, position);
    const { bytes, label } = outcome.value;
    if (isPdf(bytes)) {
      const pages = await preparePdfPages(deps, bytes, label, nextIndex, { ...(options.pdfPages !== undefined ? { pages: options.pdfPages } : {}), pagesLeft, ...(options.signal ? { signal: options.signal } : {}) }).catch((error: unknown) => {
        throw withSourceIndex(error, position);
      });
      pagesLeft -= pages.length;
      for (const page of pages) {
        const known = knownBySha.get(page.originalSha256);
        if (known !== undefined) indexes.push(known);
        else {
          newImages.push({ ...page, index: nextIndex });
          knownBySha.set(page.originalSha256, nextIndex);
          indexes.push(nextIndex++);
        }
      }
    } else {
      const sha = deps.processor.sha256(bytes);
      const known = knownBySha.get(sha);
      if (known !== undefined) {
        indexes.push(known);
      } else {
        const image = await prepareOriginal(deps, bytes, label, 'source', nextIndex, { sha256: sha }).catch((error: unknown) => {
          throw withSourceIndex(error, position);
        });
        newImages.push(image);
        knownBySha.set(sha, nextIndex);
        indexes.push(nextIndex++);
      }
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
