import { z } from 'zod';
import { AppError } from '../../../../shared/errors';
import { canonicalJson, sha256Hex } from './sha256';

/**
 * The review checklist contract (zod mirror of resources/checklist/review_checklist.schema.json,
 * which is generated from this file and checked by a test so the two cannot drift).
 */

export const severitySchema = z.enum(['blocking', 'major', 'minor', 'info']);
export type Severity = z.infer<typeof severitySchema>;
export const SEVERITIES: readonly Severity[] = severitySchema.options;

const bilingualSchema = z.object({ zh: z.string().min(1).max(2000), en: z.string().min(1).max(2000) }).strict();

/**
 * Normalised title-block field keys (labels 图名/Title, 图号/Drawing No., ... map onto these); the
 * last six are the GB/T 10609.1 fields: 材料, 重量, 第 M 张, 共 N 张, 单位名称, 批准.
 */
export const titleFieldSchema = z.enum(['title', 'drawingNo', 'scale', 'designer', 'checker', 'date', 'revision', 'material', 'weight', 'sheetNo', 'sheetCount', 'organisation', 'approver']);
export type TitleField = z.infer<typeof titleFieldSchema>;

const sheetSizeSchema = z
  .object({ name: z.string().min(1).max(40), width: z.number().positive(), height: z.number().positive() })
  .strict();
export type SheetSize = z.infer<typeof sheetSizeSchema>;

