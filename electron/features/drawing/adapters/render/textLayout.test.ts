import { existsSync, readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseMtext } from '../../domain/textEscapes';
import type { Primitive } from '../../domain/world';
import { DEFAULT_CJK_FONT_FILES } from './canvasRenderer';
import { layoutText, STACK_SCALE } from './textLayout';
import { loadTextFont, TextFont } from './textFont';

const { metrics } = loadTextFont(DEFAULT_CJK_FONT_FILES, 'NotoSansCJKsc-Regular', { exists: existsSync, read: (f) => readFileSync(f) });
const font = new TextFont(metrics, 'unused');

function mtext(raw: string, wrapWidth?: number): Extract<Primitive, { kind: 'text' }> {
  const { plain, lines } = parseMtext(raw);
  return { kind: 'text', text: plain, at: { x: 0, y: 0 }, height: 2.5, rotation: 0, hAlign: 0, vAlign: 3, mtext: true, color: { aci: 7 }, layer: '0', ...(lines ? { runs: lines } : {}), ...(wrapWidth ? { wrapWidth } : {}) };
}

describe('text layout', () => {
  it('draws inline MTEXT colours: \\C as ACI, \\c as BGR true colour, scoped by braces, plain text unchanged', () => {
    const raw = 'A{\\C1;red\\c16711680;blue}B\\C3;green\\C256;C';
    const content = parseMtext(raw);
    expect(content.plain).toBe('AredblueBgreenC');
    const [line] = layoutText(mtext(raw), font);
    const pieces = line!.pieces.map((p) => (p.kind === 'text' ? [p.text, p.color ?? null] : null));
    expect(pieces).toEqual([
      ['A', null],
      ['red', { aci: 1 }],
      ['blue', { aci: 7, rgb: 0x0000ff }],
      ['B', null],
      ['green', { aci: 3 }],
      ['C', null],
    ]);
    expect((line!.pieces[1] as { x: number }).x).toBeCloseTo(font.width('A'), 6);
  });

  it('keeps the plain reading of any MTEXT with colour codes equal to the text without them', () => {
    const piece = fc.constantFrom('ab', '\\C1;', '\\c255;', '{', '}', '\\C256;', '房', ' ');
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 20 }), (parts) => {
        const raw = parts.join('');
        const withoutColours = raw.replace(/\\[Cc]\d+;/g, '');
        expect(parseMtext(raw).plain).toBe(parseMtext(withoutColours).plain);
        const drawn = layoutText(mtext(raw), font).flatMap((l) => l.pieces.map((p) => (p.kind === 'text' ? p.text : ''))).join('');
        expect(drawn).toBe(parseMtext(withoutColours).plain);
      }),
    );
  });

  it('puts a tolerance after its number, upper part raised and lower part lowered, both at the stack size', () => {
    const [line] = layoutText(mtext('75\\S+0^-0.05;'), font);
    const [number, upper, lower] = line!.pieces;
    expect(number).toMatchObject({ kind: 'text', text: '75', x: 0, rise: 0, scale: 1 });
    expect(upper).toMatchObject({ kind: 'text', text: '+0', x: font.width('75'), scale: STACK_SCALE });
    expect(lower).toMatchObject({ kind: 'text', text: '-0.05', x: font.width('75'), scale: STACK_SCALE });
    expect((upper as { rise: number }).rise).toBeGreaterThan(0);
    expect((lower as { rise: number }).rise).toBeLessThan(0);
    expect(line!.width).toBeGreaterThan(font.width('75') + font.width('-0.05') * STACK_SCALE);
  });

  it('centres a fraction over and under a bar as wide as its wider part', () => {
    const [line] = layoutText(mtext('\\S1/16;'), font);
    const bar = line!.pieces.find((p) => p.kind === 'bar')!;
    const upper = line!.pieces.find((p) => p.kind === 'text' && p.text === '1')!;
    expect(bar).toMatchObject({ width: font.width('16') * STACK_SCALE });
    expect((upper as { x: number }).x + (font.width('1') * STACK_SCALE) / 2).toBeCloseTo(bar.x + bar.width / 2, 6);
  });

  it('wraps MTEXT within its width, never splitting a stack and never dropping a character', () => {
    const word = fc.constantFrom('ab', 'wall', '房间', '\\S+0.1^-0.2;', '\\S1/2;', '12.5', 'X');
    fc.assert(fc.property(fc.array(word, { minLength: 1, maxLength: 14 }), fc.double({ min: 5, max: 40, noNaN: true }), (words, wrapWidth) => {
      const p = mtext(words.join(' '), wrapWidth);
      const lines = layoutText(p, font);
      const limit = (wrapWidth / p.height) * font.capHeight * 1.02;
      const stacks = (p.runs ?? []).flat().filter((r) => r.kind === 'stack').length;
      let laidStacks = 0;
      let chars = 0;
      for (const line of lines) {
        const texts = line.pieces.filter((piece) => piece.kind === 'text' && piece.scale === 1);
        laidStacks += line.pieces.filter((piece) => piece.kind === 'text' && piece.scale !== 1 && piece.rise < 0).length; // each stack here has a lower part
        chars += texts.reduce((n, piece) => n + (piece.kind === 'text' ? piece.text.replace(/ /g, '').length : 0), 0);
        // a line wider than the limit holds a single unbreakable token
        if (line.width > limit + 1e-6) expect(line.pieces.length).toBeLessThanOrEqual(3);
      }
      expect(laidStacks).toBe(stacks);
      const plainChars = (p.runs ?? [[{ kind: 'text', text: p.text }]]).flat().reduce((n, r) => n + (r.kind === 'text' ? r.text.replace(/ /g, '').length : 0), 0);
      expect(chars).toBe(plainChars);
    }));
  });
});
