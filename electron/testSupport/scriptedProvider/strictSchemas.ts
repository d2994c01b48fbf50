import { openAiStrictIssues } from '../../platform/llm/strictDialect/index';

/**
 * OpenAI's 400 for a strict function schema outside the Structured Outputs subset, as the API
 * words it ({error: {message: "Invalid schema for function '<name>': ...", type:
 * 'invalid_request_error', param, code: 'invalid_function_parameters'}}), or null when every strict
 * tool of the request body (Chat Completions or Responses shape) is accepted.
 */
export function openAiStrictRefusal(body: unknown): string | null {
  const tools = (body as { tools?: unknown[] } | undefined)?.tools ?? [];
  for (const [index, raw] of tools.entries()) {
    const tool = raw as { function?: { name?: string; parameters?: Record<string, unknown>; strict?: boolean }; name?: string; parameters?: Record<string, unknown>; strict?: boolean };
    const fn = tool.function ?? tool;
    if (fn.strict !== true) continue;
    const [issue] = openAiStrictIssues(fn.parameters ?? {});
    if (issue === undefined) continue;
    return JSON.stringify({
      error: { message: `Invalid schema for function '${String(fn.name)}': ${issue}`, type: 'invalid_request_error', param: tool.function ? `tools[${index}].function.parameters` : `tools[${index}].parameters`, code: 'invalid_function_parameters' },
    });
  }
  return null;
}