/** Parameters of each deterministic rule; `rule` names the evaluator. */
export const ruleParamsSchema = z.discriminatedUnion('rule', [
  z.object({ rule: z.literal('zero_length') }).strict(),
  z.object({ rule: z.literal('duplicate_entities') }).strict(),
  z
    .object({
      rule: z.literal('layer_zero_geometry'),
      /** Entity types allowed on layer 0 in model space (e.g. VIEWPORT). */
      ignoreTypes: z.array(z.string().min(1).max(40)).max(50),
    })
    .strict(),
  z
    .object({
      rule: z.literal('text_height_series'),
      /** Paper heights in mm (GB/T 14691, ISO 3098: 2.5, 3.5, 5, 7, 10, 14, 20). */
      series: z.array(z.number().positive()).min(1).max(30),
      relativeTolerance: z.number().min(0).max(0.5),
      /** GB/T 14691: Chinese characters (汉字) are at least this high on paper, in mm (3.5). */
      minChineseHeight: z.number().positive().optional(),
    })
    .strict(),
  z
    .object({
      rule: z.literal('dimension_override'),
      /**
       * Slack added to half a unit of the displayed precision (float noise), in display units.
       * The tolerance itself follows the precision the text is written with.
       */
      absoluteTolerance: z.number().min(0).max(1),
    })
    .strict(),
  z.object({ rule: z.literal('title_block_fields'), requiredFields: z.array(titleFieldSchema).min(1).max(13) }).strict(),
  z
    .object({
      rule: z.literal('sheet_size'),
      /** Paper sizes in mm (portrait or landscape both accepted). */
      sizes: z.array(sheetSizeSchema).min(1).max(60),
      relativeTolerance: z.number().min(0).max(0.2),
    })
    .strict(),
  z
    .object({
      rule: z.literal('entities_outside_frames'),
      ignoreLayers: z.array(z.string().min(1).max(255)).max(100),
    })
    .strict(),
  z
    .object({
      /** The value a dimension's block shows (after DIMLFAC, DIMPOST, rounding) disagrees with the geometry. */
      rule: z.literal('dimension_display'),
      /** Tolerance beyond the displayed precision (half a unit of the last shown digit), as a share of the value. */
      relativeTolerance: z.number().min(0).max(0.5),
    })
    .strict(),
  z
    .object({
      /** 图号 unique across the frames (and, in a set, the files); 共 N 张 第 M 张 consistent and complete. */
      rule: z.literal('drawing_numbers'),
      checkSheetNumbering: z.boolean(),
    })
    .strict(),
  z
    .object({
      /** A 图纸目录 (drawing list) against the sheets present: listed but missing, present but not listed, titled differently. */
      rule: z.literal('drawing_list'),
    })
    .strict(),
  z
    .object({
      /** Layers named for a line kind must be drawn in its linetype (GB/T 17450, GB/T 4457.4, GB/T 18229). */
      rule: z.literal('layer_linetypes'),
      conventions: z
        .array(
          z
            .object({
              /** What the layer is for, in both languages (e.g. 细点画线 / centre line). */
              kind: bilingualSchema,
              /** Case-insensitive regular expression on the layer name. */
              layerPattern: z.string().min(1).max(300),
              /** Case-insensitive regular expression the layer's linetype name must match. */
              lineTypePattern: z.string().min(1).max(300),
              /** Minimum/maximum lineweight in mm when the layer sets one (粗实线 ≥ 0.5, 细线 ≤ 0.35). */
              minLineWeightMm: z.number().min(0).max(3).optional(),
              maxLineWeightMm: z.number().min(0).max(3).optional(),
            })
            .strict(),
        )
        .min(1)
        .max(50),
    })
    .strict(),
  z
    .object({
      /** GB/T 14691 lettering fonts (heights are text_height_series'). */
      rule: z.literal('lettering'),
      /** Font file names (without extension, case-insensitive) allowed for Latin text: gbenor, gbeitc, ... */
      latinFonts: z.array(z.string().min(1).max(100)).max(50),
      /** Big fonts (SHX) or TrueType fonts allowed for Chinese text: gbcbig, 仿宋 ... */
      cjkFonts: z.array(z.string().min(1).max(100)).max(50),
    })
    .strict(),
  z
    .object({
      /** GB/T 14690: the title block's scale is a preferred one and agrees with the frame and the viewports. */
      rule: z.literal('scale_consistency'),
      /** Allow the second-choice series (1:1.5, 1:2.5, 1:3, 1:4, 1:6, 2.5:1, 4:1). */
      allowSecondSeries: z.boolean(),
      relativeTolerance: z.number().min(0).max(0.5),
    })
    .strict(),
  z
    .object({
      /** GB/T 10609.1 title block: the GB fields present, in the lower right, at most widthMm wide. */
      rule: z.literal('title_block_gb'),
      requiredFields: z.array(titleFieldSchema).min(1).max(13),
      widthMm: z.number().positive().max(500),
      /** How far (share of the frame) the title block may sit from the lower-right corner. */
      cornerTolerance: z.number().min(0).max(0.5),
    })
    .strict(),
  z
    .object({
      /** A frame with part geometry but no dimensions. */
      rule: z.literal('frame_without_dimensions'),
      minGeometry: z.number().int().min(1).max(100000),
      ignoreLayers: z.array(z.string().min(1).max(255)).max(100),
    })
    .strict(),
  z
    .object({
      /** GB/T 14689 centring marks (对中符号) in the middle of the four sides of a recognised GB sheet. */
      rule: z.literal('centring_marks'),
      /** false: the item is kept in the checklist but not evaluated (company sheets without marks). */
      enabled: z.boolean(),
      /** Sheet formats held to the convention (A0–A4, as recognised from the trimmed sheet). */
      formats: z.array(z.string().min(1).max(40)).min(1).max(60),
      /** Only sheets with Chinese texts (GB drawings); ISO 5457 and company sheets are left alone. */
      chineseSheetsOnly: z.boolean(),
      /** The thinnest printed mark, from its layer's lineweight (GB/T 14689: ≥ 0.5 mm). */
      minLineWeightMm: z.number().min(0).max(5),
      /** How far past the inner border the mark may reach (GB/T 14689: about 5 mm). */
      maxInsideMm: z.number().positive().max(100),
      /** How far from the middle of the side a mark may sit, on paper (mm). */
      offsetToleranceMm: z.number().min(0).max(50),
    })
    .strict(),
  z
    .object({
      /** Circles (holes, bosses) without a centre line or centre mark through their centre. */
      rule: z.literal('circle_centre_marks'),
      /** Circles smaller than this on paper are skipped (GB/T 4457.4 allows a plain mark). */
      minDiameterMm: z.number().min(0).max(100),
    })
    .strict(),
  z
    .object({
      /** Dimension text at paper scale: on the lettering series and not below minHeightMm. */
      rule: z.literal('dimension_text_height'),
      series: z.array(z.number().positive()).min(1).max(30),
      minHeightMm: z.number().positive().max(20),
      relativeTolerance: z.number().min(0).max(0.5),
    })
    .strict(),
  z
    .object({
      /** What the DXF reader had to repair or skip (a recovered file), as one finding. */
      rule: z.literal('recovery_problems'),
      ignoreKinds: z.array(z.string().min(1).max(100)).max(50),
    })
    .strict(),
]);
export type RuleParams = z.infer<typeof ruleParamsSchema>;
export type RuleName = RuleParams['rule'];

