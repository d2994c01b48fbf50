/** One image found in a document: where it sits and the URL it refers to (unresolved). */
export interface ImageOccurrence {
  /** Offset of the first character of the image syntax. */
  start: number;
  /** Offset just after the image syntax: where an annotation is inserted. */
  end: number;
  /** The chosen URL as written (entities decoded), not yet resolved against a base. */
  url: string;
  alt?: string;
  title?: string;
}

/** A half-open [start, end) range of the text where images must not be looked for. */
export type Range = [number, number];

export const inRanges = (ranges: Range[], at: number) => ranges.some(([s, e]) => at >= s && at < e);

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", '#39': "'", nbsp: '\u00a0' };

/** Decodes the HTML entities that occur in attribute values (named basics and numeric). */
export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z0-9]+);/gi, (whole, name: string) => {
    const lower = name.toLowerCase();
    if (lower.startsWith('#x')) return safeCodePoint(parseInt(lower.slice(2), 16), whole);
    if (lower.startsWith('#')) return safeCodePoint(parseInt(lower.slice(1), 10), whole);
    return ENTITIES[lower] ?? whole;
  });
}

function safeCodePoint(code: number, fallback: string): string {
  return Number.isInteger(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : fallback;
}

/** Parses the attributes of one start tag (names lower-cased, values entity-decoded). */
export function parseAttributes(tag: string): Record<string, string> {
  const attributes: Record<string, string> = {};
  const body = tag.replace(/^<[a-zA-Z0-9]+/, '').replace(/\/?>$/, '');
  const pattern = /([^\s=/>"']+)(?:\s*=\s*("[^"]*"|'[^']*'|[^\s>]+))?/g;
  for (const match of body.matchAll(pattern)) {
    const name = match[1]!.toLowerCase();
    const raw = match[2] ?? '';
    const unquoted = raw.startsWith('"') || raw.startsWith("'") ? raw.slice(1, -1) : raw;
    if (!(name in attributes)) attributes[name] = decodeEntities(unquoted);
  }
  return attributes;
}

/**
 * Picks the largest candidate of a srcset ("a.png 480w, b.png 960w" or "a.png 1x, b.png 2x"):
 * the model gets the most detail, and preprocessing scales it down if needed anyway.
 */
export function bestSrcsetCandidate(srcset: string): string | undefined {
  let best: { url: string; score: number } | undefined;
  for (const match of srcset.matchAll(/\s*([^\s,][^\s]*?)(?:\s+([0-9.]+)([wx]))?\s*(?:,|$)/g)) {
    const url = match[1];
    if (!url) continue;
    const score = match[2] ? Number(match[2]) * (match[3] === 'w' ? 1 : 1000) : 1;
    if (!best || score > best.score) best = { url, score };
  }
  return best?.url;
}

/** Ranges of HTML comments, scripts, styles and textareas: images there are not shown. */
export function htmlExcludedRanges(text: string): Range[] {
  const ranges: Range[] = [];
  for (const match of text.matchAll(/<!--[\s\S]*?(?:-->|$)|<(script|style|textarea)\b[\s\S]*?(?:<\/\1\s*>|$)/gi)) {
    ranges.push([match.index, match.index + match[0].length]);
  }
  return ranges;
}

const UNSUPPORTED_SOURCE_TYPES = /svg|avif|jxl|heic|tiff/i;

/** Finds <img> and <picture> images in HTML (also inline HTML inside markdown). */
export function findHtmlImages(text: string, excluded: Range[]): ImageOccurrence[] {
  const occurrences: ImageOccurrence[] = [];
  const pictureSpans: Range[] = [];
  for (const picture of text.matchAll(/<picture\b[^>]*>([\s\S]*?)<\/picture\s*>/gi)) {
    const start = picture.index;
    if (inRanges(excluded, start)) continue;
    const end = start + picture[0].length;
    pictureSpans.push([start, end]);
    const inner = picture[1] ?? '';
    let url: string | undefined;
    for (const source of inner.matchAll(/<source\b[^>]*>/gi)) {
      const attrs = parseAttributes(source[0]);
      if (attrs.type && UNSUPPORTED_SOURCE_TYPES.test(attrs.type)) continue;
      url = bestSrcsetCandidate(attrs.srcset ?? '') ?? attrs.src;
      if (url) break;
    }
    const img = /<img\b[^>]*>/i.exec(inner);
    const imgAttrs = img ? parseAttributes(img[0]) : {};
    url ??= imageUrlFromImgAttributes(imgAttrs);
    if (url) occurrences.push(withText({ start, end, url }, imgAttrs));
  }
  for (const img of text.matchAll(/<img\b[^>]*>/gi)) {
    const start = img.index;
    if (inRanges(excluded, start) || inRanges(pictureSpans, start)) continue;
    const attrs = parseAttributes(img[0]);
    const url = imageUrlFromImgAttributes(attrs);
    if (url) occurrences.push(withText({ start, end: start + img[0].length, url }, attrs));
  }
  return occurrences.sort((a, b) => a.start - b.start);
}

function imageUrlFromImgAttributes(attrs: Record<string, string>): string | undefined {
  const src = attrs.src?.trim();
  return bestSrcsetCandidate(attrs.srcset ?? '') ?? (src ? src : undefined);
}

function withText(occurrence: ImageOccurrence, attrs: Record<string, string>): ImageOccurrence {
  return { ...occurrence, ...(attrs.alt ? { alt: attrs.alt } : {}), ...(attrs.title ? { title: attrs.title } : {}) };
}

/** The `<base href>` of an HTML document, if any. */
export function htmlBaseHref(text: string): string | undefined {
  const base = /<base\b[^>]*>/i.exec(text);
  return base ? parseAttributes(base[0]).href : undefined;
}
