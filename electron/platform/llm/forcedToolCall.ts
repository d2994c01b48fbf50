import { AppError } from '../../../shared/errors';
import type { LlmGateway, LlmRequest, LlmResponse, LlmStructuredResult } from './types';

/** How much of a bad arguments string is kept in error data (enough to debug, bounded for logs). */
const MAX_RAW_IN_ERROR = 2000;

/**
 * Structured output through a forced single tool call. The model's arguments string is
 * returned untouched together with JSON.parse of it; there is deliberately no fallback to
 * JSON found in the text and no repair, so callers validate exactly what the model produced.
 * Throws LLM_NO_TOOL_CALL when the reply has no call of the tool and LLM_BAD_TOOL_ARGUMENTS
 * when its arguments are not JSON (raw string kept in data, truncated).
 */
export async function callForcedTool(
  complete: (request: LlmRequest) => Promise<LlmResponse>,
  request: Parameters<LlmGateway['callTool']>[0],
): Promise<LlmStructuredResult> {
  const { tool, ...rest } = request;
  const response = await complete({ ...rest, tools: [tool], toolChoice: { name: tool.name } });
  const call = response.toolCalls.find((c) => c.name === tool.name);
  if (!call) {
    throw new AppError('LLM_NO_TOOL_CALL', `The model did not call the required tool "${tool.name}".`, {
      data: { tool: tool.name, stopReason: response.stopReason, calledTools: response.toolCalls.map((c) => c.name), usage: response.usage },
    });
  }
  let value: unknown;
  try {
    value = JSON.parse(call.rawArguments);
  } catch {
    throw new AppError('LLM_BAD_TOOL_ARGUMENTS', `The arguments of tool "${tool.name}" are not valid JSON.`, {
      data: {
        tool: tool.name,
        rawArguments: call.rawArguments.slice(0, MAX_RAW_IN_ERROR),
        rawLength: call.rawArguments.length,
        truncated: call.rawArguments.length > MAX_RAW_IN_ERROR,
        // max_tokens here usually means the arguments were cut off, not malformed by the model.
        stopReason: response.stopReason,
        usage: response.usage,
      },
    });
  }
  return { callId: call.id, ...(response.reasoning ? { reasoning: response.reasoning } : {}), rawArguments: call.rawArguments, value, usage: response.usage };
}
