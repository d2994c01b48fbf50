import type { RuleParams } from '../checklist';
import { draftFor, frameUnitsPerPaperMm, say, type FrameRule } from './context';

type ParamsOf<R extends RuleParams['rule']> = Extract<RuleParams, { rule: R }>;

const fmt = (n: number): string => String(Math.round(n * 1000) / 1000);

export const textHeightSeriesRule: FrameRule<ParamsOf<'text_height_series'>> = (item, params, { frame, evidence, locale }) => {
  const factor = frameUnitsPerPaperMm(frame);
  const onSeries = (height: number): boolean =>
    params.series.some((paperMm) => Math.abs(height - paperMm * factor) <= paperMm * factor * params.relativeTolerance);
  return evidence.texts
    .filter((text) => text.height > 0 && !onSeries(text.height))
    .map((text) => {
      const paper = text.height / factor;
      const nearest = params.series.reduce((best, s) => (Math.abs(s - paper) < Math.abs(best - paper) ? s : best));
      return draftFor(item, frame.id, {
        message: say(
          locale,
          `文字“${text.text.slice(0, 40)}”高度 ${fmt(text.height)}（图纸上 ${fmt(paper)} mm）不在标准字高系列中，建议 ${fmt(nearest)} mm。`,
          `Text "${text.text.slice(0, 40)}" is ${fmt(text.height)} high (${fmt(paper)} mm on paper), off the standard series; use ${fmt(nearest)} mm.`,
        ),
        evidenceRefs: ['tool:get_texts', `entity:${text.handle}`],
        location: { kind: 'point', point: text.position },
        handles: [text.handle],
        annotationText: say(locale, `字高 ${fmt(paper)} 非标准，建议 ${fmt(nearest)}`, `Text height ${fmt(paper)} off series; use ${fmt(nearest)}`),
      });
    });
};
