/** GB/T 14689 = ISO 5457 trimmed sheet sizes in mm (long side, short side). */
export const SHEETS = [
  { name: 'A0', long: 1189, short: 841 },
  { name: 'A1', long: 841, short: 594 },
  { name: 'A2', long: 594, short: 420 },
  { name: 'A3', long: 420, short: 297 },
  { name: 'A4', long: 297, short: 210 },
] as const;

export interface SheetMatch {
  sheet: string;
  orientation: 'landscape' | 'portrait';
  /** Drawing units per sheet millimetre (100 = a 1:100 frame drawn in mm). */
  scale: number;
  /** "1:100", "2:1", or "1:1.969" for an odd factor. */
  scaleText: string;
}

/** Aspect ratios of all A sizes are √2 within this tolerance. */
const RATIO_TOLERANCE = 0.015;
const SCALE_TOLERANCE = 0.03;

/** How "usual" a scale factor is: 0 for powers of ten, 1 for 2/5 multiples, 2 for 2.5, else 9. */
function niceness(k: number): number {
  const exponent = Math.floor(Math.log10(k));
  const mantissa = k / 10 ** exponent;
  const near = (v: number): boolean => Math.abs(mantissa - v) / v < SCALE_TOLERANCE;
  if (near(1) || near(10)) return 0;
  if (near(2) || near(5)) return 1;
  if (near(2.5)) return 2;
  return 9;
}

export function formatScale(k: number): string {
  const round = (v: number): string => String(Math.round(v * 1000) / 1000);
  return k >= 1 ? `1:${round(k)}` : `${round(1 / k)}:1`;
}

/** Parses a title-block scale like "1:100", "1：50" or "2:1" into drawing units per sheet mm. */
export function parseScaleText(text: string | null | undefined): number | undefined {
  const match = /^\s*(\d+(?:\.\d+)?)\s*[:：]\s*(\d+(?:\.\d+)?)\s*$/.exec(text ?? '');
  if (!match) return undefined;
  const a = Number(match[1]);
  const b = Number(match[2]);
  return a > 0 && b > 0 ? b / a : undefined;
}

/**
 * Matches a width × height to an A-size sheet at some uniform scale. All A sizes share the √2
 * aspect, so the size comes from (in order) a sheet name in the block name, the title block's
 * scale, or the most usual scale factor (powers of ten first, then 2/5 multiples).
 */
export function matchSheet(width: number, height: number, hints: { name?: string; scale?: number } = {}): SheetMatch | undefined {
  const long = Math.max(width, height);
  const short = Math.min(width, height);
  if (!(short > 0) || Math.abs(long / short - Math.SQRT2) / Math.SQRT2 > RATIO_TOLERANCE) return undefined;
  const orientation = width >= height ? 'landscape' : 'portrait';
  const candidates = SHEETS.map((s) => ({ sheet: s.name as string, k: long / s.long }));
  const named = /(?:^|[^a-z0-9])a([0-4])(?![0-9])/i.exec(hints.name ?? '');
  let pick = named ? candidates.find((c) => c.sheet === `A${named[1]}`) : undefined;
  if (!pick && hints.scale) pick = candidates.find((c) => Math.abs(c.k - (hints.scale as number)) / (hints.scale as number) < SCALE_TOLERANCE);
  if (!pick) pick = [...candidates].sort((a, b) => niceness(a.k) - niceness(b.k) || Math.abs(Math.log10(a.k)) - Math.abs(Math.log10(b.k)))[0];
  if (!pick) return undefined;
  return { sheet: pick.sheet, orientation, scale: pick.k, scaleText: formatScale(pick.k) };
}
