import { measureDimension } from './measuredDimensions';
import type { DxfDocument, DxfEntity } from './model';
import type { MtextRun } from './textEscapes';

/** The measured value as the dimension style prints it (decimals, DIMZIN trailing zeros), '' when unknown. */
function measuredText(doc: DxfDocument, entity: DxfEntity): string {
  const m = measureDimension(doc, entity);
  if (!m || m.displayValue === null) return '';
  const fixed = m.displayValue.toFixed(Math.max(0, Math.min(8, m.decimals)));
  return m.suppressTrailingZeros && fixed.includes('.') ? fixed.replace(/\.?0+$/, '') : fixed;
}

/**
 * Fills a literal `<>` left in a DIMENSION block's texts (some writers keep the placeholder of
 * the override) with the measured value as the style prints it. `blockTexts` are the block's
 * text primitives, changed in place. A dimension without block text is left undrawn as before:
 * its text height and placement would need the full dimension style (not done here).
 */
export function fillDimensionPlaceholders(doc: DxfDocument, entity: DxfEntity, blockTexts: { text: string; runs?: MtextRun[][] }[]): void {
  if (entity.geometry.kind !== 'dimension') return;
  let value: string | undefined;
  const fill = (text: string): string => text.split('<>').join((value ??= measuredText(doc, entity)));
  for (const t of blockTexts) {
    if (!t.text.includes('<>')) continue;
    t.text = fill(t.text);
    // runs are shared with the parsed entity: replaced by copies, never edited
    if (t.runs) t.runs = t.runs.map((line) => line.map((r) => (r.kind === 'text' ? { ...r, text: fill(r.text) } : r)));
  }
}
