import type { LlmContentPart, LlmMessage, LlmResponse, LlmToolCall } from './types';

/**
 * The assistant message that records a reply in a tool loop's history: its text, the reasoning
 * it returned in a separate field (the gateway sends that back only to providers whose thinking
 * models require it on tool-call turns) and its tool calls with their raw arguments. `calls`
 * defaults to all of the reply's calls (a caller may record a substitute, e.g. a forced call).
 */
export function assistantTurn(reply: Pick<LlmResponse, 'text' | 'reasoning'>, calls: readonly LlmToolCall[] = []): LlmMessage {
  const content: LlmContentPart[] = [
    ...(reply.reasoning ? [{ type: 'reasoning' as const, text: reply.reasoning }] : []),
    ...(reply.text ? [{ type: 'text' as const, text: reply.text }] : []),
    ...calls.map((c): LlmContentPart => ({ type: 'tool_call', id: c.id, name: c.name, arguments: c.rawArguments })),
  ];
  return { role: 'assistant', content };
}
