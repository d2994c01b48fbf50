/** GB/T 14689 = ISO 5457 trimmed sheet sizes in mm (long side, short side) and border margins. */
export const SHEETS = [
  { name: 'A0', long: 1189, short: 841, margin: 20, bindingEdge: 10 },
  { name: 'A1', long: 841, short: 594, margin: 20, bindingEdge: 10 },
  { name: 'A2', long: 594, short: 420, margin: 10, bindingEdge: 10 },
  { name: 'A3', long: 420, short: 297, margin: 10, bindingEdge: 5 },
  { name: 'A4', long: 297, short: 210, margin: 10, bindingEdge: 5 },
] as const;

/** Binding margin a on the left of a GB frame with a binding edge (GB/T 14689 table 3). */
export const BINDING_MARGIN = 25;

export interface SheetMatch {
  sheet: string;
  orientation: 'landscape' | 'portrait';
  /** What the rectangle is: the trimmed sheet edge, or the drawn border inside the margins. */
  outline: 'sheet' | 'border' | 'border_with_binding';
  /** Drawing units per sheet millimetre (100 = a 1:100 frame drawn in mm). */
  scale: number;
  /** "1:100", "2:1", or "1.969:1" for an odd factor. */
  scaleText: string;
  /** True for a usual scale factor (1, 2, 2.5, 5 × 10ⁿ): a strong sign this really is a sheet. */
  usualScale: boolean;
  /** Trimmed sheet size in mm as oriented on the drawing (420 × 297 for A3 landscape), whatever outline was drawn. */
  paperWidth: number;
  paperHeight: number;
  /** Margins between the drawn outline and the trim line in sheet mm (all 0 when the outline is the trim line). */
  margins: { left: number; right: number; bottom: number; top: number };
}

interface Shape {
  sheet: string;
  outline: SheetMatch['outline'];
  long: number;
  short: number;
  /** Binding shapes only fit one orientation: the 25 mm margin is always on the left. */
  orientation?: SheetMatch['orientation'];
}

/**
 * Every outline a frame may be drawn as: trimmed edge, border without binding edge (e on all
 * sides) and with it (a = 25 on the left, c elsewhere; the left is a short side in landscape and
 * a long side in portrait, so the two orientations have different shapes).
 */
const SHAPES: Shape[] = SHEETS.flatMap((s) => [
  { sheet: s.name, outline: 'sheet' as const, long: s.long, short: s.short },
  { sheet: s.name, outline: 'border' as const, long: s.long - 2 * s.margin, short: s.short - 2 * s.margin },
  { sheet: s.name, outline: 'border_with_binding' as const, long: s.long - BINDING_MARGIN - s.bindingEdge, short: s.short - 2 * s.bindingEdge, orientation: 'landscape' as const },
  { sheet: s.name, outline: 'border_with_binding' as const, long: s.long - 2 * s.bindingEdge, short: s.short - BINDING_MARGIN - s.bindingEdge, orientation: 'portrait' as const },
]);

function marginsOf(sheet: (typeof SHEETS)[number], outline: SheetMatch['outline']): SheetMatch['margins'] {
  if (outline === 'sheet') return { left: 0, right: 0, bottom: 0, top: 0 };
  if (outline === 'border') return { left: sheet.margin, right: sheet.margin, bottom: sheet.margin, top: sheet.margin };
  return { left: BINDING_MARGIN, right: sheet.bindingEdge, bottom: sheet.bindingEdge, top: sheet.bindingEdge };
}

/** The trimmed sheet around a matched outline, in drawing units (the outline itself when it is the trim line). */
export function trimmedSheetBox(box: { minX: number; minY: number; maxX: number; maxY: number }, match: SheetMatch): { minX: number; minY: number; maxX: number; maxY: number } {
  const m = match.margins;
  const k = match.scale;
  return { minX: box.minX - m.left * k, minY: box.minY - m.bottom * k, maxX: box.maxX + m.right * k, maxY: box.maxY + m.top * k };
}

/** Aspect tolerance; tight because border outlines of neighbouring sizes differ by ~1 %. */
const RATIO_TOLERANCE = 0.004;
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
 * Matches a width × height to an A0–A4 sheet outline (trimmed edge or drawn border) at some
 * uniform scale. A sizes share the √2 aspect, so the size comes from (in order) a sheet name in
 * the block name, the title block's scale, or the most usual scale factor.
 */
export function matchSheet(width: number, height: number, hints: { name?: string; scale?: number } = {}): SheetMatch | undefined {
  const long = Math.max(width, height);
  const short = Math.min(width, height);
  if (!(short > 0)) return undefined;
  const orientation = width >= height ? 'landscape' : 'portrait';
  const candidates = SHAPES.filter((s) => (s.orientation === undefined || s.orientation === orientation) && Math.abs(long / short - s.long / s.short) / (s.long / s.short) <= RATIO_TOLERANCE).map((s) => ({ ...s, k: long / s.long }));
  if (candidates.length === 0) return undefined;
  const named = /(?:^|[^a-z0-9])a([0-4])(?![0-9])/i.exec(hints.name ?? '');
  let pick = named ? candidates.find((c) => c.sheet === `A${named[1]}`) : undefined;
  const scale = hints.scale;
  if (!pick && scale) pick = candidates.find((c) => Math.abs(c.k - scale) / scale < SCALE_TOLERANCE);
  if (!pick) pick = [...candidates].sort((a, b) => niceness(a.k) - niceness(b.k) || Math.abs(Math.log10(a.k)) - Math.abs(Math.log10(b.k)))[0];
  if (!pick) return undefined;
  const picked = pick;
  const sheet = SHEETS.find((s) => s.name === picked.sheet) ?? SHEETS[0];
  const [paperWidth, paperHeight] = orientation === 'landscape' ? [sheet.long, sheet.short] : [sheet.short, sheet.long];
  return { sheet: pick.sheet, orientation, outline: pick.outline, scale: pick.k, scaleText: formatScale(pick.k), usualScale: niceness(pick.k) <= 2, paperWidth, paperHeight, margins: marginsOf(sheet, pick.outline) };
}
