import { toAppErrorData } from '../../../../shared/errors';
import type { LlmGateway } from '../../../platform/llm/types';
import { annotateDocument, detectDocumentFormat, documentBaseHref, findDocumentImages, resolveImageReference } from '../domain/documentImages';
import { visionError } from '../domain/errors';
import type { ImageOccurrence } from '../domain/htmlImages';
import { DOCUMENT_IMAGE_PROMPT } from '../domain/prompts';
import { addUsage, emptyUsage, type UsageTotals } from '../domain/session';
import { shortenSource } from '../domain/sourceClassifier';
import type { CallOptions } from '../ports/runtime';
import { mapSettled } from './concurrency';
import { prepareOriginal, type IntakeDeps } from './imageIntake';
import type { NewSessionImage } from '../ports/sessionRepository';
import { askModel, imageContent, type BytesBySha } from './turnRunner';

export interface DocumentResult {
  /** The document with ` <!-- image-vision: ... -->` after every image. */
  document: string;
  format: 'html' | 'markdown';
  imagesAnalyzed: number;
  failed: Array<{ source: string; code: string; message: string }>;
  usage: UsageTotals;
}

export interface DocumentDeps {
  gateway: LlmGateway;
  intake: IntakeDeps;
  concurrency: number;
  defaultMaxImages: number;
  maxOutputTokens: number;
}

/**
 * The note left in the document for an image that was not analysed: picsense's
 * `[识别失败: reason]` form (agents and scripts grep for it), with our code leading the reason.
 */
export function failureNote(error: { code: string; message: string }): string {
  return `[识别失败: ${error.code} ${error.message.replace(/\s+/g, ' ').trim()}]`;
}

/** Bytes of a just-prepared image (nothing of a document is stored). */
function bytesOfNew(image: NewSessionImage): BytesBySha {
  const tiles = new Map((image.tiles ?? []).map((tile, i) => [tile.sha256, image.tileBytes![i]!]));
  return (sha256) => (sha256 === image.preparedSha256 ? image.preparedBytes : tiles.get(sha256)!);
}

const isSingleUrl = (text: string) => /^https?:\/\/\S+$/i.test(text.trim());

/**
 * Annotates every image of a markdown/HTML document (given inline or by URL). Each distinct
 * image is analysed once with bounded concurrency; failures are listed, not fatal.
 * Errors (whole call): VISION_DOCUMENT_INVALID, loader codes for a document URL.
 */
export async function analyzeDocument(deps: DocumentDeps, input: { document: string; prompt?: string; maxImages?: number }, options: CallOptions = {}): Promise<DocumentResult> {
  if (input.document.trim() === '') throw visionError('VISION_DOCUMENT_INVALID', 'The document is empty.');
  const fetched = isSingleUrl(input.document) ? await deps.intake.loader.fetchDocument(input.document.trim(), options.signal) : undefined;
  const text = fetched?.text ?? input.document;
  const format = detectDocumentFormat(text, fetched?.contentType);
  const baseHref = documentBaseHref(text, format);
  const occurrences = findDocumentImages(text, format);

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
        { messages: [{ role: 'user', content: [...imageContent(image, `Image (${image.label})`, bytesOfNew(image)), { type: 'text', text: input.prompt ?? DOCUMENT_IMAGE_PROMPT }] }] },
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
