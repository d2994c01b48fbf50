import { visionError } from './errors';
import { findHtmlImages, htmlBaseHref, htmlExcludedRanges, type ImageOccurrence } from './htmlImages';
import { findMarkdownImages } from './markdownImages';

export type DocumentFormat = 'html' | 'markdown';

/**
 * Decides whether a document is HTML or markdown: the HTTP content type wins when known;
 * otherwise a document that starts like HTML is HTML and everything else is markdown
 * (markdown may contain inline HTML, which the markdown scanner also handles).
 */
export function detectDocumentFormat(text: string, contentType?: string): DocumentFormat {
  if (contentType) {
    if (/text\/html|application\/xhtml/i.test(contentType)) return 'html';
    if (/markdown|text\/plain/i.test(contentType)) return 'markdown';
  }
  const head = text.replace(/^\uFEFF/, '').trimStart().slice(0, 200).toLowerCase();
  return /^(<!doctype html|<html[\s>]|<head[\s>]|<body[\s>]|<\?xml)/.test(head) ? 'html' : 'markdown';
}

/** Images of a document in order of appearance. */
export function findDocumentImages(text: string, format: DocumentFormat): ImageOccurrence[] {
  return format === 'html' ? findHtmlImages(text, htmlExcludedRanges(text)) : findMarkdownImages(text);
}

/**
 * Resolves an image reference of a document to an absolute http(s) or data URL. Relative
 * references resolve against the document URL (or its `<base href>`), never against the
 * local file system. Errors: VISION_RELATIVE_URL_UNRESOLVED (relative, no document URL),
 * VISION_URL_BLOCKED (file:, javascript: and other schemes).
 */
export function resolveImageReference(reference: string, documentUrl: string | undefined, baseHref?: string): string {
  const trimmed = reference.trim();
  if (/^data:/i.test(trimmed)) return trimmed;
  let base: URL | undefined;
  try {
    base = documentUrl ? new URL(baseHref ?? '', documentUrl) : baseHref ? new URL(baseHref) : undefined;
  } catch {
    base = documentUrl ? new URL(documentUrl) : undefined;
  }
  let resolved: URL;
  try {
    resolved = base ? new URL(trimmed, base) : new URL(trimmed);
  } catch {
    throw visionError('VISION_RELATIVE_URL_UNRESOLVED', `The image reference "${trimmed.slice(0, 200)}" is relative and the document has no URL.`);
  }
  if (resolved.protocol !== 'http:' && resolved.protocol !== 'https:') {
    throw visionError('VISION_URL_BLOCKED', `Document images must be http(s) or data URLs (got ${resolved.protocol}); local files are never read from a document.`, {
      reason: 'scheme',
    });
  }
  return resolved.href;
}

/** The `<base href>` a document declares (HTML only). */
export function documentBaseHref(text: string, format: DocumentFormat): string | undefined {
  return format === 'html' ? htmlBaseHref(text) : undefined;
}

/**
 * Makes text safe inside an HTML comment: `-->` and `--!>` would end it early and `<!--`
 * would nest, so they are broken up; the text stays readable.
 */
export function escapeCommentText(text: string): string {
  return text.replace(/--!?>/g, (m) => m.replace('>', '&gt;')).replace(/<!--/g, '&lt;!--').replace(/-$/, '- ');
}

/** Inserts ` <!-- image-vision: ... -->` right after each annotated image occurrence. */
export function annotateDocument(text: string, annotations: Array<{ occurrence: ImageOccurrence; note: string }>): string {
  const ordered = [...annotations].sort((a, b) => b.occurrence.end - a.occurrence.end);
  let out = text;
  for (const { occurrence, note } of ordered) {
    const comment = ` <!-- image-vision: ${escapeCommentText(note.replace(/\r\n?/g, '\n').trim())} -->`;
    out = out.slice(0, occurrence.end) + comment + out.slice(occurrence.end);
  }
  return out;
}
