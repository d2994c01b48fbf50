import type { RuleParams, TitleField } from '../checklist';
import { bboxHeight, bboxWidth, pointInBox, type Point } from '../geometry';
import type { TextItem } from '../evidence';
import { normaliseTitleLabel, unitsPerPaperMmFromScaleText, type Frame } from '../frame';
import { draftFor, frameUnitsPerPaperMm, say, type FrameRule, type ReviewLocale } from './context';

type ParamsOf<R extends RuleParams['rule']> = Extract<RuleParams, { rule: R }>;

const FIELD_NAMES: Record<TitleField, { zh: string; en: string }> = {
  title: { zh: '图名', en: 'title' },
  drawingNo: { zh: '图号', en: 'drawing number' },
  scale: { zh: '比例', en: 'scale' },
  designer: { zh: '设计', en: 'designer' },
  checker: { zh: '审核', en: 'checker' },
  date: { zh: '日期', en: 'date' },
  revision: { zh: '版本', en: 'revision' },
  material: { zh: '材料', en: 'material' },
  weight: { zh: '重量', en: 'weight' },
  sheetNo: { zh: '第 M 张', en: 'sheet number' },
  sheetCount: { zh: '共 N 张', en: 'sheet count' },
  organisation: { zh: '单位名称', en: 'organisation' },
  approver: { zh: '批准', en: 'approver' },
};

export const fieldName = (locale: ReviewLocale, field: TitleField): string => (locale === 'zh-CN' ? FIELD_NAMES[field].zh : FIELD_NAMES[field].en);

/** GB/T 10609.1 and ISO 7200 put the title block in the bottom-right corner of the frame. */
function titleBlockCorner(frame: Frame): Point {
  return { x: frame.bbox.maxX - bboxWidth(frame.bbox) * 0.08, y: frame.bbox.minY + bboxHeight(frame.bbox) * 0.05 };
}

/**
 * Where an empty field's value belongs: the value cell right of its label ("版本", "Rev."), found
 * among the frame's texts in the title-block corner; undefined when the label is not among them.
 */
function valueCellOf(frame: Frame, texts: readonly TextItem[], field: TitleField): Point | undefined {
  const corner = { minX: frame.bbox.minX + bboxWidth(frame.bbox) * 0.4, minY: frame.bbox.minY, maxX: frame.bbox.maxX, maxY: frame.bbox.minY + bboxHeight(frame.bbox) * 0.35 };
  const label = texts.find((t) => pointInBox(t.position, corner) && normaliseTitleLabel(t.text) === field);
  return label ? { x: label.position.x + label.height * 7, y: label.position.y + label.height / 2 } : undefined;
}

export const titleBlockFieldsRule: FrameRule<ParamsOf<'title_block_fields'>> = (item, params, { frame, evidence, locale, annotationLocale }) => {
  // The synthetic whole-drawing frame has no title block to check.
  if (frame.origin !== 'detected') return [];
  // No label of any required field: the frame has no title block. One finding says so, instead
  // of one per missing field. A title alone does not make a title block: without labels the
  // reader guesses it from the tallest text (a caption such as "no overrides").
  const labelled = params.requiredFields.filter((field) => field !== 'title');
  if (params.requiredFields.length > 1 && labelled.length > 0 && labelled.every((field) => frame.titleBlock[field] === undefined)) {
    const names = params.requiredFields.map((field) => fieldName(locale, field)).join(locale === 'zh-CN' ? '、' : ', ');
    return [
      draftFor(item, frame.id, {
        message: say(locale, `图框内未找到标题栏（${names}均无）。`, `The frame has no title block (none of ${names} found).`),
        evidenceRefs: ['tool:find_frames', ...params.requiredFields.map((field) => `titleblock:${frame.id}/${field}`)],
        location: { kind: 'point', point: titleBlockCorner(frame) },
        handles: [],
        discriminator: 'no-title-block',
        annotationText: say(annotationLocale, '缺少标题栏', 'No title block'),
      }),
    ];
  }
  return params.requiredFields.flatMap((field) => {
    const value = frame.titleBlock[field];
    if (value !== undefined && value.trim() !== '') return [];
    const missingLabel = value === undefined;
    const name = fieldName(locale, field);
    return [
      draftFor(item, frame.id, {
        message: missingLabel
          ? say(locale, `标题栏缺少“${name}”栏。`, `The title block has no ${name} field.`)
          : say(locale, `标题栏“${name}”为空。`, `The title block's ${name} field is empty.`),
        evidenceRefs: ['tool:find_frames', `titleblock:${frame.id}/${field}`],
        location: { kind: 'point', point: frame.titleBlockAnchors[field] ?? valueCellOf(frame, evidence.texts, field) ?? titleBlockCorner(frame) },
        handles: [],
        discriminator: field,
        annotationText: missingLabel ? say(annotationLocale, `缺少${fieldName(annotationLocale, field)}栏`, `Missing ${fieldName(annotationLocale, field)} field`) : say(annotationLocale, `请填写${fieldName(annotationLocale, field)}`, `Fill in the ${fieldName(annotationLocale, field)}`),
      }),
    ];
  });
};

export const sheetSizeRule: FrameRule<ParamsOf<'sheet_size'>> = (item, params, { frame, locale, annotationLocale }) => {
  if (frame.origin !== 'detected' || frame.extentsOnly) return [];
  // A recognised trimmed sheet (the border may be drawn inside the GB/T 14689 margins) is standard.
  if (frame.sheet && params.sizes.some((s) => sameSize(s, frame.sheet!.widthMm, frame.sheet!.heightMm, params.relativeTolerance))) return [];
  // Without a recognised sheet or a stated scale the paper size is unknowable: say nothing rather than guess.
  if (!frame.sheet && frame.sheetName === null && frame.unitsPerPaperMm === null && !(frame.titleBlock.scale && unitsPerPaperMmFromScaleText(frame.titleBlock.scale))) return [];
  const factor = frameUnitsPerPaperMm(frame);
  const paperLong = Math.max(bboxWidth(frame.bbox), bboxHeight(frame.bbox)) / factor;
  const paperShort = Math.min(bboxWidth(frame.bbox), bboxHeight(frame.bbox)) / factor;
  if (params.sizes.some((size) => sameSize(size, paperLong, paperShort, params.relativeTolerance))) return [];
  const dims = `${Math.round(paperLong)}×${Math.round(paperShort)} mm`;
  return [
    draftFor(item, frame.id, {
      message: say(locale, `图幅 ${dims} 不是标准幅面。`, `Sheet size ${dims} is not a standard size.`),
      evidenceRefs: ['tool:find_frames'],
      location: { kind: 'bbox', bbox: frame.bbox },
      handles: [],
      annotationText: say(annotationLocale, `非标准图幅 ${dims}`, `Non-standard sheet ${dims}`),
    }),
  ];
};

/** Same paper size either way round, within a relative tolerance. */
function sameSize(size: { width: number; height: number }, a: number, b: number, tolerance: number): boolean {
  const long = Math.max(size.width, size.height);
  const short = Math.min(size.width, size.height);
  return Math.abs(Math.max(a, b) - long) <= long * tolerance && Math.abs(Math.min(a, b) - short) <= short * tolerance;
}
