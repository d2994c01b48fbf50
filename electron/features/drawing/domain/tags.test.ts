import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readTextTags } from './tags';
import { decodeDxfEscapes, mtextToPlain, parseMtext } from './textEscapes';

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
    expect(mtextToPlain('{\\fArial|b1;\\H2.5;房间}\\P\\C1;%%c35 H\\S6^;\\~mm')).toBe('房间\n⌀35 H6 mm');
  });

  it('reads stacked tolerances and fractions as upper/lower set off from the number before them', () => {
    expect(mtextToPlain('75\\S+0^-0.05;')).toBe('75 +0/-0.05');
    expect(mtextToPlain('%%c20\\S+0.1^ -0.2;')).toBe('⌀20 +0.1/-0.2');
    expect(mtextToPlain('1\\S1/2;" and \\S3#4;')).toBe('1 1/2" and 3/4');
    expect(mtextToPlain('x\\S^2;')).toBe('x2');
    expect(mtextToPlain('\\S1\\/2/3;')).toBe('1/2/3');
  });

  it('keeps the runs of a text with stacks, line by line, with the stack kind and its parts', () => {
    expect(parseMtext('A\\S+0^-0.05;B\\PC\\S1/2;')).toEqual({
      plain: 'A +0/-0.05B\nC 1/2',
      lines: [
        [{ kind: 'text', text: 'A' }, { kind: 'stack', upper: '+0', lower: '-0.05', style: 'tolerance' }, { kind: 'text', text: 'B' }],
        [{ kind: 'text', text: 'C' }, { kind: 'stack', upper: '1', lower: '2', style: 'fraction' }],
      ],
    });
    expect(parseMtext('no stacks\\Phere')).toEqual({ plain: 'no stacks\nhere' });
  });

  it('keeps one run list per plain line, whose pieces appear in that line in order, for any MTEXT with stacks', () => {
    const piece = fc.constantFrom('ab', ' ', '7', '\\P', '\\S1/2;', '\\S+0^-0.1;', '\\S3#4;', '\\S^2;', '{\\H2;x}', '^J', '\\~', '房');
    fc.assert(fc.property(fc.array(piece, { maxLength: 12 }), (pieces) => {
      const { plain, lines } = parseMtext(pieces.join(''));
      const plainLines = plain.split('\n');
      if (!lines) return;
      expect(lines.length).toBe(plainLines.length);
      lines.forEach((runs, i) => {
        let at = 0;
        for (const part of runs.flatMap((r) => (r.kind === 'text' ? [r.text] : [r.upper, r.lower].filter(Boolean)))) {
          const found = (plainLines[i] as string).indexOf(part, at);
          expect(found).toBeGreaterThanOrEqual(0);
          at = found + part.length;
        }
      });
    }));
  });

  it('decodes a GBK \\M+5 escape with the injected decoder', () => {
    const decode = (_page: number, bytes: Uint8Array): string => new TextDecoder('gbk').decode(bytes);
    expect(decodeDxfEscapes('\\M+5B7BF', decode)).toBe('房');
  });
});
