import { measureDimension } from './measuredDimensions';
import type { DxfDocument, DxfEntity, TextGeometry } from './model';
import type { MtextRun } from './textEscapes';

/** The measured value as the dimension style prints it (decimals, DIMZIN trailing zeros), '' when unknown. */
function measuredText(doc: DxfDocument, entity: DxfEntity): string {
  const m = measureDimension(doc, entity);
  if (!m || m.displayValue === null) return '';
  const fixed = m.displayValue.toFixed(Math.max(0, Math.min(8, m.decimals)));
  return m.suppressTrailingZeros && fixed.includes('.') ? fixed.replace(/\.?0+$/, '') : fixed;
}

function headerNumber(doc: DxfDocument, name: string, fallback: number): number {
  const v = Number.parseFloat(doc.header.get(name)?.values[0]?.value ?? '');
  return Number.isFinite(v) && v > 0 ? v : fallback;
}

/**
 * What a DIMENSION's text shows when its block does not say it: the block's texts with a
 * literal `<>` (some writers leave the placeholder in) replaced by the measured value, and,
 * when the block has no text at all (no block, R12 writers), the entity's own override (group
 * 1, `<>` = the measured value; empty = the value itself) at its text point, $DIMTXT × $DIMSCALE high.
 * `blockTexts` (the block's text primitives) get their `<>` filled in place; returns the text to add, or undefined.
 */
export function dimensionText(doc: DxfDocument, entity: DxfEntity, blockTexts: { text: string; runs?: MtextRun[][] }[]): TextGeometry | undefined {
  const g = entity.geometry;
  if (g.kind !== 'dimension') return undefined;
  let value: string | undefined;
  const measured = (): string => (value ??= measuredText(doc, entity));
  const fill = (text: string): string => text.split('<>').join(measured());
  for (const t of blockTexts) {
    if (!t.text.includes('<>')) continue;
    t.text = fill(t.text);
    // runs are shared with the parsed entity: replaced by copies, never edited
    if (t.runs) t.runs = t.runs.map((line) => line.map((r) => (r.kind === 'text' ? { ...r, text: fill(r.text) } : r)));
  }
  if (blockTexts.length > 0) return undefined;
  const override = g.textOverride.trim();
  if (override === '.') return undefined; // a single dot suppresses the text
  const text = override ? fill(override) : measured();
  if (!text.trim()) return undefined;
  const height = headerNumber(doc, '$DIMTXT', 2.5) * headerNumber(doc, '$DIMSCALE', 1);
  return { kind: 'text', text, raw: g.textOverride, at: g.textAt, height, rotation: 0, hAlign: 1, vAlign: 2, width: 0, mtext: true };
}
