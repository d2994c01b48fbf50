/**
 * Legacy DXF code pages ($DWGCODEPAGE) mapped to WHATWG encoding labels Node's TextDecoder
 * understands. R2007+ files are always UTF-8 whatever the header says.
 */
const CODE_PAGES: Record<string, string> = {
  ANSI_874: 'windows-874',
  ANSI_932: 'shift_jis',
  ANSI_936: 'gbk',
  ANSI_949: 'euc-kr',
  ANSI_950: 'big5',
  ANSI_1250: 'windows-1250',
  ANSI_1251: 'windows-1251',
  ANSI_1252: 'windows-1252',
  ANSI_1253: 'windows-1253',
  ANSI_1254: 'windows-1254',
  ANSI_1255: 'windows-1255',
  ANSI_1256: 'windows-1256',
  ANSI_1257: 'windows-1257',
  ANSI_1258: 'windows-1258',
  GB2312: 'gbk',
  BIG5: 'big5',
};

/** `\M+N` escape digit → encoding (johab, digit 4, has no WHATWG decoder). */
const MBCS_DIGITS: Record<number, string> = { 1: 'shift_jis', 2: 'big5', 3: 'euc-kr', 5: 'gbk' };

/** The first version whose strings are UTF-8 (AutoCAD 2007). */
const FIRST_UTF8_VERSION = 'AC1021';

export interface TextEncodingChoice {
  /** WHATWG label for TextDecoder. */
  encoding: string;
  /** What get_drawing_info reports: the header code page, or UTF-8. */
  codePage: string;
  /** Set when the code page is unknown and windows-1252 had to be used (reported, not hidden). */
  warning?: string;
}

export function chooseEncoding(version: string, codePage: string | undefined): TextEncodingChoice {
  if (version >= FIRST_UTF8_VERSION && version.startsWith('AC')) return { encoding: 'utf-8', codePage: 'UTF-8' };
  if (!codePage) return { encoding: 'windows-1252', codePage: 'ANSI_1252' };
  const encoding = CODE_PAGES[codePage.toUpperCase()];
  if (encoding) return { encoding, codePage };
  return { encoding: 'windows-1252', codePage, warning: `code page ${codePage} has no decoder here; text was decoded as windows-1252` };
}

/** Decodes the two bytes of a `\M+N` escape; undefined when the page is unsupported. */
export function decodeMbcsEscape(digit: number, bytes: Uint8Array): string | undefined {
  const encoding = MBCS_DIGITS[digit];
  if (!encoding) return undefined;
  const text = new TextDecoder(encoding).decode(bytes);
  return text.includes('\ufffd') ? undefined : text;
}

/**
 * Encodes text for a legacy code page: characters the page has are written as its bytes, the
 * rest as `\U+XXXX` escapes (what AutoCAD itself writes), so nothing is lost. The reverse table
 * is built from TextDecoder because Node ships no legacy encoders.
 */
export function createLegacyEncoder(encoding: string): (text: string) => Uint8Array {
  const table = reverseTable(encoding);
  return (text: string): Uint8Array => {
    const out: number[] = [];
    for (const ch of text) {
      const code = ch.charCodeAt(0);
      if (code < 0x80) {
        out.push(code);
        continue;
      }
      const bytes = ch.length === 1 ? table.get(ch) : undefined;
      if (bytes) out.push(...bytes);
      else for (const unit of ch) for (const b of Buffer.from(`\\U+${unit.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`, 'ascii')) out.push(b);
    }
    return Uint8Array.from(out);
  };
}

function reverseTable(encoding: string): Map<string, number[]> {
  const decoder = new TextDecoder(encoding);
  const table = new Map<string, number[]>();
  for (let b = 0x80; b <= 0xff; b++) {
    const ch = decoder.decode(Uint8Array.of(b));
    if (ch.length === 1 && ch !== '\ufffd' && !table.has(ch)) table.set(ch, [b]);
  }
  const doubleByte = ['gbk', 'big5', 'shift_jis', 'euc-kr'].includes(encoding);
  if (doubleByte) {
    for (let lead = 0x81; lead <= 0xfe; lead++) {
      for (let trail = 0x40; trail <= 0xfe; trail++) {
        if (trail === 0x7f) continue;
        const ch = decoder.decode(Uint8Array.of(lead, trail));
        if (ch.length === 1 && ch !== '\ufffd' && !table.has(ch)) table.set(ch, [lead, trail]);
      }
    }
  }
  return table;
}
