import { createRequire } from 'node:module';
import path from 'node:path';
import { visionError } from '../domain/errors';
import { parsePageRange, pdfRenderScale } from '../domain/pdfPages';
import type { PdfRenderer, RenderedPdfPage } from '../ports/pdfRenderer';

type PdfJs = typeof import('pdfjs-dist/legacy/build/pdf.mjs');

/** Most text-layer characters kept per page: a drawing's notes, not a whole specification. */
const MAX_PAGE_TEXT = 8_000;

/** Maps pdf.js failures to typed errors; its messages carry no paths, but are kept short anyway. */
function pdfError(error: unknown): Error {
  const name = (error as { name?: string } | undefined)?.name;
  if (name === 'PasswordException') return visionError('VISION_PDF_ENCRYPTED', 'The PDF is password-protected.');
  if (error instanceof Error && 'code' in error && typeof (error as { code: unknown }).code === 'string' && (error as { code: string }).code.startsWith('VISION_')) return error;
  const detail = error instanceof Error ? error.message.split('\n')[0]!.slice(0, 160) : String(error).slice(0, 160);
  return visionError('VISION_PDF_INVALID', 'The PDF could not be read (damaged or not a PDF).', { detail });
}

/**
 * pdf.js (pdfjs-dist, Apache-2.0) renderer on @napi-rs/canvas, which pdf.js's Node build uses
 * for its canvases. No eval, no system fonts (the bundled standard fonts instead), and the
 * document is destroyed after each call so its worker state does not pile up.
 */
export function createPdfjsRenderer(): PdfRenderer {
  let loaded: Promise<PdfJs> | undefined;
  // Loaded on first use: pdf.js adds ~1 s to the first PDF call, never to start-up.
  const pdfjs = () => (loaded ??= import('pdfjs-dist/legacy/build/pdf.mjs'));
  const fontsDir = () => `${path.join(path.dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json')), 'standard_fonts')}${path.sep}`;

  return {
    async render(bytes, options) {
      const { getDocument } = await pdfjs();
      // pdf.js takes ownership of (and detaches) the buffer it is given: hand it a copy.
      const task = getDocument({ data: bytes.slice(), isEvalSupported: false, useSystemFonts: false, standardFontDataUrl: fontsDir(), verbosity: 0 });
      let doc: Awaited<typeof task.promise>;
      try {
        doc = await task.promise;
      } catch (error) {
        await task.destroy().catch(() => undefined);
        throw pdfError(error);
      }
      try {
        const chosen = parsePageRange(options.pages, doc.numPages);
        if (chosen.length > options.maxPages) {
          throw visionError('VISION_PDF_TOO_MANY_PAGES', `${chosen.length} pages were chosen; at most ${options.maxPages} are analysed per call.`, { pageCount: doc.numPages, chosen: chosen.length, maxPages: options.maxPages });
        }
        const pages: RenderedPdfPage[] = [];
        for (const number of chosen) {
          options.signal?.throwIfAborted();
          const page = await doc.getPage(number);
          const base = page.getViewport({ scale: 1 });
          const viewport = page.getViewport({ scale: pdfRenderScale(base.width, base.height, options.maxPixelsPerPage) });
          const { canvas } = (doc as unknown as { canvasFactory: { create(w: number, h: number): { canvas: { toBuffer(type: 'image/png'): Buffer } } } }).canvasFactory.create(Math.ceil(viewport.width), Math.ceil(viewport.height));
          await page.render({ canvas: canvas as unknown as HTMLCanvasElement, viewport }).promise;
          const content = await page.getTextContent();
          const text = content.items
            .map((item) => ('str' in item ? `${item.str}${item.hasEOL ? '\n' : ' '}` : ''))
            .join('')
            .replace(/[ \t]+\n/g, '\n')
            .trim();
          const png = canvas.toBuffer('image/png');
          pages.push({ number, png: new Uint8Array(png.buffer, png.byteOffset, png.byteLength), text: text.length > MAX_PAGE_TEXT ? `${text.slice(0, MAX_PAGE_TEXT)}…` : text });
          page.cleanup();
        }
        return { pageCount: doc.numPages, pages };
      } catch (error) {
        throw pdfError(error);
      } finally {
        await doc.destroy().catch(() => undefined);
      }
    },
  };
}
