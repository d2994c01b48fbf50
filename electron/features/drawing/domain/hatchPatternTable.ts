import type { Vec2 } from './model';
import type { PatternLine } from './hatchPatterns';

/**
 * Standard hatch patterns of AutoCAD's acad.pat, in the .pat file format itself:
 * `*NAME` then one line per family, `angle, x-origin, y-origin, delta-x, delta-y [, dash …]`,
 * where delta-x runs along the line and delta-y across it (both before rotation), dashes > 0,
 * gaps < 0, dots 0. Lengths are inches (acad.pat) except the ISO patterns, which are millimetres
 * in acad.pat and acadiso.pat alike; metric drawings ($MEASUREMENT = 1) use acadiso.pat, whose
 * inch patterns are the same ones × 25.4. Used only when a HATCH names a pattern but does not
 * carry its pattern lines (most writers store them in the entity).
 */
const ACAD_PAT = `
*ANSI31
45, 0,0, 0,.125
*ANSI32
45, 0,0, 0,.375
45, .176776695,0, 0,.375
*ANSI33
45, 0,0, 0,.25
45, .176776695,0, 0,.25, .125,-.0625
*ANSI34
45, 0,0, 0,.75
45, .176776695,0, 0,.75
45, .353553391,0, 0,.75
45, .530330086,0, 0,.75
*ANSI35
45, 0,0, 0,.25
45, .176776695,0, 0,.25, .3125,-.0625,0,-.0625
*ANSI36
45, 0,0, .21875,.125, .3125,-.0625,0,-.0625
*ANSI37
45, 0,0, 0,.125
135, 0,0, 0,.125
*ANSI38
45, 0,0, 0,.125
135, 0,0, .25,.125, .3125,-.1875
*ANGLE
0, 0,0, 0,.55, .4,-.15
90, 0,0, 0,.55, .4,-.15
*AR-B816
0, 0,0, 0,8
90, 0,0, 8,8, 8,-8
*AR-B88
0, 0,0, 0,8
90, 0,0, 8,4, 8,-8
*AR-BRSTD
0, 0,0, 0,2.667
90, 0,0, 2.667,4, 2.667,-2.667
*AR-HBONE
45, 0,0, 4,4, 12,-4
135, 2.828427125,2.828427125, 4,-4, 12,-4
*BRASS
0, 0,0, 0,.25
0, 0,.125, 0,.25, .125,-.0625
*BRICK
0, 0,0, 0,.25
90, 0,0, 0,.5, .25,-.25
90, .25,0, 0,.5, -.25,.25
*CLAY
0, 0,0, 0,.1875
0, 0,.03125, 0,.1875
0, 0,.0625, 0,.1875
0, 0,.125, 0,.1875, .1875,-.125
*CROSS
0, 0,0, .25,.25, .125,-.375
90, .0625,-.0625, .25,.25, .125,-.375
*DASH
0, 0,0, .125,.125, .125,-.125
*DOTS
0, 0,0, .03125,.0625, 0,-.0625
*GRASS
90, 0,0, .707106781,.707106781, .1875,-1.226717
45, 0,0, 0,1, .1875,-.8125
135, 0,0, 0,1, .1875,-.8125
*INSUL
0, 0,0, 0,.375
0, 0,.125, 0,.375, .125,-.125
0, 0,.25, 0,.375, .125,-.125
*LINE
0, 0,0, 0,.125
*MUDST
0, 0,0, .5,.25, .25,-.25,0,-.25,0,-.25
*NET
0, 0,0, 0,.125
90, 0,0, 0,.125
*NET3
0, 0,0, 0,.125
60, 0,0, 0,.125
120, 0,0, 0,.125
*PLAST
0, 0,0, 0,.25
0, 0,.03125, 0,.25
0, 0,.0625, 0,.25
*SACNCR
45, 0,0, 0,.09375
45, .066291261,0, 0,.09375, 0,-.09375
*SQUARE
0, 0,0, 0,.125, .125,-.125
90, 0,0, 0,.125, .125,-.125
*STEEL
45, 0,0, 0,.125
45, 0,.0625, 0,.125
*TRANS
0, 0,0, 0,.25
0, 0,.125, 0,.25, .125,-.125
*TRIANG
60, 0,0, .1875,.324759526, .1875,-.1875
120, 0,0, .1875,.324759526, .1875,-.1875
0, -.09375,.162379763, .1875,.324759526, .1875,-.1875
*ZIGZAG
0, 0,0, .25,.25, .25,-.25
90, .25,0, .25,.25, .25,-.25
*ISO02W100
0, 0,0, 0,5, 12,-3
*ISO03W100
0, 0,0, 0,5, 12,-18
*ISO04W100
0, 0,0, 0,5, 24,-3,.5,-3
*ISO05W100
0, 0,0, 0,5, 24,-3,.5,-3,.5,-3
*ISO07W100
0, 0,0, 0,5, .5,-3
*ISO08W100
0, 0,0, 0,5, 24,-3,6,-3
*ISO09W100
0, 0,0, 0,5, 24,-3,6,-3,6,-3
*ISO10W100
0, 0,0, 0,5, 12,-3,.5,-3
*ISO11W100
0, 0,0, 0,5, 12,-3,12,-3,.5,-3
*ISO12W100
0, 0,0, 0,5, 12,-3,.5,-3,.5,-3
`;

