import type { AppErrorData } from '../../../../../shared/errors';
import type { RenderedPdfPage } from '../../ports/pdfRenderer';

/** Limits one render job runs under inside the worker. */
export interface PdfJobLimits {
  maxPages: number;
  maxPixelsPerPage: number;
  /** Largest embedded image (width × height) pdf.js may decode; a bigger one fails its page. */
  maxImagePixels: number;
  /** Most bytes the document's compressed streams may inflate to, counted before pdf.js parses. */
  maxDecodedBytes: number;
}

/** The one request a render worker receives. */
export interface PdfJob {
  bytes: Uint8Array;
  pages?: string;
  limits: PdfJobLimits;
}

/** Messages from the worker: the page it starts (for time caps and error naming), pages, the end. */
export type PdfWorkerMessage =
  | { type: 'page-start'; number: number }
  | { type: 'page'; page: RenderedPdfPage }
  | { type: 'done'; pageCount: number }
  | { type: 'failed'; error: AppErrorData };
