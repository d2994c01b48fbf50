/**
 * Single-stroke technical lettering (in the spirit of ISO 3098 type B) for line drawings. Text is
 * emitted as stroked SVG paths, so a drawing looks the same in a browser and in the PNG rasterizer,
 * which loads no fonts, on any machine.
 *
 * Glyphs sit on a 4 × 6 grid (y up, baseline 0, cap height 6); polylines are separated by "|".
 */
const GLYPHS: Readonly<Record<string, string>> = {
  A: '0,0 2,6 4,0|1,2 3,2',
  B: '0,0 0,6 3,6 4,5 4,4 3,3 0,3|3,3 4,2 4,1 3,0 0,0',
  C: '4,1 3,0 1,0 0,1 0,5 1,6 3,6 4,5',
  D: '0,0 0,6 2,6 4,4 4,2 2,0 0,0',
  E: '4,0 0,0 0,6 4,6|0,3 3,3',
  F: '0,0 0,6 4,6|0,3 3,3',
  G: '4,5 3,6 1,6 0,5 0,1 1,0 3,0 4,1 4,3 2,3',
  H: '0,0 0,6|4,0 4,6|0,3 4,3',
  I: '1,0 3,0|2,0 2,6|1,6 3,6',
  J: '0,1 1,0 2,0 3,1 3,6',
  K: '0,0 0,6|4,6 0,2|1,3 4,0',
  L: '0,6 0,0 4,0',
  M: '0,0 0,6 2,3 4,6 4,0',
  N: '0,0 0,6 4,0 4,6',
  O: '1,0 0,1 0,5 1,6 3,6 4,5 4,1 3,0 1,0',
  P: '0,0 0,6 3,6 4,5 4,4 3,3 0,3',
  Q: '1,0 0,1 0,5 1,6 3,6 4,5 4,1 3,0 1,0|2,2 4,0',
  R: '0,0 0,6 3,6 4,5 4,4 3,3 0,3|2,3 4,0',
  S: '4,5 3,6 1,6 0,5 0,4 1,3 3,3 4,2 4,1 3,0 1,0 0,1',
  T: '0,6 4,6|2,6 2,0',
  U: '0,6 0,1 1,0 3,0 4,1 4,6',
  V: '0,6 2,0 4,6',
  W: '0,6 1,0 2,4 3,0 4,6',
  X: '0,0 4,6|0,6 4,0',
  Y: '0,6 2,3 4,6|2,3 2,0',
  Z: '0,6 4,6 0,0 4,0',
  '0': '1,0 0,1 0,5 1,6 3,6 4,5 4,1 3,0 1,0',
  '1': '1,5 2,6 2,0|1,0 3,0',
  '2': '0,5 1,6 3,6 4,5 4,4 0,0 4,0',
  '3': '0,5 1,6 3,6 4,5 4,4 3,3 1,3|3,3 4,2 4,1 3,0 1,0 0,1',
  '4': '3,0 3,6 0,2 4,2',
  '5': '4,6 0,6 0,3 3,3 4,2 4,1 3,0 1,0 0,1',
  '6': '4,5 3,6 1,6 0,5 0,1 1,0 3,0 4,1 4,2 3,3 0,3',
  '7': '0,6 4,6 1,0',
  '8': '1,3 0,4 0,5 1,6 3,6 4,5 4,4 3,3 1,3 0,2 0,1 1,0 3,0 4,1 4,2 3,3',
  '9': '0,1 1,0 3,0 4,1 4,5 3,6 1,6 0,5 0,4 1,3 4,3',
  '.': '1.8,0 2.2,0',
  ',': '2,0.4 1.4,-1',
  '-': '1,3 3,3',
  '−': '0.5,3 3.5,3',
  '+': '0.5,3 3.5,3|2,1.5 2,4.5',
  '×': '0.8,1.3 3.2,3.7|0.8,3.7 3.2,1.3',
  Ø: '1,0 0,1 0,5 1,6 3,6 4,5 4,1 3,0 1,0|-0.5,-0.5 4.5,6.5',
  '(': '3,6.5 2,5 2,1 3,-0.5',
  ')': '1,6.5 2,5 2,1 1,-0.5',
  '/': '0,0 4,6',
  ':': '2,1 2,1.4|2,4 2,4.4',
  '·': '1.8,3 2.2,3',
  '=': '0.5,2 3.5,2|0.5,4 3.5,4',
  '?': '0,5 1,6 3,6 4,5 4,4 2,3 2,2|2,0 2,0.4',
  ' ': '',
};

/** Horizontal advance of one character in grid units (glyph width 4 plus spacing). */
const ADVANCE = 6;

/** Width of `text` at cap height `height` (mm), for layout. */
export function textWidth(text: string, height: number): number {
  return Math.max(0, text.length * ADVANCE - 2) * (height / 6);
}

/**
 * SVG path data drawing `text` with its baseline starting at (x, y) in SVG coordinates (y down),
 * cap height `height`. Lower case is drawn as capitals; characters without a glyph draw "?".
 */
export function textPath(text: string, x: number, y: number, height: number, anchor: 'start' | 'middle' | 'end' = 'start'): string {
  const k = height / 6;
  const shift = anchor === 'start' ? 0 : anchor === 'middle' ? textWidth(text, height) / 2 : textWidth(text, height);
  const parts: string[] = [];
  [...text.toUpperCase()].forEach((char, i) => {
    const glyph = GLYPHS[char] ?? GLYPHS['?'] ?? '';
    const ox = x - shift + i * ADVANCE * k;
    for (const stroke of glyph.split('|').filter(Boolean)) {
      const points = stroke.split(' ').map((p) => p.split(',').map(Number) as [number, number]);
      parts.push(points.map(([gx, gy], j) => `${j === 0 ? 'M' : 'L'}${round(ox + gx * k)} ${round(y - gy * k)}`).join(''));
    }
  });
  return parts.join('');
}

const round = (v: number): string => String(Math.round(v * 1000) / 1000);
