/**
 * DXF text encodings that live inside string values: `\U+XXXX` (a UTF-16 code unit),
 * `\M+NXXXX` (a double-byte character of legacy code page N), the `%%` control codes of TEXT,
 * and the MTEXT inline formatting language. All pure string transforms.
 */

/** Decodes the two bytes of a `\M+N` escape; N names the code page (1=932, 2=950, 3=949, 4=1361, 5=936). */
export type MbcsDecoder = (codePageDigit: number, bytes: Uint8Array) => string | undefined;

const UNICODE_ESCAPE = /\\U\+([0-9A-Fa-f]{4})|\\M\+([1-5])([0-9A-Fa-f]{4})/g;

/**
 * Replaces `\U+XXXX` and `\M+NXXXX` escapes by the characters they stand for. A `\M+` escape
 * whose code page has no decoder stays as written (visible, never guessed).
 */
export function decodeDxfEscapes(value: string, decodeMbcs?: MbcsDecoder): string {
  if (value.indexOf('\\U+') < 0 && value.indexOf('\\M+') < 0 && value.indexOf('\\u+') < 0) return value;
  return value.replace(UNICODE_ESCAPE, (whole, unicodeHex: string | undefined, page: string | undefined, mbcsHex: string | undefined) => {
    if (unicodeHex !== undefined) return String.fromCharCode(Number.parseInt(unicodeHex, 16));
    if (page === undefined || mbcsHex === undefined || decodeMbcs === undefined) return whole;
    const code = Number.parseInt(mbcsHex, 16);
    return decodeMbcs(Number(page), Uint8Array.of(code >> 8, code & 0xff)) ?? whole;
  });
}

const CONTROL_CODES: Record<string, string> = { c: '\u2300', d: '\u00b0', p: '\u00b1', '%': '%' };

/** Expands the `%%c` (⌀), `%%d` (°), `%%p` (±), `%%%` codes and drops the `%%u`/`%%o` toggles. */
export function expandControlCodes(value: string): string {
  if (value.indexOf('%%') < 0) return value;
  return value.replace(/%%(\d{3}|.)/gs, (whole, code: string) => {
    if (/^\d{3}$/.test(code)) return String.fromCharCode(Number(code));
    const lower = code.toLowerCase();
    if (lower === 'u' || lower === 'o' || lower === 'k') return '';
    return CONTROL_CODES[lower] ?? whole;
  });
}

/** Plain text of a TEXT/ATTRIB value. */
export function plainText(value: string, decodeMbcs?: MbcsDecoder): string {
  return expandControlCodes(decodeDxfEscapes(value, decodeMbcs));
}

/** Formatting codes that take an argument terminated by `;`. */
const CODES_WITH_ARGUMENT = new Set(['f', 'F', 'H', 'W', 'Q', 'T', 'C', 'c', 'A', 'p']);
/** Toggles without an argument (underline, overline, strike-through, dimension wrap). */
const TOGGLES = new Set(['L', 'l', 'O', 'o', 'K', 'k', 'X']);

/**
 * Converts MTEXT content to plain text: `\P`, `^J` become a newline, `^I` spaces, grouping braces and formatting
 * codes disappear, stacked fractions `\Sa/b;` become `a/b`, `\~` a space, escaped `\\ \{ \}` stay
 * as the literal character. Unknown codes keep their character so no text is lost.
 */
export function mtextToPlain(raw: string, decodeMbcs?: MbcsDecoder): string {
  // Caret notation of control characters (^J line feed, ^I tab, ^M carriage return) as AutoCAD writes them in MTEXT.
  const text = expandControlCodes(decodeDxfEscapes(raw, decodeMbcs)).replace(/\^J|\^M/g, '\n').replace(/\^I/g, '    ');
  let out = '';
  let i = 0;
  while (i < text.length) {
    const ch = text[i] as string;
    if (ch === '{' || ch === '}') {
      i++;
      continue;
    }
    if (ch !== '\\' || i + 1 >= text.length) {
      out += ch;
      i++;
      continue;
    }
    const code = text[i + 1] as string;
    if (code === 'P' || code === 'n') {
      out += '\n';
      i += 2;
    } else if (code === '~') {
      out += ' ';
      i += 2;
    } else if (code === '\\' || code === '{' || code === '}') {
      out += code;
      i += 2;
    } else if (code === 'S') {
      const end = text.indexOf(';', i + 2);
      const stacked = end < 0 ? text.slice(i + 2) : text.slice(i + 2, end);
      out += stacked.replace(/[#^]/, '/').replace(/\\(.)/g, '$1');
      i = end < 0 ? text.length : end + 1;
    } else if (CODES_WITH_ARGUMENT.has(code)) {
      const end = text.indexOf(';', i + 2);
      i = end < 0 ? text.length : end + 1;
    } else if (TOGGLES.has(code)) {
      i += 2;
    } else {
      out += code;
      i += 2;
    }
  }
  return out;
}
