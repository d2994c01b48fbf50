import type { MtextColor, MtextRun } from '../../domain/textEscapes';
import type { Primitive } from '../../domain/world';
import type { TextFont } from './textFont';

type TextPrimitive = Extract<Primitive, { kind: 'text' }>;
type Stack = Extract<MtextRun, { kind: 'stack' }>;

/** Stacked parts are drawn at 70 % of the text height (AutoCAD's default stack scale). */
export const STACK_SCALE = 0.7;

/**
 * One drawn piece of a laid-out line, in font units at the text's size: `x` from the line's
 * start, `rise` of its baseline above the line's baseline, `scale` of its glyphs (1 or the
 * stack scale), `color` its inline MTEXT colour (absent: the entity's). A bar is a fraction line
 * from x to x + width at `rise`.
 */
export type LaidPiece = { kind: 'text'; text: string; x: number; rise: number; scale: number; color?: MtextColor } | { kind: 'bar'; x: number; width: number; rise: number };

export interface LaidLine {
  pieces: LaidPiece[];
  /** Advance width of the line in font units. */
  width: number;
}

/** A unit the wrapper does not split: one character, or a whole stack. */
type Token = { kind: 'char'; ch: string; width: number; color?: MtextColor } | { kind: 'stack'; stack: Stack; width: number };

/**
 * Lines of a text laid out in font units; MTEXT wraps to its reference width at spaces (a word
 * longer than the width, or CJK text without spaces, breaks between characters; a stack never
 * breaks). Stacks sit around the middle of the cap height: a tolerance as upper and lower part
 * left-aligned, a fraction centred over and under a bar, a diagonal fraction raised/lowered
 * beside a slash.
 */
export function layoutText(p: TextPrimitive, font: TextFont): LaidLine[] {
  const runLines: MtextRun[][] = p.runs ?? p.text.split('\n').map((text) => [{ kind: 'text', text }]);
  const limit = p.wrapWidth ? (p.wrapWidth / (p.height * (p.widthFactor ?? 1))) * font.capHeight * 1.02 : 0; // font units; 2 % slack for rounding
  const out: LaidLine[] = [];
  for (const runs of runLines) {
    const tokens = tokensOf(runs, font);
    const total = tokens.reduce((sum, t) => sum + t.width, 0);
    if (!limit || total <= limit) {
      out.push(place(tokens, font));
      continue;
    }
    let start = 0;
    while (start < tokens.length) {
      let end = start;
      let lastSpace = -1;
      let width = 0;
      while (end < tokens.length) {
        const token = tokens[end] as Token;
        if (width + token.width > limit && end > start) break;
        if (token.kind === 'char' && token.ch === ' ') lastSpace = end;
        width += token.width;
        end++;
      }
      const cut = end < tokens.length && lastSpace > start ? lastSpace : end;
      const line = tokens.slice(start, cut);
      while (line.length > 0 && isSpace(line[line.length - 1] as Token)) line.pop();
      out.push(place(line, font));
      start = cut;
      while (start < tokens.length && isSpace(tokens[start] as Token)) start++;
    }
  }
  return out;
}

const isSpace = (t: Token): boolean => t.kind === 'char' && t.ch === ' ';

function tokensOf(runs: MtextRun[], font: TextFont): Token[] {
  const tokens: Token[] = [];
  for (const run of runs) {
    if (run.kind === 'text') for (const ch of run.text) tokens.push(run.color ? { kind: 'char', ch, width: font.advance(ch), color: run.color } : { kind: 'char', ch, width: font.advance(ch) });
    else tokens.push({ kind: 'stack', stack: run, width: stackWidth(run, font) });
  }
  return tokens;
}

/** Gap around a fraction bar and beside a stack, in cap heights. */
const STACK_PAD = 0.08;

function stackWidth(s: Stack, font: TextFont): number {
  const upper = font.width(s.upper) * STACK_SCALE;
  const lower = font.width(s.lower) * STACK_SCALE;
  const pad = STACK_PAD * font.capHeight;
  if (s.style === 'diagonal') return upper + font.advance('/') + lower;
  if (s.style === 'fraction') return Math.max(upper, lower) + 2 * pad;
  return Math.max(upper, lower) + pad;
}

function place(tokens: Token[], font: TextFont): LaidLine {
  const pieces: LaidPiece[] = [];
  const h = font.capHeight;
  let x = 0;
  let text = '';
  let textX = 0;
  let textColor: MtextColor | undefined;
  const flush = (): void => {
    if (text) pieces.push(textColor ? { kind: 'text', text, x: textX, rise: 0, scale: 1, color: textColor } : { kind: 'text', text, x: textX, rise: 0, scale: 1 });
    text = '';
  };
  for (const token of tokens) {
    if (token.kind === 'char') {
      if (text && token.color !== textColor) flush();
      if (!text) {
        textX = x;
        textColor = token.color;
      }
      text += token.ch;
      x += token.width;
      continue;
    }
    flush();
    const s = token.stack;
    const upper = font.width(s.upper) * STACK_SCALE;
    const lower = font.width(s.lower) * STACK_SCALE;
    const pad = STACK_PAD * h;
    if (s.style === 'fraction') {
      const inner = token.width - 2 * pad;
      if (s.upper) pieces.push({ kind: 'text', text: s.upper, x: x + pad + (inner - upper) / 2, rise: 0.5 * h + 0.15 * h, scale: STACK_SCALE });
      pieces.push({ kind: 'bar', x: x + pad, width: inner, rise: 0.5 * h });
      if (s.lower) pieces.push({ kind: 'text', text: s.lower, x: x + pad + (inner - lower) / 2, rise: 0.5 * h - 0.15 * h - STACK_SCALE * h, scale: STACK_SCALE });
    } else if (s.style === 'diagonal') {
      pieces.push({ kind: 'text', text: s.upper, x, rise: 0.45 * h, scale: STACK_SCALE });
      pieces.push({ kind: 'text', text: '/', x: x + upper, rise: 0, scale: 1 });
      pieces.push({ kind: 'text', text: s.lower, x: x + upper + font.advance('/'), rise: -0.15 * h, scale: STACK_SCALE });
    } else {
      // tolerance: upper part's top a little above the cap height, lower part's baseline below the line's
      if (s.upper) pieces.push({ kind: 'text', text: s.upper, x, rise: 0.6 * h, scale: STACK_SCALE });
      if (s.lower) pieces.push({ kind: 'text', text: s.lower, x, rise: -0.3 * h, scale: STACK_SCALE });
    }
    x += token.width;
  }
  flush();
  return { pieces, width: x };
}
