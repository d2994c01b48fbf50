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

/** An inline MTEXT colour: `\C<aci>;` (ACI) or `\c<bgr>;` (24-bit true colour, `rgb` set). */
export interface MtextColor {
  aci: number;
  rgb?: number;
}

/** A piece of one MTEXT line: plain characters (in an inline colour when `color` is set), or a stacked pair (`\Supper/lower;`). */
export type MtextRun =
  | { kind: 'text'; text: string; color?: MtextColor }
  /** fraction `a/b` (horizontal bar), diagonal `a#b`, tolerance `a^b` (no bar, left-aligned). */
  | { kind: 'stack'; upper: string; lower: string; style: 'fraction' | 'diagonal' | 'tolerance' };

/** Plain text of an MTEXT value, and its runs per line when it has stacks or inline colours (else `lines` is absent). */
export interface MtextContent {
  plain: string;
  lines?: MtextRun[][];
}

const STACK_STYLES = { '/': 'fraction', '#': 'diagonal', '^': 'tolerance' } as const;

/**
 * Splits a `\S` argument at its first unescaped `/`, `#` or `^` (`\/` etc. are literal); the parts
 * are trimmed (AutoCAD writes `\S+0.1^ -0.2;`, the space only aligning the lower part).
 */
function parseStack(argument: string): Extract<MtextRun, { kind: 'stack' }> {
  let upper = '';
  for (let i = 0; i < argument.length; i++) {
    const ch = argument[i] as string;
    if (ch === '\\' && i + 1 < argument.length) {
      upper += argument[++i];
    } else if (ch === '/' || ch === '#' || ch === '^') {
      return { kind: 'stack', upper: upper.trim(), lower: argument.slice(i + 1).replace(/\\(.)/g, '$1').trim(), style: STACK_STYLES[ch] };
    } else upper += ch;
  }
  return { kind: 'stack', upper: upper.trim(), lower: '', style: 'tolerance' };
}

/**
 * Reading of a stack in plain text: `upper/lower`, set off by a space from a number before it
 * ("75 +0/-0.05", "1 1/2"); a one-sided stack (superscript, subscript) is just its part ("H6").
 */
function stackPlain(stack: Extract<MtextRun, { kind: 'stack' }>, before: string): string {
  if (!stack.upper || !stack.lower) return stack.upper || stack.lower;
  return `${before && !/\s$/.test(before) ? ' ' : ''}${stack.upper}/${stack.lower}`;
}

/**
 * Converts MTEXT content to plain text: `\P`, `^J` become a newline, `^I` spaces, grouping braces and formatting
 * codes disappear, stacks `\Sa/b;` read `a/b` (see stackPlain), `\~` a space, escaped `\\ \{ \}` stay
 * as the literal character. Unknown codes keep their character so no text is lost.
 */
export function mtextToPlain(raw: string, decodeMbcs?: MbcsDecoder): string {
  return parseMtext(raw, decodeMbcs).plain;
}

/**
 * mtextToPlain plus the runs of each line when the text has stacks (drawn stacked) or inline
 * colours (`\C`/`\c`, scoped by braces; `\C256;` and `\C0;` return to the entity's colour).
 */
export function parseMtext(raw: string, decodeMbcs?: MbcsDecoder): MtextContent {
  // Caret notation of control characters (^J line feed, ^I tab, ^M carriage return) as AutoCAD writes them in MTEXT.
  const text = expandControlCodes(decodeDxfEscapes(raw, decodeMbcs)).replace(/\^J|\^M/g, '\n').replace(/\^I/g, '    ');
  let out = '';
  const lines: MtextRun[][] = [[]];
  let hasStack = false;
  let hasColor = false;
  let color: MtextColor | undefined;
  const scopes: (MtextColor | undefined)[] = [];
  const put = (chars: string): void => {
    out += chars;
    const parts = chars.split('\n');
    parts.forEach((part, i) => {
      if (i > 0) lines.push([]);
      const line = lines[lines.length - 1] as MtextRun[];
      const last = line[line.length - 1];
      if (!part) return;
      if (last?.kind === 'text' && last.color === color) last.text += part;
      else line.push(color ? { kind: 'text', text: part, color } : { kind: 'text', text: part });
    });
  };
  let i = 0;
  while (i < text.length) {
    const ch = text[i] as string;
    if (ch === '{' || ch === '}') {
      if (ch === '{') scopes.push(color);
      else if (scopes.length > 0) color = scopes.pop();
      i++;
      continue;
    }
    if (ch !== '\\' || i + 1 >= text.length) {
      put(ch);
      i++;
      continue;
    }
    const code = text[i + 1] as string;
    if (code === 'P' || code === 'n') {
      put('\n');
      i += 2;
    } else if (code === '~') {
      put(' ');
      i += 2;
    } else if (code === '\\' || code === '{' || code === '}') {
      put(code);
      i += 2;
    } else if (code === 'S') {
      const end = text.indexOf(';', i + 2);
      const stack = parseStack(end < 0 ? text.slice(i + 2) : text.slice(i + 2, end));
      out += stackPlain(stack, out.slice(out.lastIndexOf('\n') + 1));
      (lines[lines.length - 1] as MtextRun[]).push(stack);
      hasStack = true;
      i = end < 0 ? text.length : end + 1;
    } else if (CODES_WITH_ARGUMENT.has(code)) {
      const end = text.indexOf(';', i + 2);
      if (code === 'C' || code === 'c') {
        color = inlineColor(code, end < 0 ? text.slice(i + 2) : text.slice(i + 2, end), color);
        hasColor ||= color !== undefined;
      }
      i = end < 0 ? text.length : end + 1;
    } else if (TOGGLES.has(code)) {
      i += 2;
    } else {
      put(code);
      i += 2;
    }
  }
  return hasStack || hasColor ? { plain: out, lines } : { plain: out };
}

/** The colour a `\C`/`\c` argument sets; an unreadable argument keeps the current one. */
function inlineColor(code: string, argument: string, current: MtextColor | undefined): MtextColor | undefined {
  const value = Number.parseInt(argument.trim(), 10);
  if (!Number.isFinite(value) || value < 0) return current;
  if (code === 'C') return value === 0 || value >= 256 ? undefined : { aci: value };
  // \c stores the colour as 0xBBGGRR (as ezdxf reads it)
  const bgr = value & 0xffffff;
  return { aci: 7, rgb: ((bgr & 0xff) << 16) | (bgr & 0xff00) | (bgr >> 16) };
}
