import { Worker } from 'node:worker_threads';
import { AppError } from '../../../../../shared/errors';
import { visionError } from '../../domain/errors';
import type { PdfRenderer, RenderedPdfPage } from '../../ports/pdfRenderer';
import type { PdfJob, PdfJobLimits, PdfWorkerMessage } from './pdfWorkerProtocol';

export interface PdfjsRendererOptions {
  /** The bundled worker (dist/node/pdfWorker.js); composition roots resolve it next to their bundle. */
  workerScript: string | URL;
  /** Longest one page may take to parse and paint. Default 20 s (a dense A0 drawing takes a few). */
  pageTimeoutMs?: number;
  /** V8 old-generation heap of the render worker. Default 384 MiB. */
  heapLimitMb?: number;
  /** Largest embedded image pdf.js may decode (width × height). Default 50 megapixels. */
  maxImagePixels?: number;
  /** Most bytes the PDF's compressed streams may inflate to. Default 256 MiB. */
  maxDecodedBytes?: number;
}

/**
 * pdf.js (pdfjs-dist, Apache-2.0) renderer on @napi-rs/canvas, run in a worker thread per call:
 * the worker has a heap limit, each page a time cap, embedded images a pixel cap and the
 * document a decoded-bytes cap, so a PDF bomb fails one call with a typed error naming its page
 * while the server keeps answering. Error codes (besides the PdfRenderer ones):
 * VISION_PDF_PAGE_TOO_LARGE, VISION_PDF_DECODED_TOO_LARGE, VISION_PDF_PAGE_TIMEOUT,
 * VISION_PDF_PAGE_TOO_COMPLEX (heap limit reached).
 */
export function createPdfjsRenderer(options: PdfjsRendererOptions): PdfRenderer {
  const pageTimeoutMs = options.pageTimeoutMs ?? 20_000;
  const heapLimitMb = options.heapLimitMb ?? 384;
  return {
    render(bytes, request) {
      const limits: PdfJobLimits = {
        maxPages: request.maxPages,
        maxPixelsPerPage: request.maxPixelsPerPage,
        maxImagePixels: options.maxImagePixels ?? 50_000_000,
        maxDecodedBytes: options.maxDecodedBytes ?? 256 * 2 ** 20,
      };
      const job: PdfJob = { bytes: bytes.slice(), limits, ...(request.pages === undefined ? {} : { pages: request.pages }) };
      return new Promise((resolve, reject) => {
        const worker = new Worker(options.workerScript, { workerData: job, transferList: [job.bytes.buffer as ArrayBuffer], resourceLimits: { maxOldGenerationSizeMb: heapLimitMb } });
        const pages: RenderedPdfPage[] = [];
        let current: number | undefined;
        let timer: NodeJS.Timeout | undefined;
        let settled = false;
        const finish = (error: Error | undefined, pageCount?: number): void => {
          if (settled) return;
          settled = true;
          if (timer) clearTimeout(timer);
          request.signal?.removeEventListener('abort', onAbort);
          void worker.terminate();
          if (error) reject(error);
          else resolve({ pageCount: pageCount ?? 0, pages });
        };
        const onAbort = (): void => finish(request.signal?.reason instanceof Error ? request.signal.reason : new Error('aborted'));
        const arm = (): void => {
          if (timer) clearTimeout(timer);
          timer = setTimeout(() => {
            const where = current === undefined ? 'Opening the PDF' : `Page ${current} of the PDF`;
            finish(visionError('VISION_PDF_PAGE_TIMEOUT', `${where} took longer than ${Math.round(pageTimeoutMs / 1000)} s to render; it was stopped.`, { ...(current === undefined ? {} : { page: current }), timeoutMs: pageTimeoutMs }));
          }, pageTimeoutMs);
        };
        if (request.signal?.aborted) return onAbort();
        request.signal?.addEventListener('abort', onAbort, { once: true });
        arm();
        worker.on('message', (message: PdfWorkerMessage) => {
          if (message.type === 'page-start') {
            current = message.number;
            arm();
          } else if (message.type === 'page') pages.push(message.page);
          else if (message.type === 'done') finish(undefined, message.pageCount);
          else finish(new AppError(message.error.code, message.error.message, { retryable: message.error.retryable, ...(message.error.data ? { data: message.error.data } : {}) }));
        });
        worker.on('error', (error: Error & { code?: string }) => {
          const where = current === undefined ? 'The PDF' : `Page ${current} of the PDF`;
          if (error.code === 'ERR_WORKER_OUT_OF_MEMORY') {
            finish(visionError('VISION_PDF_PAGE_TOO_COMPLEX', `${where} needs more than ${heapLimitMb} MiB to render; it was stopped.`, { ...(current === undefined ? {} : { page: current }), heapLimitMb }));
          } else finish(visionError('VISION_PDF_INVALID', `${where} could not be rendered.`, { ...(current === undefined ? {} : { page: current }), detail: error.message.slice(0, 160) }));
        });
        worker.on('exit', () => finish(visionError('VISION_PDF_INVALID', 'The PDF renderer stopped before finishing.', current === undefined ? {} : { page: current })));
      });
    },
  };
}
