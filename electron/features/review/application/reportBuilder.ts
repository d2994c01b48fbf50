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
  drawing_list: 'texts',
  layer_linetypes: 'layers',
  lettering: 'texts',
  scale_consistency: 'frames',
  title_block_gb: 'frames',
  frame_without_dimensions: 'dimensions',
  circle_centre_marks: 'entities',
  centring_marks: 'entities',
  dimension_text_height: 'dimensions',
  recovery_problems: 'drawingInfo',
};

function auditOf(run: RunRecord, frames: readonly FrameRecord[]): ReviewReport['audit'] {
  const perFrame = frames.map((f) => (f.evidence?.llmCalls ?? []).filter((c) => c.refused === null).length);
  return {
    toolCalls: run.usage.toolCalls,
    toolResultBytes: run.usage.toolResultBytes,
    llmCalls: run.usage.llmCalls,
    promptTokens: run.usage.promptTokens,
    completionTokens: run.usage.completionTokens,
    modelToolCalls: perFrame.reduce((a, b) => a + b, 0),
    maxModelToolCallsInFrame: Math.max(0, ...perFrame),
    refusedCalls: frames.flatMap((f) =>
      (f.evidence?.llmCalls ?? []).flatMap((c) => (c.refused ? [{ frameId: f.frame.id, tool: c.tool, argsDigest: c.argsDigest, reason: c.refused }] : [])),
    ),
  };
}

/** Assembles the versioned report of a run from what the store holds (validated before use). */
export function buildReport(
  run: RunRecord,
  frames: readonly FrameRecord[],
  findings: readonly Finding[],
  generatorVersion: string,
  createdAt: string,
  problems: readonly { kind: string; message: string }[],
): ReviewReport {
  const missing = new Set(run.missingCapabilities);
  const zh = run.options.locale === 'zh-CN';
  const llmFailed = frames.filter((f) => f.status === 'llm_failed' || f.status === 'failed');
  const notEvaluated = run.checklist.items.flatMap((item): ReviewReport['notEvaluated'] => {
    if (item.mode === 'llm') {
      if (!run.options.llm) return [{ checklistItemId: item.id, reason: zh ? '本次为规则审查，未运行 AI 审查' : 'rules-only review: the AI review did not run' }];
      if (llmFailed.length === 0) return [];
      const codes = [...new Set(llmFailed.map((f) => f.error?.code ?? 'UNKNOWN'))].join(', ');
      return [{
        checklistItemId: item.id,
        reason: zh ? `AI 审查在 ${llmFailed.length}/${frames.length} 个图框上未能运行（${codes}），这些图框只有规则审查结果` : `the AI review did not run on ${llmFailed.length} of ${frames.length} frame(s) (${codes}); those frames have rule findings only`,
        frameIds: llmFailed.map((f) => f.frame.id),
      }];
    }
    const capability = RULE_CAPABILITY[item.params.rule];
    return capability && missing.has(capability) ? [{ checklistItemId: item.id, reason: zh ? `后端缺少 ${capability} 能力` : `backend lacks the ${capability} capability` }] : [];
  });
  const frameOrder = frames.map((f) => f.frame.id);
  const sorted = sortFindings(findings, frameOrder);
  // Hypotheses are shown apart and do not count (nor block) until the user promotes them.
  const confirmed = sorted.filter((f) => !f.hypothesis);
  const bySeverity = countBySeverity(confirmed);
  const report: ReviewReport = {
    schemaVersion: REPORT_SCHEMA_VERSION,
    runId: run.id,
    createdAt,
    generator: { name: 'cadsight', version: generatorVersion },
    drawing: { source: run.source, fingerprint: run.fingerprint, problems: [...problems] },
    checklist: { id: run.checklist.id, version: run.checklist.version, hash: run.checklistHash },
    options: { llm: run.options.llm, locale: run.options.locale, frames: run.options.frames, reviewer: run.options.reviewer ?? null },
    audit: auditOf(run, frames),
    summary: {
      total: confirmed.length,
      hypotheses: sorted.length - confirmed.length,
      bySeverity,
      hasBlocking: bySeverity.blocking > 0,
      frames: frames.length,
      failedFrames: frames.filter((f) => f.status === 'failed').length,
      llmFailedFrames: frames.filter((f) => f.status === 'llm_failed').length,
    },
    frames: frames.map((record) => ({
      frame: record.frame,
      status: record.status === 'pending' ? ('failed' as const) : record.status,
      error: record.error,
      evidence: record.evidence,
      screenshots: record.screenshots,
      findingCounts: countBySeverity(confirmed.filter((f) => f.frameId === record.frame.id)),
    })),
    findings: sorted,
    notEvaluated,
  };
  return reportSchema.parse(report);
}

