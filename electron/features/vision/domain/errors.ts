import { AppError } from '../../../../shared/errors';

/**
 * Vision error codes. Each carries a recovery hint in `data.hint` so an agent (or the UI)
 * knows what to do next without parsing the message.
 */
export const visionHints = {
  VISION_SOURCE_INVALID: 'Pass an http(s) URL, a local file path, a data URI or base64 image data.',
  VISION_IMAGE_TOO_LARGE: 'Send a smaller image (check MAX_IMAGE_MB and the pixel limit) or crop it first.',
  VISION_UNSUPPORTED_FORMAT: 'Convert the image to PNG, JPEG, WebP or GIF (SVG is not accepted).',
  VISION_IMAGE_CORRUPT: 'The file is truncated or damaged; re-export or re-download it.',
  VISION_PATH_NOT_ALLOWED: 'Use a file inside CADSIGHT_ALLOWED_ROOTS, or extend that list.',
  VISION_FILE_NOT_FOUND: 'Check the path; relative paths are resolved against the server working directory.',
  VISION_NOT_A_REGULAR_FILE: 'Pass a regular image file, not a directory, FIFO or device.',
  VISION_URL_BLOCKED: 'The URL points at a loopback/private address or an unsupported scheme; set CADSIGHT_ALLOW_PRIVATE_URLS=1 to allow private hosts.',
  VISION_DOWNLOAD_FAILED: 'The image could not be downloaded; check the URL or pass a local copy.',
  VISION_SOURCES_REQUIRED: 'A new session needs image_sources: pass at least one image, or pass session_id to follow up on an existing session.',
  VISION_SESSION_NOT_FOUND: 'The session does not exist or has expired: start a new session by calling analyze_images without session_id.',
  VISION_IMAGE_INDEX_INVALID: 'Use an image_index between 0 and the number of session images minus 1 (see list_sessions).',
  VISION_REGION_INVALID: 'Give region x, y, width, height as fractions of the image (0..1) with x+width <= 1 and y+height <= 1.',
  VISION_FFMPEG_MISSING: 'Install ffmpeg (e.g. apt install ffmpeg) or set FFMPEG_PATH to its location.',
  VISION_VIDEO_FAILED: 'ffmpeg could not read the video; check that it is a valid video file.',
  VISION_DOCUMENT_INVALID: 'Pass a document URL, HTML or markdown text.',
  VISION_DOCUMENT_NO_IMAGES: 'Pass a document that contains images: a URL, a local .md/.html path (or file:// URL) inside CADSIGHT_ALLOWED_ROOTS, or its markdown/HTML text. For images themselves use analyze_images.',
  VISION_RELATIVE_URL_UNRESOLVED: 'Pass the document by its URL so relative image URLs can be resolved, or use absolute URLs.',
  VISION_PDF_ENCRYPTED: 'The PDF is password-protected: save an unprotected copy (or print it to PDF) and send that.',
  VISION_PDF_INVALID: 'The PDF is damaged or not a PDF; re-export it, or send the pages as images.',
  VISION_PDF_PAGES_INVALID: 'Give pdf_pages as page numbers and ranges within the document, e.g. "1-3,5" (pages start at 1).',
  VISION_PDF_PAGE_TOO_LARGE: 'A page embeds an image too large to decode safely: export that page as an image, or pick other pages with pdf_pages.',
  VISION_PDF_DECODED_TOO_LARGE: 'The PDF inflates to far more data than its size suggests (a "PDF bomb"?): re-export it, or send the pages as images.',
  VISION_PDF_PAGE_TIMEOUT: 'A page took too long to render: export it as an image, or pick other pages with pdf_pages.',
  VISION_PDF_PAGE_TOO_COMPLEX: 'A page needs too much memory to render: export it as an image, or pick other pages with pdf_pages.',
  VISION_PDF_TOO_MANY_PAGES: 'Pick the pages to analyse with pdf_pages (e.g. "1-4"), or split the call.',
  VISION_DOCUMENT_IMAGE_SKIPPED: 'Raise max_images, or analyse this image separately with analyze_images.',
} as const;

export type VisionErrorCode = keyof typeof visionHints;

/** Builds a typed vision AppError with its recovery hint attached. */
export function visionError(code: VisionErrorCode, message: string, data: Record<string, unknown> = {}, retryable = false): AppError {
  return new AppError(code, message, { retryable, data: { hint: visionHints[code], ...data } });
}
