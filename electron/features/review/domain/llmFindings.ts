import { z } from 'zod';
import type { Checklist, Severity } from './checklist';
import type { ScreenshotRef } from './evidence';
import type { FindingDraft, FindingLocation } from './finding';
import type { Frame } from './frame';
import { bboxHeight, bboxWidth, boxInBox, pixelToDrawing, pointInBox } from './geometry';
import { jsonPathOf } from './checklist';
import { isCadSupported, SUPPORT_DISTANCE_PAPER_MM } from './cadSupport';
import type { BBox } from './geometry';

/**
 * The structured answer the model must give through the forced `submit_findings` tool. The model
 * may place a finding in drawing coordinates or in pixels of a screenshot it was shown (converted
 * through that screenshot's transform). Findings are never parsed from free text.
 */
const num = z.number().finite();
export const submittedLocationSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('point'), x: num, y: num }).strict(),
  z.object({ kind: z.literal('bbox'), minX: num, minY: num, maxX: num, maxY: num }).strict(),
  z.object({ kind: z.literal('pixel'), screenshotId: z.string().min(1).max(120), x: num.min(0), y: num.min(0) }).strict(),
]);

export const submissionSchema = z
  .object({
    frameId: z.string().min(1).max(100),
    findings: z
      .array(
        z
          .object({
            checklistItemId: z.string().min(1).max(20),
            message: z.string().min(1).max(1000),
            location: submittedLocationSchema,
            /** "entity:<handle>", "tool:<name>", "screenshot:<id>", "titleblock:<frame>/<field>" — must exist. */
            evidenceRefs: z.array(z.string().min(1).max(200)).min(1).max(20),
            annotationText: z.string().min(1).max(200),
          })
          .strict(),
      )
      .max(30),
  })
  .strict();
export type Submission = z.infer<typeof submissionSchema>;

export interface SubmissionContext {
  frame: Frame;
  checklist: Checklist;
  /** Every ref the model may cite: entity handles of the frame, tools it called, screenshots, title-block fields. */
  knownRefs: ReadonlySet<string>;
  screenshots: readonly ScreenshotRef[];
  /** Where each citable entity ref lies (cadSupport.entityBoxes). */
  entityBoxes: ReadonlyMap<string, BBox>;
  /** Drawing units per paper mm of the frame (the support distance is in paper mm). */
  unitsPerPaperMm: number;
}

export type SubmissionIssue = { path: string; message: string };
/**
 * `unsupported`: the findings (with their issue) that cite no CAD evidence near their location;
 * the caller re-asks once, then keeps them as hypotheses.
 */
export type SubmissionCheck = { ok: true; drafts: FindingDraft[]; unsupported: { draft: FindingDraft; issue: SubmissionIssue }[] } | { ok: false; issues: SubmissionIssue[] };

/**
 * Validates a submission field by field (schema, frame id, LLM checklist item, location inside the
 * frame, evidence refs that exist) and turns it into finding drafts. Issues carry JSON paths so the
 * re-ask can name exactly what to fix.
 */
export function checkSubmission(value: unknown, context: SubmissionContext): SubmissionCheck {
  const parsed = submissionSchema.safeParse(value);
  if (!parsed.success) return { ok: false, issues: parsed.error.issues.slice(0, 20).map((i) => ({ path: jsonPathOf(i.path), message: i.message })) };
  const issues: SubmissionIssue[] = [];
  if (parsed.data.frameId !== context.frame.id) issues.push({ path: '$.frameId', message: `must be "${context.frame.id}"` });
  const llmItems = new Map(context.checklist.items.filter((i) => i.mode === 'llm').map((i) => [i.id, i.severity] as [string, Severity]));
  // 1 % of the frame as slack: a finding may sit on the border line, never outside the sheet.
  const slack = Math.max(bboxWidth(context.frame.bbox), bboxHeight(context.frame.bbox)) * 0.01;
  const drafts: FindingDraft[] = [];
  const unsupported: { draft: FindingDraft; issue: SubmissionIssue }[] = [];
  parsed.data.findings.forEach((submitted, index) => {
    const at = `$.findings[${index}]`;
    const severity = llmItems.get(submitted.checklistItemId);
    if (!severity) issues.push({ path: `${at}.checklistItemId`, message: `must be one of ${[...llmItems.keys()].join(', ')}` });
    const unknownRefs = submitted.evidenceRefs.filter((ref) => !context.knownRefs.has(ref));
    if (unknownRefs.length > 0) issues.push({ path: `${at}.evidenceRefs`, message: `unknown refs ${unknownRefs.slice(0, 5).join(', ')}; cite handles, tools and screenshots you were given or called` });
    const location = toDrawingLocation(submitted.location, context.screenshots);
    if (typeof location === 'string') issues.push({ path: `${at}.location`, message: location });
    else if (!(location.kind === 'point' ? pointInBox(location.point, context.frame.bbox, slack) : boxInBox(location.bbox, context.frame.bbox, slack))) {
      issues.push({ path: `${at}.location`, message: 'lies outside the frame' });
    }
    if (severity && typeof location !== 'string') {
      const draft: FindingDraft = {
        frameId: context.frame.id,
        checklistItemId: submitted.checklistItemId,
        severity,
        source: 'llm',
        message: submitted.message,
        evidenceRefs: submitted.evidenceRefs,
        location,
        handles: submitted.evidenceRefs.filter((r) => r.startsWith('entity:')).map((r) => r.slice('entity:'.length)),
        annotationText: submitted.annotationText,
      };
      drafts.push(draft);
      if (!isCadSupported(submitted.evidenceRefs, location, { frame: context.frame, boxes: context.entityBoxes, unitsPerPaperMm: context.unitsPerPaperMm })) {
        const near = Math.round(SUPPORT_DISTANCE_PAPER_MM * context.unitsPerPaperMm * 100) / 100;
        unsupported.push({
          draft,
          issue: {
            path: `${at}.evidenceRefs`,
            message: `cite at least one entity (handle or fp: fingerprint) or title-block field within ${near} drawing units of the location that confirms the finding; a screenshot or tool name alone is not CAD evidence`,
          },
        });
      }
    }
  });
  return issues.length > 0 ? { ok: false, issues } : { ok: true, drafts, unsupported };
}

function toDrawingLocation(location: z.infer<typeof submittedLocationSchema>, screenshots: readonly ScreenshotRef[]): FindingLocation | string {
  switch (location.kind) {
    case 'point':
      return { kind: 'point', point: { x: location.x, y: location.y } };
    case 'bbox':
      if (location.minX > location.maxX || location.minY > location.maxY) return 'bbox min must not exceed max';
      return { kind: 'bbox', bbox: { minX: location.minX, minY: location.minY, maxX: location.maxX, maxY: location.maxY } };
    case 'pixel': {
      const shot = screenshots.find((s) => s.id === location.screenshotId);
      if (!shot) return `unknown screenshotId; use one of ${screenshots.map((s) => s.id).join(', ')}`;
      if (location.x > shot.widthPx || location.y > shot.heightPx) return `pixel outside the ${shot.widthPx}x${shot.heightPx} image`;
      return { kind: 'point', point: pixelToDrawing(shot.transform, location) };
    }
  }
}
