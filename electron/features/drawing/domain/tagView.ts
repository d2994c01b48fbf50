import type { Vec2 } from './model';
import type { TagStream } from './tags';

/** Read access to the tags [start, end) of one entity or object. */
export class TagView {
  constructor(
    readonly tags: TagStream,
    readonly start: number,
    readonly end: number,
  ) {}

  /** Index of the first tag with `code` at or after `from`, or -1. */
  indexOf(code: number, from = this.start): number {
    const codes = this.tags.codes;
    for (let i = from; i < this.end; i++) if (codes[i] === code) return i;
    return -1;
  }

  str(code: number, fallback = ''): string {
    const i = this.indexOf(code);
    return i < 0 ? fallback : (this.tags.values[i] as string);
  }

  num(code: number, fallback = 0): number {
    const i = this.indexOf(code);
    if (i < 0) return fallback;
    const value = Number.parseFloat(this.tags.values[i] as string);
    return Number.isFinite(value) ? value : fallback;
  }

  point(xCode: number, fallback: Vec2 = { x: 0, y: 0 }): Vec2 {
    const i = this.indexOf(xCode);
    if (i < 0) return fallback;
    return { x: numberAt(this.tags, i), y: this.tags.codes[i + 1] === xCode + 10 ? numberAt(this.tags, i + 1) : 0 };
  }

  /** Every (x, y) pair written with `xCode`/`xCode+10`, in order. */
  points(xCode: number): Vec2[] {
    const out: Vec2[] = [];
    const codes = this.tags.codes;
    for (let i = this.start; i < this.end; i++) {
      if (codes[i] !== xCode) continue;
      out.push({ x: numberAt(this.tags, i), y: codes[i + 1] === xCode + 10 ? numberAt(this.tags, i + 1) : 0 });
    }
    return out;
  }

  numbers(code: number): number[] {
    const out: number[] = [];
    for (let i = this.start; i < this.end; i++) if (this.tags.codes[i] === code) out.push(numberAt(this.tags, i));
    return out;
  }
}

/** Numeric value of tag i; 0 for an unparsable number (reported by callers where it matters). */
export function numberAt(tags: TagStream, i: number): number {
  const value = Number.parseFloat(tags.values[i] as string);
  return Number.isFinite(value) ? value : 0;
}

/** Index of the next tag with group code 0 (the start of the next entity/object) at or after `from`. */
export function nextZero(tags: TagStream, from: number, end: number): number {
  let i = from;
  while (i < end && tags.codes[i] !== 0) i++;
  return i;
}