const itemBase = {
  /** Stable id, e.g. "GEO-001"; findings and annotations refer to it. */
  id: z.string().regex(/^[A-Z][A-Z0-9]{1,7}-[0-9]{3}$/),
  category: z.enum(['geometry', 'layers', 'text', 'dimensions', 'title_block', 'sheet', 'annotation', 'consistency', 'language']),
  severity: severitySchema,
  description: bilingualSchema,
};

export const checklistItemSchema = z.discriminatedUnion('mode', [
  z.object({ ...itemBase, mode: z.literal('rule'), params: ruleParamsSchema }).strict(),
  z
    .object({
      ...itemBase,
      mode: z.literal('llm'),
      /** What the model should look for and how to confirm it with read-only tools. */
      guidance: bilingualSchema,
    })
    .strict(),
]);
export type ChecklistItem = z.infer<typeof checklistItemSchema>;
export type RuleChecklistItem = Extract<ChecklistItem, { mode: 'rule' }>;

export const checklistSchema = z
  .object({
    /** Editor hint (path of the JSON Schema); ignored by the reviewer. */
    $schema: z.string().max(500).optional(),
    schemaVersion: z.literal(1),
    id: z.string().regex(/^[a-z0-9][a-z0-9._-]{0,63}$/),
    version: z.string().regex(/^\d+\.\d+\.\d+$/),
    name: bilingualSchema,
    items: z.array(checklistItemSchema).min(1).max(500),
  })
  .strict()
  .superRefine((checklist, ctx) => {
    const seen = new Set<string>();
    checklist.items.forEach((item, index) => {
      if (seen.has(item.id)) ctx.addIssue({ code: 'custom', path: ['items', index, 'id'], message: `duplicate item id ${item.id}` });
      seen.add(item.id);
    });
  });
export type Checklist = z.infer<typeof checklistSchema>;

/** `$.items[3].severity` style path of a zod issue, so users can find the bad spot in their file. */
export function jsonPathOf(path: readonly PropertyKey[]): string {
  return path.reduce<string>((acc, key) => (typeof key === 'number' ? `${acc}[${key}]` : `${acc}.${String(key)}`), '$');
}

/**
 * Parses and validates a checklist file's text.
 * Throws REVIEW_CHECKLIST_INVALID with data {path, issues:[{path, message}]} (JSON path per issue).
 */
export function parseChecklist(text: string, sourceLabel: string): Checklist {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    // The parser's message quotes the text; a checklist path from IPC could name any file, so only its label is shown.
    throw new AppError('REVIEW_CHECKLIST_INVALID', `Checklist ${sourceLabel} is not valid JSON.`, {
      data: { source: sourceLabel, path: '$', issues: [{ path: '$', message: 'invalid JSON' }] },
    });
  }
  const parsed = checklistSchema.safeParse(raw);
  if (!parsed.success) {
    const issues = parsed.error.issues.slice(0, 20).map((issue) => ({ path: jsonPathOf(issue.path), message: issue.message }));
    const first = issues[0]!;
    throw new AppError('REVIEW_CHECKLIST_INVALID', `Checklist ${sourceLabel} is invalid at ${first.path}: ${first.message}`, {
      data: { source: sourceLabel, path: first.path, issues },
    });
  }
  return parsed.data;
}

/** Content hash of a checklist (part of the run identity; an edited checklist is a new review). */
export function checklistHash(checklist: Checklist): string {
  return sha256Hex(canonicalJson(checklist));
}
