import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readTextTags } from './tags';
import { decodeDxfEscapes, mtextToPlain } from './textEscapes';

const tagArb = fc.record({
  code: fc.integer({ min: 0, max: 1071 }),
  // values never contain line breaks (a DXF value is one line)
  value: fc.string({ maxLength: 20 }).filter((v) => !/[\r\n]/.test(v)),
});

describe('readTextTags', () => {
  it('reads back every tag of a random stream whatever the line endings', () => {
    fc.assert(
      fc.property(fc.array(tagArb, { maxLength: 60 }), fc.array(fc.constantFrom('\n', '\r\n'), { minLength: 1 }), (tags, endings) => {
        let text = '';
        let i = 0;
        const nl = (): string => endings[i++ % endings.length] as string;
        const body = tags.filter((t) => !(t.code === 0 && t.value.trim() === 'EOF'));
        for (const t of body) text += `${String(t.code).padStart(3)}${nl()}${t.value}${nl()}`;
        text += `  0${nl()}EOF${nl()}`;
        const read = readTextTags(text);
        expect(read.tags.codes).toEqual([...body.map((t) => t.code), 0]);
        expect(read.tags.values).toEqual([...body.map((t) => t.value), 'EOF']);
        expect(read.problems).toEqual([]);
      }),
    );
  });

  it('stops at a malformed group code and reports its line instead of misreading', () => {
    const read = readTextTags('  0\nSECTION\nabc\nHEADER\n');
    expect(read.tags.codes).toEqual([0]);
    expect(read.problems[0]).toMatchObject({ kind: 'invalid_group_code', line: 3 });
  });

  it('never throws and always terminates on arbitrary text', () => {
    fc.assert(fc.property(fc.string({ maxLength: 300 }), (text) => {
      const read = readTextTags(text);
      expect(read.tags.codes.length).toBe(read.tags.values.length);
    }));
  });

  it('ignores data after EOF and reports it', () => {
    const read = readTextTags('  0\nEOF\ngarbage\n');
    expect(read.problems.map((p) => p.kind)).toEqual(['trailing_data']);
  });
});

describe('text escapes', () => {
  it('decodes any \\U+XXXX escape back to its BMP character', () => {
    fc.assert(fc.property(fc.integer({ min: 0x20, max: 0xd7ff }), fc.string({ maxLength: 5 }).filter((s) => !s.includes('\\')), (code, tail) => {
      const escaped = `\\U+${code.toString(16).toUpperCase().padStart(4, '0')}${tail}`;
      expect(decodeDxfEscapes(escaped)).toBe(String.fromCharCode(code) + tail);
    }));
  });

  it('leaves text without escapes or formatting codes unchanged', () => {
    fc.assert(fc.property(fc.string({ maxLength: 40 }).filter((s) => !/[\\{}%^]/.test(s)), (s) => {
      expect(decodeDxfEscapes(s)).toBe(s);
      expect(mtextToPlain(s)).toBe(s);
    }));
  });

  it('reads caret line feeds and tabs in MTEXT as line breaks and spaces', () => {
    expect(mtextToPlain('a^Jb^Ic\\Pd')).toBe('a\nb    c\nd');
  });

  it('strips MTEXT formatting to plain text and keeps stacked fractions readable', () => {
    expect(mtextToPlain('{\\fArial|b1;\\H2.5;房间}\\P\\C1;%%c35 H\\S6^;\\~mm')).toBe('房间\n⌀35 H6/ mm');
  });

  it('decodes a GBK \\M+5 escape with the injected decoder', () => {
    const decode = (_page: number, bytes: Uint8Array): string => new TextDecoder('gbk').decode(bytes);
    expect(decodeDxfEscapes('\\M+5B7BF', decode)).toBe('房');
  });
});
