import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { CallToolResult, ServerNotification, ServerRequest } from '@modelcontextprotocol/sdk/types.js';
import { toAppErrorData } from '../../../shared/errors';
import type { ProgressReporter, TurnResult, UsageTotals } from '../../features/vision';
import type { Logger } from '../../platform/log/types';

export type ToolExtra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/**
 * A successful tool result: the JSON text block picsense clients parse, plus the same object
 * as structuredContent (validated by the SDK against the tool's outputSchema).
 */
export function toolSuccess(structured: Record<string, unknown>): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(structured) }], structuredContent: structured };
}

/**
 * A failed tool call as an `isError` result carrying the code and a recovery hint: agents
 * read it like any result, and the server keeps serving. Unknown errors become INTERNAL_ERROR
 * (logged here, never sent with their stack).
 */
export function toolFailure(error: unknown, log: Logger, tool: string): CallToolResult {
  const data = toAppErrorData(error);
  if (data.code === 'INTERNAL_ERROR') log.error('tool failed unexpectedly', { tool, error: error instanceof Error ? error.stack : String(error) });
  else log.info('tool returned an error', { tool, code: data.code });
  const hint = typeof data.data?.hint === 'string' ? data.data.hint : undefined;
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
    completion_tokens: usage.completionTokens,
    context_bytes: usage.contextBytes,
    latency_ms: usage.latencyMs,
  };
}

/** Structured content of a session turn (analyze_images, zoom_image, analyze_video). */
export function turnView(result: TurnResult): Record<string, unknown> {
  return {
    session_id: result.sessionId,
    summary: result.summary,
    description: result.description,
    usage: usageView(result.usage),
    session_usage: usageView(result.sessionUsage),
    image_indexes: result.imageIndexes,
    ...(result.budgetNote ? { budget_note: result.budgetNote } : {}),
  };
}
