/** One rendered page: PNG bytes and the page's own text (its text layer, possibly empty). */
export interface RenderedPdfPage {
  /** 1-based page number. */
  number: number;
  png: Uint8Array;
  text: string;
}

/**
 * Renders PDF pages. `pages` is a page-range argument ("1-3,5"; absent = all); more than
 * `maxPages` chosen pages is refused before anything is rendered; each page is rendered at
 * pdfRenderScale within `maxPixelsPerPage`.
 * Error codes: VISION_PDF_ENCRYPTED (password-protected), VISION_PDF_INVALID (damaged / not a
 * PDF / a page fails to render), VISION_PDF_PAGES_INVALID, VISION_PDF_TOO_MANY_PAGES.
 */
export interface PdfRenderer {
  render(bytes: Uint8Array, options: { pages?: string; maxPages: number; maxPixelsPerPage: number; signal?: AbortSignal }): Promise<{ pageCount: number; pages: RenderedPdfPage[] }>;
}
