import { visionError } from './errors';

/** True when the bytes are a PDF: "%PDF-" within the first 1024 bytes, as readers accept it. */
export function isPdf(bytes: Uint8Array): boolean {
  const head = new TextDecoder('latin1').decode(bytes.subarray(0, 1024));
  return head.includes('%PDF-');
}

/**
 * Pages chosen by a page-range argument such as "1-3,5,8-" (1-based, ascending, duplicates
 * removed; "8-" runs to the last page). Absent = every page. Errors: VISION_PDF_PAGES_INVALID
 * (malformed, page 0, a page past the end, or a reversed range).
 */
export function parsePageRange(spec: string | undefined, pageCount: number): number[] {
  if (spec === undefined || spec.trim() === '') return Array.from({ length: pageCount }, (_, i) => i + 1);
  const pages = new Set<number>();
  for (const part of spec.split(',')) {
    const match = /^\s*(\d+)\s*(?:(-)\s*(\d*)\s*)?$/.exec(part);
    if (!match) throw visionError('VISION_PDF_PAGES_INVALID', `"${spec.slice(0, 80)}" is not a page range (use e.g. "1-3,5").`, { pdfPages: spec.slice(0, 80) });
    const from = Number(match[1]);
    const to = match[2] ? (match[3] ? Number(match[3]) : pageCount) : from;
    if (from < 1 || to < from || to > pageCount) {
      throw visionError('VISION_PDF_PAGES_INVALID', `Pages "${part.trim()}" do not exist: the PDF has ${pageCount} page(s).`, { pdfPages: spec.slice(0, 80), pageCount });
    }
    for (let page = from; page <= to; page++) pages.add(page);
  }
  return [...pages].sort((a, b) => a - b);
}

/** Highest resolution a page is rendered at: 200 DPI reads 6 pt drawing text. */
export const PDF_RENDER_DPI = 200;

/**
 * Scale (pixels per PDF point) of a page render: PDF_RENDER_DPI, lowered so the page stays
 * within `maxPixels`. The render is the page's "original": the usual image budget rule then
 * fits it to the provider (resize, palette, tiles) and zoom_image crops it at this resolution.
 */
export function pdfRenderScale(widthPt: number, heightPt: number, maxPixels: number): number {
  const byDpi = PDF_RENDER_DPI / 72;
  return Math.min(byDpi, Math.sqrt(maxPixels / Math.max(1, widthPt * heightPt)));
}
