import type { RuleParams } from '../checklist';
import { bboxHeight, bboxWidth, pointInBox } from '../geometry';
import { draftFor, frameUnitsPerPaperMm, say, type FrameRule } from './context';
import { fieldName } from './sheetRules';

type ParamsOf<R extends RuleParams['rule']> = Extract<RuleParams, { rule: R }>;

/** GB/T 10609.1 labels: a title block that has them is held to the GB fields (values alone may be Chinese in an ISO block). */
const GB_LABEL = /^(图号|图名|图样名称|图样代号|名称|比例|设计|审核|校对|批准|材料|材料标记|重量|质量|日期|制图|单位名称|共.*张|第.*张|标记|处数|分区)[:：]?$/;

/**
 * TB-002 (GB/T 10609.1): a Chinese title block has the GB fields (材料, 重量, 共/第 张, 单位名称,
 * 批准 ... as configured; TB-001 covers the ISO core), sits in the lower-right corner and is at
 * most widthMm wide. One finding lists every missing field. English (ISO 7200) title blocks are
 * not held to it.
 */
export const titleBlockGbRule: FrameRule<ParamsOf<'title_block_gb'>> = (item, params, { frame, evidence, locale, annotationLocale }) => {
  if (frame.origin !== 'detected') return [];
  const box = frame.titleBlockBox;
  const region = box ?? { minX: frame.bbox.minX + bboxWidth(frame.bbox) * 0.4, minY: frame.bbox.minY, maxX: frame.bbox.maxX, maxY: frame.bbox.minY + bboxHeight(frame.bbox) * 0.35 };
  const chinese = evidence.texts.some((t) => GB_LABEL.test(t.text.trim()) && pointInBox(t.position, region));
  if (!chinese) return [];
  const corner = { x: frame.bbox.maxX, y: frame.bbox.minY };
  const drafts = [];
  const missing = params.requiredFields.filter((f) => !frame.titleBlock[f] || frame.titleBlock[f]!.trim() === '');
  if (missing.length > 0) {
    const names = missing.map((f) => fieldName(locale, f)).join(locale === 'zh-CN' ? '、' : ', ');
    drafts.push(
      draftFor(item, frame.id, {
        message: say(locale, `标题栏缺少或未填写 GB/T 10609.1 栏目：${names}。`, `The title block lacks or leaves empty the GB/T 10609.1 fields: ${names}.`),
        evidenceRefs: ['tool:find_frames', ...missing.map((f) => `titleblock:${frame.id}/${f}`)],
        location: { kind: 'point', point: box ? { x: box.minX, y: box.maxY } : corner },
        handles: [],
        discriminator: 'fields',
        annotationText: say(annotationLocale, `标题栏缺：${names}`, `Title block lacks: ${names}`),
      }),
    );
  }
  if (box) {
    const w = bboxWidth(frame.bbox);
    const h = bboxHeight(frame.bbox);
    // Label columns are left-aligned, so the block's text extent stops short of the border: judge it by where it starts.
    if (box.minX - frame.bbox.minX < w * 0.5 || box.minY - frame.bbox.minY > h * params.cornerTolerance) {
      drafts.push(
        draftFor(item, frame.id, {
          message: say(locale, '标题栏不在图框右下角（GB/T 10609.1、GB/T 14689）。', 'The title block is not in the lower-right corner of the frame (GB/T 10609.1, GB/T 14689).'),
          evidenceRefs: ['tool:find_frames'],
          location: { kind: 'bbox', bbox: box },
          handles: [],
          discriminator: 'position',
          annotationText: say(annotationLocale, '标题栏应位于右下角', 'Title block belongs in the lower right'),
        }),
      );
    }
    const widthMm = bboxWidth(box) / frameUnitsPerPaperMm(frame);
    // The labels' extent is narrower than the ruled cells, so only a block certainly too wide is reported.
    if (widthMm > params.widthMm * 1.05) {
      drafts.push(
        draftFor(item, frame.id, {
          message: say(locale, `标题栏宽约 ${Math.round(widthMm)} mm，超过 ${params.widthMm} mm。`, `The title block is about ${Math.round(widthMm)} mm wide, more than ${params.widthMm} mm.`),
          evidenceRefs: ['tool:find_frames'],
          location: { kind: 'bbox', bbox: box },
          handles: [],
          discriminator: 'width',
          annotationText: say(annotationLocale, `标题栏宽 ${Math.round(widthMm)} mm`, `Title block ${Math.round(widthMm)} mm wide`),
        }),
      );
    }
  }
  return drafts;
};
