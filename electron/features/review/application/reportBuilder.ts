import { REPORT_SCHEMA_VERSION, countBySeverity, reportSchema, sortFindings, type ReviewReport } from '../domain/report';

import type { RuleName } from '../domain/checklist';
import type { FrameRecord, RunRecord } from '../ports/reviewStore';
import type { Finding } from '../domain/finding';

/** Which backend capability each rule's evidence comes from. */
const RULE_CAPABILITY: Record<RuleName, string | null> = {
  zero_length: 'zeroLength',
  duplicate_entities: 'duplicates',
  layer_zero_geometry: 'entities',
  text_height_series: 'texts',
  dimension_override: 'dimensions',
  title_block_fields: 'frames',
  sheet_size: 'frames',
  entities_outside_frames: 'entities',
  dimension_display: 'dimensions',
  drawing_numbers: 'frames',
  layer_linetypes: 'layers',
  lettering: 'texts',
  scale_consistency: 'frames',
  title_block_gb: 'frames',
  frame_without_dimensions: 'dimensions',
  circle_centre_marks: 'entities',
  dimension_text_height: 'dimensions',
  recovery_problems: 'drawingInfo',
};

/** Assembles the versioned report of a run from what the store holds (validated before use). */
export function buildReport(run: RunRecord, frames: readonly FrameRecord[], findings: readonly Finding[], generatorVersion: string, createdAt: string): ReviewReport {
  const missing = new Set(run.missingCapabilities);
  const notEvaluated = run.checklist.items.flatMap((item) => {
    if (item.mode === 'llm') {
      return run.options.llm ? [] : [{ checklistItemId: item.id, reason: run.options.locale === 'zh-CN' ? '本次为规则审查，未运行 LLM 审查' : 'rules-only review: the LLM review did not run' }];
    }
    const capability = RULE_CAPABILITY[item.params.rule];
    return capability && missing.has(capability) ? [{ checklistItemId: item.id, reason: `backend lacks the ${capability} capability` }] : [];
  });
  const frameOrder = frames.map((f) => f.frame.id);
  const sorted = sortFindings(findings, frameOrder);
  const bySeverity = countBySeverity(sorted);
  const report: ReviewReport = {
    schemaVersion: REPORT_SCHEMA_VERSION,
    runId: run.id,
    createdAt,
    generator: { name: 'cadsight', version: generatorVersion },
    drawing: { source: run.source, fingerprint: run.fingerprint },
    checklist: { id: run.checklist.id, version: run.checklist.version, hash: run.checklistHash },
    options: run.options,
    summary: {
      total: sorted.length,
      bySeverity,
      hasBlocking: bySeverity.blocking > 0,
      frames: frames.length,
      failedFrames: frames.filter((f) => f.status === 'failed').length,
    },
    frames: frames.map((record) => ({
      frame: record.frame,
      status: record.status === 'failed' ? ('failed' as const) : ('done' as const),
      error: record.error,
      evidence: record.evidence,
      screenshots: record.screenshots,
      findingCounts: countBySeverity(sorted.filter((f) => f.frameId === record.frame.id)),
    })),
    findings: sorted,
    notEvaluated,
  };
  return reportSchema.parse(report);
}

