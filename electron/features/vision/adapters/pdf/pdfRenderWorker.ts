// Worker-thread entry (bundled as dist/node/pdfWorker.js): renders one PDF job with pdf.js and
// exits. Hostile PDFs run out of time, heap or budget here, never in the server's own thread.
import { createRequire } from 'node:module';
import path from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import { toAppErrorData } from '../../../../../shared/errors';
import { visionError } from '../../domain/errors';
import { parsePageRange, pdfRenderScale } from '../../domain/pdfPages';
import { measureStreamBudget, pageReaching } from './pdfStreamBudget';
import type { PdfJob, PdfWorkerMessage } from './pdfWorkerProtocol';

/** Most text-layer characters kept per page: a drawing's notes, not a whole specification. */
const MAX_PAGE_TEXT = 8_000;
const IMAGE_REMOVED = 'Image exceeded maximum allowed size';

type CanvasFactory = { create(w: number, h: number): { canvas: { toBuffer(type: 'image/png'): Buffer } } };

/** Maps pdf.js failures to typed errors; its messages carry no paths, but are kept short anyway. */
function pdfError(error: unknown, page?: number): Error {
  const name = (error as { name?: string } | undefined)?.name;
  if (name === 'PasswordException') return visionError('VISION_PDF_ENCRYPTED', 'The PDF is password-protected.');
  if (error instanceof Error && 'code' in error && typeof error.code === 'string' && error.code.startsWith('VISION_')) return error;
  const detail = error instanceof Error ? error.message.split('\n')[0]!.slice(0, 160) : String(error).slice(0, 160);
  const where = page === undefined ? '' : ` (page ${page})`;
  return visionError('VISION_PDF_INVALID', `The PDF could not be read${where} (damaged or not a PDF).`, { detail, ...(page === undefined ? {} : { page }) });
}

async function render(job: PdfJob, post: (message: PdfWorkerMessage) => void): Promise<void> {
  // pdf.js reports an over-sized image only as a warning (and drops the image): catch it so
  // the page is refused by name instead of analysed without its drawing.
  let imageRemoved = false;
  console.warn = (...args: unknown[]) => {
    if (String(args[0]).includes(IMAGE_REMOVED)) imageRemoved = true;
  };
  console.log = () => undefined;
  const budget = await measureStreamBudget(job.bytes, job.limits.maxDecodedBytes);
  const { getDocument } = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const fontsDir = `${path.join(path.dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json')), 'standard_fonts')}${path.sep}`;
  const task = getDocument({ data: job.bytes, isEvalSupported: false, useSystemFonts: false, standardFontDataUrl: fontsDir, verbosity: 1, maxImageSize: job.limits.maxImagePixels });
  const doc = await task.promise.catch((error: unknown) => {
    throw pdfError(error);
  });
  if (budget.overBudgetObject !== undefined) {
    const refs: number[] = [];
    for (let n = 1; n <= doc.numPages; n++) refs.push((await doc.getPage(n)).ref?.num ?? -1);
    const page = pageReaching(budget.objects, refs, budget.overBudgetObject);
    const mib = Math.round(job.limits.maxDecodedBytes / 2 ** 20);
    throw visionError('VISION_PDF_DECODED_TOO_LARGE', `${page ? `Page ${page} of the PDF` : 'The PDF'} inflates to more than ${mib} MiB of content; it was not rendered.`, {
      ...(page ? { page } : {}),
      maxDecodedBytes: job.limits.maxDecodedBytes,
    });
  }
  const chosen = parsePageRange(job.pages, doc.numPages);
  if (chosen.length > job.limits.maxPages) {
    throw visionError('VISION_PDF_TOO_MANY_PAGES', `${chosen.length} pages were chosen; at most ${job.limits.maxPages} are analysed per call.`, { pageCount: doc.numPages, chosen: chosen.length, maxPages: job.limits.maxPages });
  }
  for (const number of chosen) {
    post({ type: 'page-start', number });
    try {
      const page = await doc.getPage(number);
      const base = page.getViewport({ scale: 1 });
      const viewport = page.getViewport({ scale: pdfRenderScale(base.width, base.height, job.limits.maxPixelsPerPage) });
      const { canvas } = (doc as unknown as { canvasFactory: CanvasFactory }).canvasFactory.create(Math.ceil(viewport.width), Math.ceil(viewport.height));
      await page.render({ canvas: canvas as unknown as HTMLCanvasElement, viewport }).promise;
      if (imageRemoved) {
        throw visionError('VISION_PDF_PAGE_TOO_LARGE', `Page ${number} of the PDF holds an image larger than ${Math.round(job.limits.maxImagePixels / 1e6)} megapixels; it was not rendered.`, {
          page: number,
          maxImagePixels: job.limits.maxImagePixels,
        });
      }
      const content = await page.getTextContent();
      const text = content.items
        .map((item) => ('str' in item ? `${item.str}${item.hasEOL ? '\n' : ' '}` : ''))
        .join('')
        .replace(/[ \t]+\n/g, '\n')
        .trim();
      const png = canvas.toBuffer('image/png');
      post({ type: 'page', page: { number, png: new Uint8Array(png.buffer, png.byteOffset, png.byteLength), text: text.length > MAX_PAGE_TEXT ? `${text.slice(0, MAX_PAGE_TEXT)}…` : text } });
      page.cleanup();
    } catch (error) {
      throw pdfError(error, number);
    }
  }
  post({ type: 'done', pageCount: doc.numPages });
}

const port = parentPort;
if (!port) throw new Error('pdfWorker must run in a worker thread');
const post = (message: PdfWorkerMessage): void => port.postMessage(message);
render(workerData as PdfJob, post).catch((error: unknown) => post({ type: 'failed', error: toAppErrorData(pdfError(error)) }));
