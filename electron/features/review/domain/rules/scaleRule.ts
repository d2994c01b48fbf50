import type { RuleParams } from '../checklist';
import { unitsPerPaperMmFromScaleText } from '../frame';
import { draftFor, say, type FrameRule } from './context';

type ParamsOf<R extends RuleParams['rule']> = Extract<RuleParams, { rule: R }>;

/** GB/T 14690 first-choice mantissas (1, 2, 5 × 10ⁿ) and the second-choice ones. */
const FIRST = [1, 2, 5];
const SECOND = [1.5, 2.5, 3, 4, 6];

/** Whether a scale (paper : real, as real/paper factor) is in the GB/T 14690 series. */
export function inScaleSeries(factor: number, allowSecond: boolean): boolean {
  const mantissas = allowSecond ? [...FIRST, ...SECOND] : FIRST;
  const value = factor >= 1 ? factor : 1 / factor;
  const exponent = Math.floor(Math.log10(value) + 1e-9);
  const mantissa = value / 10 ** exponent;
  // Enlargements use the same mantissas except the second-series 1.5/3/6 (only 2.5:1 and 4:1).
  const usable = factor >= 1 ? mantissas : mantissas.filter((m) => FIRST.includes(m) || m === 2.5 || m === 4);
  return usable.some((m) => Math.abs(mantissa - m) / m < 1e-3) || Math.abs(mantissa - 10) < 1e-2;
}

const near = (a: number, b: number, tolerance: number): boolean => Math.abs(a - b) <= Math.max(a, b) * tolerance;

/**
 * SCL-001 (GB/T 14690): the title block's 比例 is a preferred scale, agrees with the scale the
 * frame is drawn at in model space (an A3 frame drawn 2× large is a 1:2 sheet) and, on a paper
 * layout, with one of the viewports that show the part.
 */
export const scaleConsistencyRule: FrameRule<ParamsOf<'scale_consistency'>> = (item, params, { frame, locale, annotationLocale }) => {
  const text = frame.titleBlock.scale;
  if (frame.origin !== 'detected' || !text) return [];
  const stated = unitsPerPaperMmFromScaleText(text);
  const at = { kind: 'point' as const, point: frame.titleBlockAnchors.scale ?? { x: frame.bbox.maxX, y: frame.bbox.minY } };
  const finding = (discriminator: string, zh: string, en: string) =>
    draftFor(item, frame.id, { message: say(locale, zh, en), evidenceRefs: ['tool:find_frames', `titleblock:${frame.id}/scale`], location: at, handles: [], discriminator, annotationText: say(annotationLocale, zh, en).slice(0, 60) });
  if (stated === undefined) return [];
  const drafts = [];
  if (!inScaleSeries(stated, params.allowSecondSeries)) {
    drafts.push(finding('series', `比例 ${text} 不在 GB/T 14690 规定的比例系列中。`, `Scale ${text} is not in the GB/T 14690 series.`));
  }
  const paperLayout = frame.viewportScales !== undefined && frame.viewportScales.length > 0;
  if (paperLayout) {
    if (!frame.viewportScales!.some((s) => near(s, stated, params.relativeTolerance))) {
      const shown = frame.viewportScales!.map((s) => (s >= 1 ? `1:${+s.toFixed(3)}` : `${+(1 / s).toFixed(3)}:1`)).join(', ');
      drafts.push(finding('viewport', `标题栏比例 ${text} 与视口比例（${shown}）不一致。`, `The title block says ${text} but the viewports show ${shown}.`));
    }
  } else if (frame.layout.toUpperCase() === 'MODEL' && frame.sheet && frame.unitsPerPaperMm !== null && !near(frame.unitsPerPaperMm, stated, params.relativeTolerance)) {
    const k = frame.unitsPerPaperMm;
    const drawn = k >= 1 ? `1:${+k.toFixed(3)}` : `${+(1 / k).toFixed(3)}:1`;
    drafts.push(finding('frame', `标题栏比例 ${text} 与图框绘制比例（${drawn}）不一致。`, `The title block says ${text} but the frame is drawn at ${drawn}.`));
  }
  return drafts;
};
