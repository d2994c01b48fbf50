import { AppError, toAppErrorData, type AppErrorData } from '../../../../shared/errors';
import type { RunUsage } from '../ports/reviewStore';
import { z } from 'zod';
import type { LlmReviewSettings } from './llmReview';
import { submitTool } from './llmReview';

/** The frame id the probe asks for; no drawing frame is ever called this. */
export const PREFLIGHT_FRAME_ID = 'preflight';

/** What the probe needs back: a well-formed, empty submission for the probe frame. */
const probeAnswer = z.object({ frameId: z.literal(PREFLIGHT_FRAME_ID), findings: z.array(z.unknown()).max(0) }).loose();

/**
 * Outcome of the probe: the model can review, or it is unreachable now (the run goes on rules-only).
 * `usage` is the probe's own model call, which the run accounts like any other (it is not free).
 */
export type PreflightOutcome = { ok: true; usage?: Partial<RunUsage> } | { ok: false; unavailable: AppErrorData };

/**
 * Asks the reviewer model, before a run exists, for one forced `submit_findings` call of an empty
 * list (the same tool and schema the review uses). Only a configuration the provider rejects
 * (auth, unknown model, bad request) is refused with the reason: REVIEW_LLM_NOT_CONFORMANT
 * (data.cause = the typed error). Everything else that goes wrong — a provider failing now (5xx,
 * 429 after the retry budget, timeout) or an answer that is no valid call (prose, garbage, a reply
 * without choices, wrong arguments) — is not a refusal: the caller reviews with the rules and
 * reports the AI step as failed with the typed cause, so a misbehaving model can never cost the
 * user the deterministic findings.
 */
export async function preflightReviewer(settings: LlmReviewSettings, signal?: AbortSignal): Promise<PreflightOutcome> {
  let value: unknown;
  let usage: Partial<RunUsage>;
  try {
    const result = await settings.gateway.callTool({
      system: 'You are checking that you can answer through a tool before a drawing review.',
      messages: [{ role: 'user', content: [{ type: 'text', text: `Tool check before the review: call submit_findings with frameId "${PREFLIGHT_FRAME_ID}" and an empty findings list.` }] }],
      tool: submitTool,
      maxOutputTokens: 300,
      purpose: 'review.preflight',
      ...(signal ? { signal } : {}),
    });
    value = result.value;
    const u = result.usage;
    usage = { llmCalls: 1, promptTokens: u.promptTokens ?? 0, completionTokens: u.completionTokens ?? 0, contextBytes: u.contextBytes, llmLatencyMs: u.latencyMs };
  } catch (error) {
    const data = toAppErrorData(error);
    if (REFUSED_CONFIGURATION.has(data.code)) throw notConformant(`the tool-call check failed: [${data.code}] ${data.message}`, data);
    if (data.code === 'LLM_ABORTED') throw error;
    return { ok: false, unavailable: data };
  }
  if (!probeAnswer.safeParse(value).success) {
    const answered = JSON.stringify(value) ?? 'nothing';
    return {
      ok: false,
      unavailable: {
        code: 'REVIEW_LLM_PREFLIGHT_INVALID',
        message: `Asked to call submit_findings with frameId "${PREFLIGHT_FRAME_ID}" and no findings, the reviewer model answered ${answered.slice(0, 200)}`,
        retryable: false,
      },
    };
  }
  return { ok: true, usage };
}

/** Provider answers that say the configuration itself is wrong (not a model misbehaving now). */
const REFUSED_CONFIGURATION = new Set(['LLM_AUTH', 'LLM_NOT_FOUND', 'LLM_BAD_REQUEST', 'LLM_NOT_CONFIGURED']);

function notConformant(reason: string, cause: AppErrorData | null): AppError {
  return new AppError('REVIEW_LLM_NOT_CONFORMANT', `The reviewer model cannot review drawings: ${reason}. Choose a model that passes \`cadsight llm-check\` (forced tool call), or run rules only.`, {
    data: { cause },
  });
}
