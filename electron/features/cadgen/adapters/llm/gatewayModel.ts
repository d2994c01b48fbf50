import type { LlmContentPart, LlmGateway } from '../../../../platform/llm/types';
import type { ModelPort } from '../../application/protocol/ports';

const MAX_OUTPUT_TOKENS = 4096;

/**
 * ModelPort over the platform LLM gateway. With one exposed tool the call is forced; with
 * several the model must choose and exactly one call is accepted (several calls or text only
 * come back as `no_call`, a format error for the coordinator). Raw argument strings are passed
 * through untouched for canonical validation. Gateway errors (LLM_*) propagate.
 */
export function createGatewayModel(id: string, gateway: LlmGateway): ModelPort {
  return {
    id,
    async turn(request) {
      const content: LlmContentPart[] = [{ type: 'text', text: request.user }, ...(request.images ?? []).map((image) => ({ type: 'image' as const, ...image }))];
      const response = await gateway.complete({
        system: request.system,
        messages: [{ role: 'user', content }],
        tools: request.tools,
        toolChoice: request.tools.length === 1 && request.tools[0] ? { name: request.tools[0].name } : 'auto',
        maxOutputTokens: MAX_OUTPUT_TOKENS,
        temperature: 0,
        purpose: request.purpose,
        ...(request.signal ? { signal: request.signal } : {}),
      });
      const [call, ...more] = response.toolCalls;
      if (!call || more.length > 0) return { kind: 'no_call', usage: response.usage, text: call ? `${response.toolCalls.length} tool calls` : response.text };
      return { kind: 'call', name: call.name, rawArguments: call.rawArguments, usage: response.usage };
    },
  };
}
