import type { RuleParams } from '../checklist';
import { draftFor, frameUnitsPerPaperMm, say, type FrameRule } from './context';

type ParamsOf<R extends RuleParams['rule']> = Extract<RuleParams, { rule: R }>;

const fmt = (n: number): string => String(Math.round(n * 1000) / 1000);

/** Han characters (GB/T 14691 sets their minimum height apart from Latin letters and digits). */
const HAN = /[\u3400-\u9fff\uf900-\ufaff]/;

export const textHeightSeriesRule: FrameRule<ParamsOf<'text_height_series'>> = (item, params, { frame, evidence, locale, annotationLocale }) => {
  const factor = frameUnitsPerPaperMm(frame);
  const near = (height: number, paperMm: number): boolean => Math.abs(height - paperMm * factor) <= paperMm * factor * params.relativeTolerance;
  const onSeries = (height: number): boolean => params.series.some((paperMm) => near(height, paperMm));
  const minHan = params.minChineseHeight;
  const tooSmallHan = (text: { text: string; height: number }): boolean =>
    minHan !== undefined && HAN.test(text.text) && text.height < minHan * factor && !near(text.height, minHan);
  return evidence.texts
    .filter((text) => text.height > 0 && (!onSeries(text.height) || tooSmallHan(text)))
    .map((text) => {
      const paper = text.height / factor;
      const small = tooSmallHan(text);
      // Chinese text is advised up to the smallest series height it may use.
      const allowed = small ? params.series.filter((s) => s >= minHan! - 1e-9) : params.series;
      const candidates = allowed.length > 0 ? allowed : params.series;
      const nearest = candidates.reduce((best, s) => (Math.abs(s - paper) < Math.abs(best - paper) ? s : best));
      const message = small
        ? say(
            locale,
            `汉字“${text.text.slice(0, 40)}”高度 ${fmt(text.height)}（图纸上 ${fmt(paper)} mm）小于 GB/T 14691 规定的汉字最小字高 ${fmt(minHan!)} mm，建议 ${fmt(nearest)} mm。`,
            `Chinese text "${text.text.slice(0, 40)}" is ${fmt(text.height)} high (${fmt(paper)} mm on paper), below the GB/T 14691 minimum of ${fmt(minHan!)} mm for Chinese characters; use ${fmt(nearest)} mm.`,
          )
        : say(
            locale,
            `文字“${text.text.slice(0, 40)}”高度 ${fmt(text.height)}（图纸上 ${fmt(paper)} mm）不在标准字高系列中，建议 ${fmt(nearest)} mm。`,
            `Text "${text.text.slice(0, 40)}" is ${fmt(text.height)} high (${fmt(paper)} mm on paper), off the standard series; use ${fmt(nearest)} mm.`,
          );
      return draftFor(item, frame.id, {
        message,
        evidenceRefs: ['tool:get_texts', `entity:${text.handle}`],
        location: { kind: 'point', point: text.position },
        handles: [text.handle],
        annotationText: say(annotationLocale, `字高 ${fmt(paper)} 非标准，建议 ${fmt(nearest)}`, `Text height ${fmt(paper)} off series; use ${fmt(nearest)}`),
      });
    });
};
