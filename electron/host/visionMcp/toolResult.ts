import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { CallToolResult, ServerNotification, ServerRequest } from '@modelcontextprotocol/sdk/types.js';
import { toAppErrorData } from '../../../shared/errors';
import { MIN_LEGIBLE_TEXT_PX, type ProgressReporter, type TurnResult, type UsageTotals } from '../../features/vision';
import type { Logger } from '../../platform/log/types';

export type ToolExtra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/**
 * A successful tool result: the JSON text block picsense clients parse, plus the same object
 * as structuredContent (validated by the SDK against the tool's outputSchema).
 */
export function toolSuccess(structured: Record<string, unknown>): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(structured) }], structuredContent: structured };
}

/** Recovery hints for errors that do not carry their own (gateway and store errors). */
const FALLBACK_HINTS: Record<string, string> = {
  LLM_AUTH: 'The provider refused the API key: check the key variable of DEFAULT_PROVIDER (e.g. OPENAI_API_KEY).',
  LLM_NOT_CONFIGURED: 'Configure a provider: DEFAULT_PROVIDER plus its API key, model and base URL variables.',
  LLM_NOT_FOUND: 'The model or endpoint does not exist: check <PROVIDER>_MODEL and <PROVIDER>_BASE_URL.',
  LLM_BAD_REQUEST: 'The provider rejected the request; check that the configured model accepts images.',
  LLM_CONTEXT_TOO_LARGE: 'The session has grown too large for the model: start a new session or send fewer/smaller images.',
  LLM_TRANSPORT_UNAVAILABLE: 'The provider is unreachable or rate-limited; retry later.',
  LLM_EMPTY_REPLY: 'Retry, or rephrase the prompt.',
  LLM_ABORTED: 'The call was cancelled; repeat it if needed.',
  STORE_BUSY: 'The session database is busy; retry the call.',
  STORE_CONFLICT: 'Another process changed the session at the same time; retry the call.',
  INTERNAL_ERROR: 'An unexpected error occurred; see the server log on stderr.',
};

/**
 * A failed tool call as an `isError` result carrying the code and a recovery hint: agents
 * read it like any result, and the server keeps serving. Unknown errors become INTERNAL_ERROR
 * (logged here, never sent with their stack).
 */
export function toolFailure(error: unknown, log: Logger, tool: string): CallToolResult {
  const data = toAppErrorData(error);
  if (data.code === 'INTERNAL_ERROR') log.error('tool failed unexpectedly', { tool, error: error instanceof Error ? error.stack : String(error) });
  else log.info('tool returned an error', { tool, code: data.code });
  const hint = typeof data.data?.hint === 'string' ? data.data.hint : FALLBACK_HINTS[data.code];
  const body = { error: { code: data.code, message: data.message, retryable: data.retryable, ...(hint ? { hint } : {}), ...(data.data ? { data: data.data } : {}) } };
  return { isError: true, content: [{ type: 'text', text: JSON.stringify(body) }] };
}

/** Sends MCP progress notifications when (and only when) the client sent a progressToken. */
export function progressReporter(extra: ToolExtra): ProgressReporter | undefined {
  const token = extra._meta?.progressToken;
  if (token === undefined) return undefined;
  return (done, total, message) => {
    void extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress: done, total, message } }).catch(() => undefined);
  };
}

/** Usage in snake_case, as the structured content reports it. */
export function usageView(usage: UsageTotals) {
  return {
    calls: usage.calls,
    prompt_tokens: usage.promptTokens,
    cached_prompt_tokens: usage.cachedPromptTokens ?? 0,
    completion_tokens: usage.completionTokens,
    context_bytes: usage.contextBytes,
    latency_ms: usage.latencyMs,
  };
}

/** An image whose text was too small to read as sent: how small, and the zoom_image calls that make it legible. */
function smallTextHint(found: NonNullable<TurnResult['smallText']>[number]) {
  return {
    image_index: found.imageIndex,
    text_px: found.textHeightPx,
    hint: `Text is about ${found.textHeightPx} px tall as sent (legible from ${MIN_LEGIBLE_TEXT_PX} px); read it with zoom_image on these regions.`,
    zoom_regions: found.zoomRegions,
  };
}

/**
 * Structured content of a session turn (analyze_images, zoom_image, analyze_video): the answer
 * only; usage and latency (≈ 350 characters an agent pays for on every call) only when asked.
 */
export function turnView(result: TurnResult, verbose: boolean): Record<string, unknown> {
  return {
    session_id: result.sessionId,
    summary: result.summary,
    description: result.description,
    ...(verbose ? { usage: usageView(result.usage), session_usage: usageView(result.sessionUsage) } : {}),
    image_indexes: result.imageIndexes,
    ...(result.budgetNote ? { budget_note: result.budgetNote } : {}),
    ...(result.smallText ? { small_text: result.smallText.map(smallTextHint) } : {}),
  };
}
