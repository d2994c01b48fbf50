import { toAppErrorData } from '../../../../shared/errors';
import { escapeCommentText, failureNote } from '../domain/documentImages';
import { DOCUMENT_IMAGE_PROMPT } from '../domain/prompts';
import { addUsage, emptyUsage } from '../domain/session';
import type { CallOptions } from '../ports/runtime';
import { mapSettled } from './concurrency';
import type { DocumentDeps, DocumentResult } from './documentTypes';
import { preparePdfPages } from './imageIntake';
import { askModel, imageContent } from './turnRunner';

/** A document argument that names a PDF: an http(s) URL or local path whose name ends in .pdf. */
export function namesPdf(document: string): boolean {
  const text = document.trim();
  return !/\s/.test(text) && /\.pdf$/i.test(text.replace(/[?#].*$/, ''));
}

/**
 * analyze_document of a PDF: each chosen page is analysed as an image (with its text layer),
 * and the result is a Markdown document with one section per page — the page's text, then a
 * page image reference followed by its `<!-- image-vision: ... -->` note (or picsense's
 * `[识别失败: …]` when the page failed). Errors: loader codes, VISION_PDF_* for the file.
 */
export async function analyzePdfDocument(deps: DocumentDeps, input: { document: string; prompt?: string; pdfPages?: string }, options: CallOptions): Promise<DocumentResult> {
  const { intake } = deps;
  const loaded = await intake.loader.load(input.document.trim(), { maxBytes: intake.limits.maxPdfBytes, ...(options.signal ? { signal: options.signal } : {}) });
  const pages = await preparePdfPages(intake, loaded.bytes, loaded.label, 0, {
    ...(input.pdfPages !== undefined ? { pages: input.pdfPages } : {}),
    pagesLeft: intake.limits.maxPdfPages,
    ...(options.signal ? { signal: options.signal } : {}),
  });
  let usage = emptyUsage();
  let done = 0;
  const results = await mapSettled(pages, deps.concurrency, async (page) => {
    try {
      const bytes = new Map([[page.preparedSha256, page.preparedBytes], ...(page.tiles ?? []).map((tile, i) => [tile.sha256, page.tileBytes![i]!] as const)]);
      const outcome = await askModel(
        deps.gateway,
        { messages: [{ role: 'user', content: [...imageContent(page, `Image (${page.label})`, (sha) => bytes.get(sha)!), { type: 'text', text: input.prompt ?? DOCUMENT_IMAGE_PROMPT }] }] },
        { maxOutputTokens: deps.maxOutputTokens, purpose: 'vision.document', ...(options.signal ? { signal: options.signal } : {}) },
      );
      usage = addUsage(usage, outcome.usage);
      return outcome.reply.trim();
    } finally {
      options.onProgress?.(++done, pages.length, `processed ${page.label}`);
    }
  });
  const failed: DocumentResult['failed'] = [];
  const sections = pages.map((page, i) => {
    const result = results[i]!;
    const number = /p\.(\d+)\//.exec(page.label)?.[1] ?? String(i + 1);
    let note: string;
    if (result.status === 'fulfilled') note = result.value;
    else {
      const data = toAppErrorData(result.reason);
      failed.push({ source: page.label, code: data.code, message: data.message });
      note = failureNote(data);
    }
    const text = page.text ? `${page.text}\n\n` : '';
    return `## Page ${number}\n\n${text}![Page ${number}](${loaded.label.replace(/[()\s]/g, encodeURIComponent)}#page=${number}) <!-- image-vision: ${escapeCommentText(note.replace(/\r\n?/g, '\n').trim())} -->\n`;
  });
  return { document: `# ${loaded.label}\n\n${sections.join('\n')}`, format: 'markdown', imagesAnalyzed: results.filter((r) => r.status === 'fulfilled').length, failed, usage };
}
