import type { RuleParams } from '../checklist';
import type { TextItem } from '../evidence';
import { boxOfPoints } from '../geometry';
import { draftFor, frameUnitsPerPaperMm, paperScaleKnown, say, type FrameRule } from './context';

type ParamsOf<R extends RuleParams['rule']> = Extract<RuleParams, { rule: R }>;

const fmt = (n: number): string => String(Math.round(n * 1000) / 1000);

/**
 * TXT-001: text heights off the GB/T 14691 series at the frame's paper scale. One finding per
 * paper height (a style used fifty times is one finding); silent when the paper scale is unknown.
 */
export const textHeightSeriesRule: FrameRule<ParamsOf<'text_height_series'>> = (item, params, { frame, evidence, locale }) => {
  if (!paperScaleKnown(frame)) return [];
  const factor = frameUnitsPerPaperMm(frame);
  const onSeries = (height: number): boolean =>
    params.series.some((paperMm) => Math.abs(height - paperMm * factor) <= paperMm * factor * params.relativeTolerance);
  const byHeight = new Map<string, TextItem[]>();
  for (const text of evidence.texts) {
    if (!(text.height > 0) || onSeries(text.height)) continue;
    const key = fmt(text.height / factor);
    byHeight.set(key, [...(byHeight.get(key) ?? []), text]);
  }
  return [...byHeight.values()].map((texts) => {
    const text = texts[0]!;
    const paper = text.height / factor;
    const nearest = params.series.reduce((best, s) => (Math.abs(s - paper) < Math.abs(best - paper) ? s : best));
    const more = texts.length > 1 ? say(locale, `等 ${texts.length} 处`, ` and ${texts.length - 1} more`) : '';
    return draftFor(item, frame.id, {
      message: say(
        locale,
        `文字“${text.text.slice(0, 40)}”${more}高度 ${fmt(text.height)}（图纸上 ${fmt(paper)} mm）不在标准字高系列中，建议 ${fmt(nearest)} mm。`,
        `Text "${text.text.slice(0, 40)}"${more} is ${fmt(text.height)} high (${fmt(paper)} mm on paper), off the standard series; use ${fmt(nearest)} mm.`,
      ),
      evidenceRefs: ['tool:get_texts', ...texts.slice(0, 50).map((t) => `entity:${t.handle}`)],
      location: texts.length === 1 ? { kind: 'point', point: text.position } : { kind: 'bbox', bbox: boxOfPoints(texts.map((t) => t.position))! },
      handles: texts.map((t) => t.handle),
      discriminator: fmt(paper),
      annotationText: say(locale, `字高 ${fmt(paper)} 非标准，建议 ${fmt(nearest)}`, `Text height ${fmt(paper)} off series; use ${fmt(nearest)}`),
    });
  });
};

/**
 * The first number a dimension text states and how many decimals it shows, or undefined when it
 * states none. MTEXT formatting codes, ⌀/R/° prefixes (%%c, %%d, %%p) and "2×" counts are not part
 * of the value.
 */
export function statedNumber(text: string): { value: number; decimals: number } | undefined {
  const plain = text
    .replace(/\\[A-Za-z][^;\\]*;/g, '')
    .replace(/[{}]/g, '')
    .replace(/%%[cCdDpP]/g, ' ')
    .replace(/^\s*\d+\s*[xX×]\s*/, '');
  const match = /(?:^|[^0-9.])([0-9]+(?:[.,]([0-9]+))?)/.exec(plain);
  return match ? { value: Number(match[1]!.replace(',', '.')), decimals: match[2]?.length ?? 0 } : undefined;
}

/**
 * The number a dimension override states, or undefined when it states none (empty, "<>" keeps
 * the measured value, or plain words such as "见详图").
 */
export function overrideValue(override: string | null): number | undefined {
  if (!override || override.includes('<>')) return undefined;
  return statedNumber(override)?.value;
}

export const dimensionOverrideRule: FrameRule<ParamsOf<'dimension_override'>> = (item, params, { frame, evidence, locale }) =>
  evidence.dimensions.flatMap((dim) => {
    const stated = overrideValue(dim.textOverride);
    if (stated === undefined || dim.measurement === null || dim.position === null) return [];
    const measured = Math.abs(dim.measurement);
    const tolerance = Math.max(params.absoluteTolerance, measured * params.relativeTolerance);
    // Angular dimensions may report radians while the text is in degrees: accept either reading.
    const agrees = [measured, (measured * 180) / Math.PI].some((m) => Math.abs(stated - m) <= Math.max(tolerance, m * params.relativeTolerance));
    if (agrees) return [];
    return [
      draftFor(item, frame.id, {
        message: say(
          locale,
          `尺寸文字被改写为“${dim.textOverride}”，但实测值为 ${fmt(measured)}。`,
          `Dimension text overridden as "${dim.textOverride}" but the geometry measures ${fmt(measured)}.`,
        ),
        evidenceRefs: ['tool:get_dimensions', `entity:${dim.handle}`],
        location: { kind: 'point', point: dim.position },
        handles: [dim.handle],
        annotationText: say(locale, `假尺寸：标注 ${dim.textOverride}，实测 ${fmt(measured)}`, `False dimension: says ${dim.textOverride}, measures ${fmt(measured)}`),
      }),
    ];
  });
