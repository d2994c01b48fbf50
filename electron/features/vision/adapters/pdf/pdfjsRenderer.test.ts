import { describe, expect, it } from 'vitest';
import { builtPdfWorker } from '../../../../testSupport/visionFixtures/harness';
import { fillsBombPdf, flateBombPdf, imageBombPdf } from '../../../../testSupport/visionFixtures/hostilePdf';
import { makePdf } from '../../../../testSupport/visionFixtures/pdf';
import { createPdfjsRenderer } from './pdfjsRenderer';

const options = { maxPages: 8, maxPixelsPerPage: 2_000_000 };

describe('pdf.js renderer in a bounded worker', () => {
  it('renders ordinary pages with their text layer in the worker', async () => {
    const renderer = createPdfjsRenderer({ workerScript: builtPdfWorker });
    const result = await renderer.render(makePdf([{ text: 'FRONT VIEW' }, { text: 'SECTION A-A' }]), options);
    expect(result.pageCount).toBe(2);
    expect(result.pages.map((page) => page.number)).toEqual([1, 2]);
    expect(result.pages[1]!.text).toContain('SECTION A-A');
    expect([...result.pages[0]!.png.subarray(1, 4)].map((c) => String.fromCharCode(c)).join('')).toBe('PNG');
  });

  it('refuses a page holding a 20000×20000 image with a typed error naming that page', async () => {
    const renderer = createPdfjsRenderer({ workerScript: builtPdfWorker });
    await expect(renderer.render(await imageBombPdf(), options)).rejects.toMatchObject({ code: 'VISION_PDF_PAGE_TOO_LARGE', data: expect.objectContaining({ page: 2 }) });
  });

  it('still renders the harmless pages of that PDF when only they are asked for', async () => {
    const renderer = createPdfjsRenderer({ workerScript: builtPdfWorker });
    const result = await renderer.render(await imageBombPdf(), { ...options, pages: '1' });
    expect(result.pages.map((page) => page.number)).toEqual([1]);
  });

  it('refuses a Flate bomb inflating to 1.2 GB before pdf.js decodes it, naming the page', async () => {
    const renderer = createPdfjsRenderer({ workerScript: builtPdfWorker });
    await expect(renderer.render(await flateBombPdf(), options)).rejects.toMatchObject({ code: 'VISION_PDF_DECODED_TOO_LARGE', data: expect.objectContaining({ page: 2 }) });
  });

  it('stops a page of 3 million fills at its time or heap limit, naming the page, and keeps the event loop free', async () => {
    const renderer = createPdfjsRenderer({ workerScript: builtPdfWorker, pageTimeoutMs: 8_000 });
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 50);
    try {
      const error = await renderer.render(await fillsBombPdf(), options).catch((e: unknown) => e);
      expect(['VISION_PDF_PAGE_TIMEOUT', 'VISION_PDF_PAGE_TOO_COMPLEX']).toContain((error as { code?: string }).code);
      expect((error as { data?: { page?: number } }).data?.page).toBe(2);
      // The render ran on another thread: this thread's timers kept firing all along.
      expect(ticks).toBeGreaterThan(20);
    } finally {
      clearInterval(ticker);
    }
  }, 60_000);

  it('gives up when the caller aborts', async () => {
    const renderer = createPdfjsRenderer({ workerScript: builtPdfWorker });
    const controller = new AbortController();
    const pending = renderer.render(await fillsBombPdf(200_000), { ...options, signal: controller.signal });
    controller.abort(new Error('cancelled by the test'));
    await expect(pending).rejects.toThrow('cancelled by the test');
  });
});
