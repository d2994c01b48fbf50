import type { RuleParams } from '../checklist';
import type { DimensionItem } from '../evidence';
import { draftFor, say, type FrameRule } from './context';

type ParamsOf<R extends RuleParams['rule']> = Extract<RuleParams, { rule: R }>;

const ANGULAR_KINDS = new Set(['angular', 'angular3p']);
const DEG = 180 / Math.PI;

/** A number a dimension text states, with the decimal places it was written with. */
export interface StatedValue {
  value: number;
  decimals: number;
}

/**
 * The number a dimension text states, or undefined when it states none (empty, "<>" keeps the
 * measured value, or plain words such as "见详图"). MTEXT formatting codes, diameter/radius
 * prefixes and counts ("2×", "4-Ø") are not part of the value.
 */
export function statedValue(text: string | null): StatedValue | undefined {
  if (!text || text.includes('<>')) return undefined;
  const plain = text
    .replace(/\\[A-Za-z][^;\\]*;/g, '')
    .replace(/[{}]/g, '')
    .replace(/^\s*\d+\s*(?:[xX×]|-(?=\s*(?:%%[cC]|[ØøΦφ⌀R])))\s*/, '')
    .replace(/%%[cCdDpP]/g, ' ');
  const match = /(?:^|[^0-9.])([0-9]+)(?:[.,]([0-9]+))?/.exec(plain);
  if (!match) return undefined;
  const decimals = match[2]?.length ?? 0;
  return { value: Number(`${match[1]}${decimals > 0 ? `.${match[2]}` : ''}`), decimals };
}

/** The number a dimension override states (see statedValue). */
export const overrideValue = (override: string | null): number | undefined => statedValue(override)?.value;

/**
 * What the geometry says the text should read, in display units: the value measured from the
 * definition points (or, from a backend that gives only the stored group 42, that value) times
 * DIMLFAC. A stored angle without a known kind may be radians or degrees: both readings are kept.
 */
function expectedReadings(dim: DimensionItem): number[] {
  const factor = dim.display?.linearFactor ?? 1;
  const angular = dim.dimType !== null && ANGULAR_KINDS.has(dim.dimType);
  if (dim.measured !== null) return [Math.abs(dim.measured) * (angular ? 1 : factor)];
  // Some writers store -1 for "not computed".
  if (dim.measurement === null || dim.measurement < 0) return [];
  const stored = Math.abs(dim.measurement);
  if (angular) return [stored * DEG];
  return dim.dimType === null ? [stored * factor, stored * DEG] : [stored * factor];
}

/**
 * The tolerance follows the displayed precision: half a unit of the last digit shown, and at
 * least half the DIMRND step. In text the style generated (the block's), a whole number under
 * trailing-zero suppression (DIMZIN 8) stands for DIMDEC places; a typed override means what it
 * shows ("(18)" claims 18 to the unit).
 */
function tolerance(stated: StatedValue, dim: DimensionItem, slack: number, generated: boolean): number {
  const decimals = generated && stated.decimals === 0 && dim.display?.suppressTrailingZeros ? dim.display.decimals : stated.decimals;
  return Math.max(0.5 * 10 ** -decimals, (dim.display?.roundTo ?? 0) / 2) + slack;
}

const fmt = (n: number, decimals: number): string => String(Math.round(n * 10 ** decimals) / 10 ** decimals);

/**
 * DIM-001: the displayed value (a text override, or with none the text the dimension's block
 * prints) disagrees with what the geometry measures. Symbolic overrides ("<>", words) are not
 * checked; "<> H7" keeps the measured value.
 */
export const dimensionOverrideRule: FrameRule<ParamsOf<'dimension_override'>> = (item, params, { frame, evidence, locale, annotationLocale }) =>
  evidence.dimensions.flatMap((dim) => {
    if (dim.position === null) return [];
    const overridden = dim.textOverride !== null && dim.textOverride.trim() !== '';
    const shown = overridden ? dim.textOverride : dim.blockText;
    const stated = statedValue(shown);
    const readings = expectedReadings(dim);
    if (!stated || readings.length === 0) return [];
    const tol = tolerance(stated, dim, params.absoluteTolerance, !overridden);
    if (readings.some((r) => Math.abs(stated.value - r) <= tol)) return [];
    const decimals = Math.max(stated.decimals, dim.display?.decimals ?? 3);
    const measured = fmt(readings[0]!, decimals);
    const factor = dim.display && dim.display.linearFactor !== 1 && !ANGULAR_KINDS.has(dim.dimType ?? '') ? dim.display.linearFactor : null;
    const scaleNote = factor === null ? '' : say(locale, `（含测量比例因子 DIMLFAC=${factor}）`, ` (with DIMLFAC ${factor})`);
    const what = overridden ? say(locale, '尺寸文字被改写为', 'Dimension text overridden as') : say(locale, '尺寸显示为', 'Dimension shows');
    return [
      draftFor(item, frame.id, {
        message: say(locale, `${what}“${shown}”，但按几何实测应为 ${measured}${scaleNote}。`, `${what} "${shown}" but the geometry measures ${measured}${scaleNote}.`),
        evidenceRefs: ['tool:get_dimensions', `entity:${dim.handle}`],
        location: { kind: 'point', point: dim.position },
        handles: [dim.handle],
        annotationText: say(annotationLocale, `假尺寸：标注 ${shown}，实测 ${measured}`, `False dimension: says ${shown}, measures ${measured}`),
      }),
    ];
  });
