import { findHtmlImages, htmlExcludedRanges, inRanges, type ImageOccurrence, type Range } from './htmlImages';

/** Ranges of fenced code blocks and inline code spans: image syntax there is literal text. */
export function markdownCodeRanges(text: string): Range[] {
  const ranges: Range[] = [];
  const fence = /^ {0,3}(`{3,}|~{3,})[^\n]*\n[\s\S]*?(?:^ {0,3}\1[`~]*[ \t]*$|(?![\s\S]))/gm;
  for (const match of text.matchAll(fence)) ranges.push([match.index, match.index + match[0].length]);
  for (const match of text.matchAll(/(`+)(?!`)[\s\S]*?[^`]\1(?!`)/g)) {
    if (!inRanges(ranges, match.index)) ranges.push([match.index, match.index + match[0].length]);
  }
  return ranges;
}

const normalizeLabel = (label: string) => label.trim().replace(/\s+/g, ' ').toLowerCase();

/** Reference definitions `[label]: url "title"` by normalized label (first definition wins). */
function referenceDefinitions(text: string, excluded: Range[]): Map<string, { url: string; title?: string }> {
  const definitions = new Map<string, { url: string; title?: string }>();
  const pattern = /^ {0,3}\[([^\]\n]+)\]:[ \t]*(?:<([^>\n]*)>|(\S+))(?:[ \t]+(?:"([^"\n]*)"|'([^'\n]*)'|\(([^)\n]*)\)))?[ \t]*$/gm;
  for (const match of text.matchAll(pattern)) {
    if (inRanges(excluded, match.index)) continue;
    const label = normalizeLabel(match[1]!);
    const title = match[4] ?? match[5] ?? match[6];
    if (!definitions.has(label)) definitions.set(label, { url: match[2] ?? match[3]!, ...(title ? { title } : {}) });
  }
  return definitions;
}

/** Index of the `]` closing the bracket opened at `open`, honouring nesting and escapes. */
function closingBracket(text: string, open: number): number {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    const ch = text[i];
    if (ch === '\\') i++;
    else if (ch === '[') depth++;
    else if (ch === ']' && --depth === 0) return i;
    else if (ch === '\n' && text[i + 1] === '\n') return -1; // a blank line ends the paragraph
  }
  return -1;
}

/** Parses `(destination "title")` starting at `open` (the "("); undefined when malformed. */
function inlineDestination(text: string, open: number): { url: string; title?: string; end: number } | undefined {
  let i = open + 1;
  const skipSpace = () => {
    while (i < text.length && /[ \t\n]/.test(text[i]!)) i++;
  };
  skipSpace();
  let url = '';
  if (text[i] === '<') {
    const close = text.indexOf('>', i);
    if (close < 0 || text.slice(i, close).includes('\n')) return undefined;
    url = text.slice(i + 1, close);
    i = close + 1;
  } else {
    let depth = 0;
    const from = i;
    for (; i < text.length; i++) {
      const ch = text[i]!;
      if (ch === '\\') i++;
      else if (ch === '(') depth++;
      else if (ch === ')') {
        if (depth === 0) break;
        depth--;
      } else if (/\s/.test(ch)) break;
    }
    url = text.slice(from, i);
  }
  skipSpace();
  let title: string | undefined;
  const quote = text[i];
  if (quote === '"' || quote === "'" || quote === '(') {
    const closer = quote === '(' ? ')' : quote;
    const close = text.indexOf(closer, i + 1);
    if (close < 0) return undefined;
    title = text.slice(i + 1, close);
    i = close + 1;
    skipSpace();
  }
  if (text[i] !== ')') return undefined;
  return { url: url.replace(/\\([()\\ ])/g, '$1'), ...(title ? { title } : {}), end: i + 1 };
}

/**
 * Finds images in markdown: inline `![alt](url "title")`, reference-style `![alt][ref]`,
 * `![alt][]` and `![alt]`, plus inline HTML `<img>`/`<picture>` (mixed documents), skipping
 * code blocks, code spans and HTML comments.
 */
export function findMarkdownImages(text: string): ImageOccurrence[] {
  const excluded = [...markdownCodeRanges(text), ...htmlExcludedRanges(text)];
  const definitions = referenceDefinitions(text, excluded);
  const occurrences: ImageOccurrence[] = [];
  for (let start = text.indexOf('!['); start >= 0; start = text.indexOf('![', start + 2)) {
    if (inRanges(excluded, start) || (start > 0 && text[start - 1] === '\\')) continue;
    const close = closingBracket(text, start + 1);
    if (close < 0) continue;
    const alt = text.slice(start + 2, close);
    const next = text[close + 1];
    if (next === '(') {
      const destination = inlineDestination(text, close + 1);
      if (!destination) continue;
      occurrences.push({ start, end: destination.end, url: destination.url, alt, ...(destination.title ? { title: destination.title } : {}) });
      start = destination.end - 2;
      continue;
    }
    let end = close + 1;
    let label = alt;
    if (next === '[') {
      const labelClose = text.indexOf(']', close + 2);
      if (labelClose < 0) continue;
      const explicit = text.slice(close + 2, labelClose);
      if (explicit.trim() !== '') label = explicit;
      end = labelClose + 1;
    }
    const definition = definitions.get(normalizeLabel(label));
    if (definition) occurrences.push({ start, end, url: definition.url, alt, ...(definition.title ? { title: definition.title } : {}) });
  }
  occurrences.push(...findHtmlImages(text, excluded));
  return occurrences.sort((a, b) => a.start - b.start);
}
