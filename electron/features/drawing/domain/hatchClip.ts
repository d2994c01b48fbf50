import type { Vec2 } from './model';
import type { PatternLine } from './hatchPatterns';

/** Bounds of one pattern fill: lines crossing the area, boundary crossings and drawn segments. */
export interface PatternLimits {
  maxLines: number;
  maxCrossings: number;
  maxSegments: number;
}

/** A hatch drawing more than this is refused (AutoCAD refuses such hatches too: "too dense"). */
export const PATTERN_LIMITS: PatternLimits = { maxLines: 20_000, maxCrossings: 400_000, maxSegments: 250_000 };

/** Pattern segments inside the boundary; `complete` is false when a limit stopped the work. */
export interface ClippedPattern {
  segments: [Vec2, Vec2][];
  complete: boolean;
}

interface Family {
  u: Vec2;
  n: Vec2;
  /** Distance between neighbouring lines (> 0) and the shift along the line per step. */
  spacing: number;
  /** Sign of offset·n folded into the line index. */
  sign: number;
  base: Vec2;
  offset: Vec2;
  dashes: number[];
  period: number;
}

function family(line: PatternLine): Family | undefined {
  const r = (line.angle * Math.PI) / 180;
  const u = { x: Math.cos(r), y: Math.sin(r) };
  const n = { x: -u.y, y: u.x };
  const across = line.offset.x * n.x + line.offset.y * n.y;
  if (!Number.isFinite(across) || Math.abs(across) < 1e-12) return undefined; // every line on top of the first: nothing to spread
  const period = line.dashes.reduce((sum, d) => sum + Math.abs(d), 0);
  return { u, n, spacing: Math.abs(across), sign: Math.sign(across), base: line.base, offset: line.offset, dashes: Number.isFinite(period) && period > 1e-12 ? line.dashes : [], period };
}

/** Range of line indices of a family that can cross the loops (by projecting every vertex across the lines). */
function lineRange(f: Family, loops: Vec2[][]): [number, number] {
  let lo = Number.POSITIVE_INFINITY;
  let hi = Number.NEGATIVE_INFINITY;
  for (const loop of loops) {
    for (const p of loop) {
      const h = ((p.x - f.base.x) * f.n.x + (p.y - f.base.y) * f.n.y) / f.spacing;
      if (h < lo) lo = h;
      if (h > hi) hi = h;
    }
  }
  return Number.isFinite(lo) && Number.isFinite(hi) ? [Math.ceil(lo), Math.floor(hi)] : [0, -1];
}

/**
 * Estimated work of a pattern fill (lines crossing the area, plus dash pieces along them), from
 * the loops' extent alone: cheap enough to check every hatch of a drawing when it is opened.
 */
export function patternWork(loops: Vec2[][], lines: PatternLine[]): number {
  let minX = Number.POSITIVE_INFINITY;
  let minY = Number.POSITIVE_INFINITY;
  let maxX = Number.NEGATIVE_INFINITY;
  let maxY = Number.NEGATIVE_INFINITY;
  for (const loop of loops) {
    for (const p of loop) {
      minX = Math.min(minX, p.x);
      minY = Math.min(minY, p.y);
      maxX = Math.max(maxX, p.x);
      maxY = Math.max(maxY, p.y);
    }
  }
  const diagonal = Math.hypot(maxX - minX, maxY - minY);
  if (!Number.isFinite(diagonal)) return 0;
  let work = 0;
  for (const line of lines) {
    const f = family(line);
    if (!f) continue;
    const [k0, k1] = lineRange(f, loops);
    const count = Math.max(0, k1 - k0 + 1);
    work += count * (f.dashes.length > 0 ? 1 + (diagonal / f.period) * f.dashes.length : 1);
  }
  return work;
}

/**
 * Clips pattern lines to boundary loops with the even-odd rule (islands stay empty): each line
 * of each family is intersected with every loop edge (edges are bucketed by the lines they
 * cross, so the work is the number of crossings), the crossings are sorted and paired into
 * inside spans, and the spans are cut into the family's dashes, phased from the line's origin
 * `base + k·offset`. Loops are treated as closed. Stops at `limits` with `complete: false`.
 */
