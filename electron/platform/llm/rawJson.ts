/**
 * Returns the exact source text of the value at `path` inside a JSON document, or undefined
 * when the path does not exist. Used for protocols that send tool arguments as a JSON object
 * (Anthropic `input`) rather than a string: re-serializing the parsed object would change
 * whitespace and key order, and callers validate the provider's bytes, not ours.
 * `text` must already be known to be valid JSON (JSON.parse succeeded on it).
 */
export function rawJsonValueAt(text: string, path: ReadonlyArray<string | number>): string | undefined {
  let pos = skipWhitespace(text, 0);
  for (const step of path) {
    const found = typeof step === 'number' ? enterArrayItem(text, pos, step) : enterObjectMember(text, pos, step);
    if (found === undefined) return undefined;
    pos = found;
  }
  return text.slice(pos, valueEnd(text, pos));
}

function skipWhitespace(text: string, pos: number): number {
  while (pos < text.length && (text[pos] === ' ' || text[pos] === '\t' || text[pos] === '\n' || text[pos] === '\r')) pos++;
  return pos;
}

/** Index just past the value starting at `pos` (which is not whitespace). */
function valueEnd(text: string, pos: number): number {
  const first = text[pos];
  if (first === '"') return stringEnd(text, pos);
  if (first === '{' || first === '[') {
    let depth = 0;
    for (let i = pos; i < text.length; i++) {
      const ch = text[i];
      if (ch === '"') i = stringEnd(text, i) - 1;
      else if (ch === '{' || ch === '[') depth++;
      else if (ch === '}' || ch === ']') {
        depth--;
        if (depth === 0) return i + 1;
      }
    }
    return text.length;
  }
  let i = pos;
  while (i < text.length && !/[\s,\]}]/.test(text[i] ?? '')) i++;
  return i;
}

/** Index just past the closing quote of the string starting at `pos`. */
function stringEnd(text: string, pos: number): number {
  for (let i = pos + 1; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === '"') return i + 1;
  }
  return text.length;
}

/**
 * Start index of member `key`'s value in the object at `pos`. JSON.parse keeps the last of
 * duplicate keys, so the raw text is taken from the last one too.
 */
function enterObjectMember(text: string, pos: number, key: string): number | undefined {
  if (text[pos] !== '{') return undefined;
  let match: number | undefined;
  let i = skipWhitespace(text, pos + 1);
  while (text[i] === '"') {
    const keyEnd = stringEnd(text, i);
    const valueStart = skipWhitespace(text, skipWhitespace(text, keyEnd) + 1);
    if (JSON.parse(text.slice(i, keyEnd)) === key) match = valueStart;
    const next = skipWhitespace(text, valueEnd(text, valueStart));
    if (text[next] !== ',') break;
    i = skipWhitespace(text, next + 1);
  }
  return match;
}

/** Start index of item `index` in the array at `pos`. */
function enterArrayItem(text: string, pos: number, index: number): number | undefined {
  if (text[pos] !== '[') return undefined;
  let i = skipWhitespace(text, pos + 1);
  if (text[i] === ']') return undefined;
  for (let n = 0; i < text.length; n++) {
    if (n === index) return i;
    const next = skipWhitespace(text, valueEnd(text, i));
    if (text[next] !== ',') return undefined;
    i = skipWhitespace(text, next + 1);
  }
  return undefined;
}
