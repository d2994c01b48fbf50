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
 * Resolves an image reference of a document to what the loader reads. A fetched document's
 * references resolve against its URL (or its `<base href>`) and must stay http(s) or data URLs:
 * a remote page never makes us read local files. An inline document (no URL, no absolute base)
 * is the caller's own text, so — as picsense does — a reference that is not a URL is a local
 * path (absolute, or relative to the working directory), read later under the same path rules
 * as analyze_images (allowed roots, realpath containment, regular files only); `file://` too.
 * Errors: VISION_URL_BLOCKED (file:, javascript: and other schemes in a fetched document, or
 * non-file schemes inline), VISION_RELATIVE_URL_UNRESOLVED (an unparsable reference).
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
  if (!base) {
    const local = localReference(trimmed);
    if (local !== undefined) return local;
  }
  let resolved: URL;
  try {
    resolved = base ? new URL(trimmed, base) : new URL(trimmed);
  } catch {
    throw visionError('VISION_RELATIVE_URL_UNRESOLVED', `The image reference "${trimmed.slice(0, 200)}" cannot be resolved against the document URL.`);
  }
  // Inline text, or a local document (its references resolve against its file:// URL), may
  // name local files; they are then read under the analyze_images path rules.
  if ((!base || base.protocol === 'file:') && resolved.protocol === 'file:') return resolved.href;
  if (resolved.protocol !== 'http:' && resolved.protocol !== 'https:') {
    throw visionError('VISION_URL_BLOCKED', `Document images must be http(s) or data URLs (got ${resolved.protocol}); local files are only read from inline documents.`, {
      reason: 'scheme',
    });
  }
  return resolved.href;
}

const URL_SCHEME = /^[a-zA-Z][a-zA-Z0-9+.-]+:/;

/**
 * A local path written in an inline document, in the spelling the loader classifies as a path:
 * percent-escapes decoded (markdown writes spaces as %20), a `?query`/`#fragment` dropped, and a
 * bare relative name prefixed with `./` so it can never be mistaken for base64. Undefined when
 * the reference is a URL with a scheme (a Windows drive letter is a path, not a scheme).
 */
function localReference(reference: string): string | undefined {
  if (reference === '') return undefined;
  const isWindows = /^[a-zA-Z]:[\\/]/.test(reference) || reference.startsWith('\\\\');
  if (!isWindows && URL_SCHEME.test(reference)) return undefined;
  if (reference.startsWith('//')) return undefined;
  const bare = reference.replace(/[?#].*$/, '');
  let decoded = bare;
  try {
    decoded = decodeURIComponent(bare);
  } catch {
    // A lone % is a literal character of the file name.
  }
  // "/9j/…" is how bare base64 of a JPEG starts; "/./" keeps it a path with the same meaning.
  if (decoded.startsWith('/9j/')) return `/.${decoded}`;
  if (isWindows || decoded.startsWith('/') || decoded.startsWith('~') || decoded.startsWith('./') || decoded.startsWith('../')) return decoded;
  return `./${decoded}`;
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

/**
 * The note left in the document for an image that was not analysed: picsense's
 * `[识别失败: reason]` form (agents and scripts grep for it), with our code leading the reason.
 */
export function failureNote(error: { code: string; message: string }): string {
  return `[识别失败: ${error.code} ${error.message.replace(/\s+/g, ' ').trim()}]`;
}
