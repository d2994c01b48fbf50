import { z } from 'zod';
import { appErrorSchema } from '../../../../shared/errors';
import { SEVERITIES, severitySchema, type Severity } from './checklist';
import { evidenceSummarySchema, screenshotRefSchema } from './evidence';
import { findingSchema, type Finding } from './finding';
import { frameSchema } from './frame';

/**
 * Report JSON contract; resources/review/report.schema.json is generated from it (tested).
 * Version 2: a finding may group several places of one rule on one sheet (`count`, `locations`);
 * a version-1 report (no groups) is still read.
 */
export const REPORT_SCHEMA_VERSION = 2;

const severityCountsSchema = z.record(severitySchema, z.number().int().min(0));
export type SeverityCounts = Record<Severity, number>;

export const frameReportSchema = z
  .object({
    frame: frameSchema,
    /** `llm_failed`: the rules ran (their findings are in the report), the AI step did not. */
    status: z.enum(['done', 'llm_failed', 'failed']),
    /** Why the frame failed or its AI step did not run (typed error); null when done. */
    error: appErrorSchema.nullable(),
    evidence: evidenceSummarySchema.nullable(),
    screenshots: z.array(screenshotRefSchema),
    findingCounts: severityCountsSchema,
  })
  .strict();
export type FrameReport = z.infer<typeof frameReportSchema>;

export const reportSchema = z
  .object({
    schemaVersion: z.union([z.literal(1), z.literal(REPORT_SCHEMA_VERSION)]),
    runId: z.string().min(1),
    createdAt: z.iso.datetime(),
    generator: z.object({ name: z.literal('cadsight'), version: z.string() }).strict(),
    drawing: z
      .object({
        source: z.string(),
        fingerprint: z.string().regex(/^[0-9a-f]{64}$/),
        /** Damage the loader repaired or skipped (a recovered file); empty for a clean file. */
        problems: z.array(z.object({ kind: z.string(), message: z.string() }).strict()),
      })
      .strict(),
    checklist: z.object({ id: z.string(), version: z.string(), hash: z.string().regex(/^[0-9a-f]{64}$/) }).strict(),
    options: z
      .object({
        llm: z.boolean(),
        locale: z.enum(['zh-CN', 'en']),
        frames: z.array(z.string()).nullable(),
        /** The reviewer model ("provider/model") and its per-frame budgets; null for rules only. */
        reviewer: z.object({ model: z.string(), maxToolCallsPerFrame: z.number().int().min(0), maxReasks: z.number().int().min(0) }).strict().nullable(),
      })
      .strict(),
    /** What the run did: backend tool calls, model calls and tokens, the model's refused calls. */
    audit: z
      .object({
        toolCalls: z.number().int().min(0),
        toolResultBytes: z.number().int().min(0),
        llmCalls: z.number().int().min(0),
        promptTokens: z.number().int().min(0),
        completionTokens: z.number().int().min(0),
        /** Read-only tool calls the model made (all frames) and the most in one frame. */
        modelToolCalls: z.number().int().min(0),
        maxModelToolCallsInFrame: z.number().int().min(0),
        /** Calls refused to the model, with the sha256 of their arguments. */
        refusedCalls: z.array(z.object({ frameId: z.string(), tool: z.string(), argsDigest: z.string(), reason: z.enum(['not-read-only', 'budget']) }).strict()),
      })
      .strict(),
    summary: z
      .object({
        /** Confirmed findings (rule findings and AI findings with CAD evidence). */
        total: z.number().int().min(0),
        /** AI hypotheses (listed in `findings` with hypothesis: true), not counted in `total`/`bySeverity`. */
        hypotheses: z.number().int().min(0),
        bySeverity: severityCountsSchema,
        hasBlocking: z.boolean(),
        frames: z.number().int().min(0),
        failedFrames: z.number().int().min(0),
        /** Frames whose AI step was asked for and did not run. */
        llmFailedFrames: z.number().int().min(0),
      })
      .strict(),
    frames: z.array(frameReportSchema),
    findings: z.array(findingSchema),
    /** Checklist items that were not evaluated in this run, with the reason (e.g. LLM off). */
    notEvaluated: z.array(
      z
        .object({
          checklistItemId: z.string(),
          reason: z.string(),
          /** The frames it did not run on; absent when it ran on none. */
          frameIds: z.array(z.string()).optional(),
        })
        .strict(),
    ),
  })
  .strict();
export type ReviewReport = z.infer<typeof reportSchema>;

export function countBySeverity(findings: readonly Finding[]): SeverityCounts {
  const counts = Object.fromEntries(SEVERITIES.map((s) => [s, 0])) as SeverityCounts;
  for (const finding of findings) counts[finding.severity]++;
  return counts;
}

const SEVERITY_ORDER: Record<Severity, number> = { blocking: 0, major: 1, minor: 2, info: 3 };

/** Findings in report order: by frame order, then severity, then checklist item, then id. */
export function sortFindings(findings: readonly Finding[], frameOrder: readonly string[]): Finding[] {
  const frameRank = (id: string | null): number => (id === null ? -1 : frameOrder.indexOf(id));
  return [...findings].sort(
    (a, b) =>
      frameRank(a.frameId) - frameRank(b.frameId) ||
      SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity] ||
      a.checklistItemId.localeCompare(b.checklistItemId) ||
      a.id.localeCompare(b.id),
  );
}
