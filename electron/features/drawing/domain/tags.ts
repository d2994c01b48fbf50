/**
 * Tag-level DXF reading. A DXF file is a flat stream of (group code, value) pairs; everything
 * above this layer (sections, tables, entities) is built from the stream. Values stay strings
 * exactly as written so the writer can round-trip them byte for byte.
 */

/** Parallel arrays of group codes and raw values; index i is one tag. */
export interface TagStream {
  readonly codes: number[];
  readonly values: string[];
}

/** Something the reader could not use; the document loads what was recoverable. */
export interface DxfProblem {
  kind: string;
  message: string;
  line?: number;
}

export interface TagReadResult {
  tags: TagStream;
  problems: DxfProblem[];
}

const CHAR_0 = 48;
const CHAR_9 = 57;
const CHAR_MINUS = 45;
const CHAR_SPACE = 32;
const CHAR_TAB = 9;
const CHAR_CR = 13;

/**
 * Parses a group-code line (optional surrounding blanks, optional minus, digits).
 * Returns NaN for anything else so a malformed file is reported instead of misread.
 */
function parseGroupCode(text: string, start: number, end: number): number {
  let i = start;
  while (i < end && (text.charCodeAt(i) === CHAR_SPACE || text.charCodeAt(i) === CHAR_TAB)) i++;
  let sign = 1;
  if (i < end && text.charCodeAt(i) === CHAR_MINUS) {
    sign = -1;
    i++;
  }
  let value = 0;
  let digits = 0;
  while (i < end) {
    const c = text.charCodeAt(i);
    if (c < CHAR_0 || c > CHAR_9) break;
    value = value * 10 + (c - CHAR_0);
    digits++;
    i++;
  }
  while (i < end && (text.charCodeAt(i) === CHAR_SPACE || text.charCodeAt(i) === CHAR_TAB)) i++;
  return digits === 0 || digits > 6 || i !== end ? Number.NaN : sign * value;
}

/**
 * Reads an ASCII DXF text into tags. Lines end with `\n` or `\r\n`. Reading stops at `0/EOF`
 * (anything after it is reported, not parsed) or at the first malformed group code, since a
 * shifted code/value pairing cannot be resynchronised safely.
 */
export function readTextTags(text: string): TagReadResult {
  const codes: number[] = [];
  const values: string[] = [];
  const problems: DxfProblem[] = [];
  const length = text.length;
  let pos = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  let line = 1;
  let sawEof = false;
  while (pos < length) {
    let codeEnd = text.indexOf('\n', pos);
    if (codeEnd < 0) codeEnd = length;
    const codeLineEnd = codeEnd > pos && text.charCodeAt(codeEnd - 1) === CHAR_CR ? codeEnd - 1 : codeEnd;
    if (codeEnd >= length && codeLineEnd === pos) break; // final newline
    const code = parseGroupCode(text, pos, codeLineEnd);
    if (Number.isNaN(code)) {
      problems.push({ kind: 'invalid_group_code', message: `line ${line} is not a group code: "${text.slice(pos, Math.min(codeLineEnd, pos + 40))}"`, line });
      break;
    }
    if (codeEnd >= length) {
      problems.push({ kind: 'truncated', message: `group code ${code} on line ${line} has no value line`, line });
      break;
    }
    const valueStart = codeEnd + 1;
    let valueEnd = text.indexOf('\n', valueStart);
    const nextPos = valueEnd < 0 ? length : valueEnd + 1;
    if (valueEnd < 0) valueEnd = length;
    if (valueEnd > valueStart && text.charCodeAt(valueEnd - 1) === CHAR_CR) valueEnd--;
    const value = text.slice(valueStart, valueEnd);
    codes.push(code);
    values.push(value);
    line += 2;
    pos = nextPos;
    if (code === 0 && value.trim() === 'EOF') {
      sawEof = true;
      if (text.slice(pos).trim().length > 0) problems.push({ kind: 'trailing_data', message: `data after EOF on line ${line} ignored`, line });
      break;
    }
  }
  if (!sawEof && problems.length === 0) problems.push({ kind: 'missing_eof', message: 'file ends without 0/EOF', line });
  return { tags: { codes, values }, problems };
}