export function clipPattern(loops: Vec2[][], lines: PatternLine[], limits: PatternLimits = PATTERN_LIMITS): ClippedPattern {
  const segments: [Vec2, Vec2][] = [];
  let linesLeft = limits.maxLines;
  let crossingsLeft = limits.maxCrossings;
  let cyclesLeft = limits.maxSegments * 4;
  for (const line of lines) {
    const f = family(line);
    if (!f) continue;
    const [k0, k1] = lineRange(f, loops);
    const count = k1 - k0 + 1;
    if (count <= 0) continue;
    if (!Number.isFinite(count) || count > linesLeft) return { segments, complete: false };
    linesLeft -= count;
    const buckets: number[][] = Array.from({ length: count }, () => []);
    for (const loop of loops) {
      for (let i = 0; i < loop.length; i++) {
        const a = loop[i] as Vec2;
        const b = loop[(i + 1) % loop.length] as Vec2;
        const ha = ((a.x - f.base.x) * f.n.x + (a.y - f.base.y) * f.n.y) / f.spacing;
        const hb = ((b.x - f.base.x) * f.n.x + (b.y - f.base.y) * f.n.y) / f.spacing;
        if (ha === hb) continue; // parallel to the lines: touches, never crosses
        // half-open rule (low ≤ k < high): a vertex exactly on a line counts for one of its two edges only
        const from = Math.max(k0, Math.ceil(Math.min(ha, hb)));
        const to = Math.min(k1, Math.ceil(Math.max(ha, hb)) - 1);
        for (let k = from; k <= to; k++) {
          if (--crossingsLeft < 0) return { segments, complete: false };
          const lambda = (k - ha) / (hb - ha);
          const x = a.x + (b.x - a.x) * lambda;
          const y = a.y + (b.y - a.y) * lambda;
          // position along line k, measured from its origin base + (k·sign)·offset
          const ox = f.base.x + k * f.sign * f.offset.x;
          const oy = f.base.y + k * f.sign * f.offset.y;
          (buckets[k - k0] as number[]).push((x - ox) * f.u.x + (y - oy) * f.u.y);
        }
      }
    }
    for (let j = 0; j < count; j++) {
      const ts = (buckets[j] as number[]).sort((p, q) => p - q);
      const k = k0 + j;
      const origin = { x: f.base.x + k * f.sign * f.offset.x, y: f.base.y + k * f.sign * f.offset.y };
      const at = (t: number): Vec2 => ({ x: origin.x + t * f.u.x, y: origin.y + t * f.u.y });
      for (let s = 0; s + 1 < ts.length; s += 2) {
        const t0 = ts[s] as number;
        const t1 = ts[s + 1] as number;
        if (t1 - t0 <= 1e-12 * Math.max(1, Math.abs(t0))) continue; // a corner touching the line: two crossings, nothing inside
        if (f.dashes.length === 0) {
          if (segments.push([at(t0), at(t1)]) > limits.maxSegments) return { segments: segments.slice(0, limits.maxSegments), complete: false };
          continue;
        }
        const first = Math.floor(t0 / f.period);
        const cycles = Math.floor(t1 / f.period) - first + 1;
        // a period far below the span (or below float resolution) is refused, never looped over
        if (!(cycles <= limits.maxSegments) || (cyclesLeft -= cycles) < 0) return { segments, complete: false };
        for (let c = 0; c < cycles; c++) {
          let pos = (first + c) * f.period;
          for (const d of f.dashes) {
            const length = Math.abs(d);
            if (d >= 0) {
              const a = Math.max(pos, t0);
              const b = Math.min(pos + length, t1);
              if (length > 0 ? b > a : pos >= t0 && pos <= t1) {
                if (segments.push([at(a), at(b)]) > limits.maxSegments) return { segments: segments.slice(0, limits.maxSegments), complete: false };
              }
            }
            pos += length;
          }
        }
      }
    }
  }
  return { segments, complete: true };
}
