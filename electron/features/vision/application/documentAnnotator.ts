import { toAppErrorData } from '../../../../shared/errors';
import { annotateDocument, detectDocumentFormat, documentBaseHref, failureNote, findDocumentImages, resolveImageReference } from '../domain/documentImages';
import { visionError } from '../domain/errors';
import type { ImageOccurrence } from '../domain/htmlImages';
import { DOCUMENT_IMAGE_PROMPT } from '../domain/prompts';
import { addUsage, emptyUsage } from '../domain/session';
import { neutralLabel, shortenSource } from '../domain/sourceClassifier';
import type { CallOptions } from '../ports/runtime';
import { mapSettled } from './concurrency';
import { prepareOriginal } from './imageIntake';
import type { NewSessionImage } from '../ports/sessionRepository';
import { askModel, imageContent, type BytesBySha } from './turnRunner';
import type { DocumentDeps, DocumentResult } from './documentTypes';
import { analyzePdfDocument, namesPdf } from './pdfDocument';

/** Bytes of a just-prepared image (nothing of a document is stored). */
function bytesOfNew(image: NewSessionImage): BytesBySha {
  const tiles = new Map((image.tiles ?? []).map((tile, i) => [tile.sha256, image.tileBytes![i]!]));
  return (sha256) => (sha256 === image.preparedSha256 ? image.preparedBytes : tiles.get(sha256)!);
}

const isSingleUrl = (text: string) => /^https?:\/\/\S+$/i.test(text.trim());
/** One line naming a local markdown/HTML file (or any file:// URL): read it, do not annotate the line. */
const isLocalDocument = (text: string) => {
  const line = text.trim();
  return !line.includes('\n') && (/^file:\/\//i.test(line) || /\.(md|markdown|html?)$/i.test(line)) && !/^[<#!\[]/.test(line);
};

/**
 * Annotates every image of a markdown/HTML document (given inline or by URL). Each distinct
 * image is analysed once with bounded concurrency; failures are listed, not fatal.
 * A URL or local path ending in .pdf is analysed page by page (see analyzePdfDocument).
 * Errors (whole call): VISION_DOCUMENT_INVALID, loader codes for a document URL, VISION_PDF_*.
 */
export async function analyzeDocument(deps: DocumentDeps, input: { document: string; prompt?: string; maxImages?: number; pdfPages?: string }, options: CallOptions = {}): Promise<DocumentResult> {
  if (input.document.trim() === '') throw visionError('VISION_DOCUMENT_INVALID', 'The document is empty.');
  if (namesPdf(input.document)) return analyzePdfDocument(deps, input, options);
  const fetched = isSingleUrl(input.document) || isLocalDocument(input.document) ? await deps.intake.loader.fetchDocument(input.document.trim(), options.signal) : undefined;
  const text = fetched?.text ?? input.document;
  const format = detectDocumentFormat(text, fetched?.contentType);
  const baseHref = documentBaseHref(text, format);
  const occurrences = findDocumentImages(text, format);
  if (occurrences.length === 0) {
    throw visionError('VISION_DOCUMENT_NO_IMAGES', `${fetched ? 'The document' : 'The text'} contains no images (markdown ![…](…) or HTML <img>); nothing was analysed.`, {
      format,
      ...(fetched ? {} : { readAsText: true }),
    });
  }

  const failed: DocumentResult['failed'] = [];
  const notes = new Map<ImageOccurrence, string>();
  const byUrl = new Map<string, ImageOccurrence[]>();
  for (const occurrence of occurrences) {
    try {
      const url = resolveImageReference(occurrence.url, fetched?.finalUrl, baseHref);
      byUrl.set(url, [...(byUrl.get(url) ?? []), occurrence]);
    } catch (error) {
      const data = toAppErrorData(error);
      failed.push({ source: shortenSource(occurrence.url), code: data.code, message: data.message });
      notes.set(occurrence, failureNote(data));
    }
  }
  const maxImages = input.maxImages ?? deps.defaultMaxImages;
  const unique = [...byUrl.keys()];
  for (const url of unique.slice(maxImages)) {
    failed.push({ source: shortenSource(url), code: 'VISION_DOCUMENT_IMAGE_SKIPPED', message: `Skipped: the document has more than max_images=${maxImages} distinct images.` });
    for (const occurrence of byUrl.get(url)!) notes.set(occurrence, failureNote({ code: 'VISION_DOCUMENT_IMAGE_SKIPPED', message: `more than max_images=${maxImages} distinct images` }));
  }
  const chosen = unique.slice(0, maxImages);
  let done = 0;
  let usage = emptyUsage();
  const results = await mapSettled(chosen, deps.concurrency, async (url) => {
    try {
      const loaded = await deps.intake.loader.load(url, { maxBytes: deps.intake.limits.maxImageBytes, ...(options.signal ? { signal: options.signal } : {}) });
      const image = await prepareOriginal(deps.intake, loaded.bytes, loaded.label, 'source', 0);
      const outcome = await askModel(
        deps.gateway,
        { messages: [{ role: 'user', content: [...imageContent(image, `Image (${neutralLabel(image.label)})`, bytesOfNew(image)), { type: 'text', text: input.prompt ?? DOCUMENT_IMAGE_PROMPT }] }] },
        { maxOutputTokens: deps.maxOutputTokens, purpose: 'vision.document', ...(options.signal ? { signal: options.signal } : {}) },
      );
      usage = addUsage(usage, outcome.usage);
      return outcome.reply.trim();
    } finally {
      options.onProgress?.(++done, chosen.length, `processed ${shortenSource(url)}`);
    }
  });
  let analyzed = 0;
  for (const [i, result] of results.entries()) {
    const url = chosen[i]!;
    if (result.status === 'fulfilled') analyzed++;
    else {
      const data = toAppErrorData(result.reason);
      failed.push({ source: shortenSource(url), code: data.code, message: data.message });
    }
    const note = result.status === 'fulfilled' ? result.value : failureNote(toAppErrorData(result.reason));
    for (const occurrence of byUrl.get(url)!) notes.set(occurrence, note);
  }
  return {
    document: annotateDocument(text, [...notes].map(([occurrence, note]) => ({ occurrence, note }))),
    format,
    imagesAnalyzed: analyzed,
    failed,
    usage,
  };
}