/** One .pat family before scaling and rotation. */
interface PatFamily {
  angle: number;
  origin: Vec2;
  /** delta-x along the line, delta-y across it. */
  delta: Vec2;
  dashes: number[];
}

/** Parses .pat text into families by upper-case name; malformed lines are skipped. */
export function parsePat(text: string): Map<string, PatFamily[]> {
  const out = new Map<string, PatFamily[]>();
  let current: PatFamily[] | undefined;
  for (const raw of text.split('\n')) {
    const line = raw.replace(/;.*$/, '').trim();
    if (!line) continue;
    if (line.startsWith('*')) {
      current = [];
      out.set((line.slice(1).split(',')[0] as string).trim().toUpperCase(), current);
      continue;
    }
    const values = line.split(',').map((v) => Number.parseFloat(v));
    if (!current || values.length < 5 || values.some((v) => !Number.isFinite(v))) continue;
    const [angle, ox, oy, dx, dy, ...dashes] = values as [number, number, number, number, number, ...number[]];
    current.push({ angle, origin: { x: ox, y: oy }, delta: { x: dx, y: dy }, dashes });
  }
  return out;
}

/**
 * Pattern lines of a standard pattern as a HATCH would store them: scaled by `scale` (and × 25.4
 * for the inch patterns of a metric drawing), rotated by `angle` degrees, with a second family
 * at +90° when `double` (cross-hatching). Empty for a name the table does not hold.
 */
export function standardPatternLines(name: string, scale: number, angle: number, metric: boolean, double: boolean, table: ReadonlyMap<string, PatFamily[]> = STANDARD_PATTERNS): PatternLine[] {
  const families = table.get(name.toUpperCase());
  if (!families) return [];
  const unit = (metric && !name.toUpperCase().startsWith('ISO') ? 25.4 : 1) * (scale > 0 ? scale : 1);
  const lines: PatternLine[] = [];
  for (const turn of double ? [0, 90] : [0]) {
    for (const f of families) {
      const rotation = ((angle + turn) * Math.PI) / 180;
      const direction = ((f.angle + angle + turn) * Math.PI) / 180;
      const rotate = (p: Vec2, r: number): Vec2 => ({ x: unit * (p.x * Math.cos(r) - p.y * Math.sin(r)), y: unit * (p.x * Math.sin(r) + p.y * Math.cos(r)) });
      lines.push({ angle: f.angle + angle + turn, base: rotate(f.origin, rotation), offset: rotate(f.delta, direction), dashes: f.dashes.map((d) => d * unit) });
    }
  }
  return lines;
}

/** The acad.pat families above, parsed once per import (immutable data, not state). */
const STANDARD_PATTERNS: ReadonlyMap<string, PatFamily[]> = parsePat(ACAD_PAT);

/** Names of the standard patterns the table holds. */
export function standardPatternNames(): string[] {
  return [...STANDARD_PATTERNS.keys()];
}
