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
 * list (the same tool and schema the review uses). A model that answers without a valid call, or
 * a configuration the provider rejects (auth, unknown model, bad request), is refused with the
 * reason: REVIEW_LLM_NOT_CONFORMANT (data.cause = the typed error). A provider that is reachable
 * in principle but failing now (5xx, 429 after the retry budget, timeout) is not a refusal: the
 * caller reviews with the rules and reports the AI step as failed with that error.
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
    if (data.retryable || data.code === 'LLM_TRANSPORT_UNAVAILABLE') return { ok: false, unavailable: data };
    throw notConformant(`the tool-call check failed: [${data.code}] ${data.message}`, data);
  }
  if (!probeAnswer.safeParse(value).success) {
    throw notConformant(`asked to call submit_findings with frameId "${PREFLIGHT_FRAME_ID}" and no findings, it answered ${JSON.stringify(value).slice(0, 200)}`, null);
  }
  return { ok: true, usage };
}

function notConformant(reason: string, cause: AppErrorData | null): AppError {
  return new AppError('REVIEW_LLM_NOT_CONFORMANT', `The reviewer model cannot review drawings: ${reason}. Choose a model that passes \`cadsight llm-check\` (forced tool call), or run rules only.`, {
    data: { cause },
  });
}
