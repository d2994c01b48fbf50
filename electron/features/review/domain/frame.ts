import { z } from 'zod';
import { bboxSchema, pointSchema } from './geometry';
import { titleFieldSchema, type TitleField } from './checklist';

/**
 * Title-block fields of a frame: a key present with '' means the label exists but its value is
 * empty; an absent key means the label itself was not found.
 */
export const titleBlockSchema = z.partialRecord(titleFieldSchema, z.string().max(500));
export type TitleBlock = Partial<Record<TitleField, string>>;

/** A drawing frame (图框): the unit of review. */
export const frameSchema = z
  .object({
    /** Backend frame id (stable for the same drawing), or "whole" when the drawing has no frame. */
    id: z.string().min(1).max(100),
    label: z.string().max(200),
    bbox: bboxSchema,
    /** Layout the frame lives in ("Model" for model space). */
    layout: z.string().max(255),
    /** Standard sheet name when recognised (A3, A1, ...). */
    sheetName: z.string().max(40).nullable(),
    /**
     * Drawing units per paper millimetre (a 1:50 plan drawn in mm has 50). Null when unknown; rules
     * then derive it from the sheet size when they can.
     */
    unitsPerPaperMm: z.number().positive().nullable(),
    titleBlock: titleBlockSchema,
    /**
     * The trimmed sheet when the backend recognised a standard format: its size in mm and its extent
     * in drawing units (wider than bbox when bbox is the inner border). Absent when unknown.
     */
    sheet: z.object({ widthMm: z.number().positive(), heightMm: z.number().positive(), box: bboxSchema }).strict().optional(),
    /** Extent of the title block's labels and values, when the backend reports it. */
    titleBlockBox: bboxSchema.optional(),
    /**
     * True when the frame is only the extent of a paper layout's content (no border was found):
     * its size says nothing about the sheet, so sheet-format rules stay silent.
     */
    extentsOnly: z.boolean().optional(),
    /** Paper-space frames: model units per paper unit of each model viewport on the sheet. */
    viewportScales: z.array(z.number().positive()).max(100).optional(),
    /** Paper-space frames: the model viewports on the sheet (see sheet.ts), when the backend reports them. */
    viewports: z
      .array(z.object({ handle: z.string().max(100), bbox: bboxSchema, modelBbox: bboxSchema, scale: z.number().positive() }).strict())
      .max(100)
      .optional(),
    /** Where each title-block value sits, when the backend reports it (annotation anchors). */
    titleBlockAnchors: z.partialRecord(titleFieldSchema, pointSchema),
    origin: z.enum(['detected', 'whole-drawing']),
  })
  .strict();
export type Frame = z.infer<typeof frameSchema>;

/** Id of the synthetic frame used when the drawing has no detectable frame. */
export const WHOLE_DRAWING_FRAME_ID = 'whole';

/** Label aliases (Chinese and English, as GB and ISO title blocks write them) → normalised key. */
const TITLE_LABEL_ALIASES: Record<TitleField, readonly string[]> = {
  title: ['图名', '图样名称', '名称', 'title', 'drawing title', 'name'],
  drawingNo: ['图号', '图样代号', '代号', 'drawing no', 'drawing no.', 'drawing number', 'dwg no', 'dwg. no.', 'no', 'no.'],
  scale: ['比例', 'scale'],
  designer: ['设计', '制图', '绘图', 'designer', 'designed', 'drawn', 'drawn by', 'drawer', 'author'],
  checker: ['审核', '校核', '校对', '审定', 'checker', 'checked', 'checked by'],
  approver: ['批准', 'approver', 'approved', 'approved by'],
  material: ['材料', '材质', 'material'],
  weight: ['重量', '质量', 'weight', 'mass'],
  sheetNo: ['第张', 'sheet', 'sheet no'],
  sheetCount: ['共张', 'sheets', 'sheet count'],
  organisation: ['单位', '单位名称', 'company', 'organisation', 'organization'],
  date: ['日期', 'date'],
  revision: ['版本', '版次', '修订', 'revision', 'rev', 'rev.', 'version'],
};

/** Maps a title-block label as written on the drawing to its normalised key (undefined if unknown). */
export function normaliseTitleLabel(label: string): TitleField | undefined {
  const key = label.trim().replace(/[:：]$/, '').trim().toLowerCase();
  for (const [field, aliases] of Object.entries(TITLE_LABEL_ALIASES) as [TitleField, readonly string[]][]) {
    if (aliases.includes(key)) return field;
  }
  return undefined;
}

/**
 * Parses a scale text into drawing units per paper mm for drawings made at true size (model space
 * in mm): "1:50" → 50, "2:1" → 0.5. Spaces around the separator, a full-width colon, a slash and
 * a leading label are accepted ("1: 75", "1 : 75", "1／75", "比例 1:75", "Scale: 1: 75"), so are
 * full-width digits. Undefined when unreadable or not a ratio of two positive numbers.
 */
export function unitsPerPaperMmFromScaleText(text: string): number | undefined {
  const plain = text.normalize('NFKC').trim().replace(/^(比例|scale)\s*[:：]?\s*/i, '');
  const match = /^(\d+(?:\.\d+)?)\s*[:/]\s*(\d+(?:\.\d+)?)$/.exec(plain);
  if (!match) return undefined;
  const paper = Number(match[1]);
  const real = Number(match[2]);
  if (!(paper > 0 && real > 0)) return undefined;
  return real / paper;
}
