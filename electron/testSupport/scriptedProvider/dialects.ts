/**
 * Chat Completions dialects of the providers in the preset table, as their API documentation
 * describes them (thinking models with their default thinking on). The scripted provider
 * enforces a dialect's request rules with a 400 in the provider's error shape and words, and
 * answers in its reply shape, so a gateway that ignores a documented difference fails the test.
 */
export type ChatDialectId = 'openai' | 'deepseek' | 'kimi' | 'zhipu' | 'qwen' | 'ollama';

/** A tool_choice as a dialect classifies it. */
export type ToolChoiceKind = 'auto' | 'none' | 'required' | 'named';

export interface ChatDialect {
  /** Where usage reports cached prompt tokens: prompt_tokens_details.cached_tokens, DeepSeek's hit/miss counts, or nowhere. */
  cacheField: 'openai' | 'deepseek' | 'none';
  /** The reply field holding a thinking model's reasoning (Ollama's compatibility layer says `reasoning`). */
  reasoningField: 'reasoning_content' | 'reasoning';
  /** tool_choice values the API accepts (Ollama ignores the field: it accepts all and forces nothing). */
  toolChoices: readonly ToolChoiceKind[];
  /**
   * reasoning_content on assistant messages with tool_calls: 'required' (missing → 400),
   * 'forbidden' (present → 400: OpenAI validates message fields; Ollama's history does not take it),
   * 'ignored'.
   */
  reasoningOnToolCalls: 'required' | 'forbidden' | 'ignored';
  /** Error text for a rule broken at `messages[index]`. */
  missingReasoning(index: number): string;
}

const ALL_CHOICES: readonly ToolChoiceKind[] = ['auto', 'none', 'required', 'named'];
const unexpectedField = (index: number): string => `Additional properties are not allowed ('reasoning_content' was unexpected) - 'messages.${index}'`;

export const chatDialects: Readonly<Record<ChatDialectId, ChatDialect>> = {
  openai: { cacheField: 'openai', reasoningField: 'reasoning_content', toolChoices: ALL_CHOICES, reasoningOnToolCalls: 'forbidden', missingReasoning: unexpectedField },
  // Thinking mode (on by default): tool-call turns' reasoning_content must come back in every later request.
  deepseek: {
    cacheField: 'deepseek',
    reasoningField: 'reasoning_content',
    toolChoices: ALL_CHOICES,
    reasoningOnToolCalls: 'required',
    missingReasoning: (i) => `Missing reasoning_content field in the assistant message at message index ${i}. For more information, please refer to https://api-docs.deepseek.com/guides/thinking_mode#tool-calls`,
  },
  // Kimi K2 with thinking (its default): tool_choice only auto/none; reasoning_content required on tool-call turns.
  kimi: {
    cacheField: 'openai',
    reasoningField: 'reasoning_content',
    toolChoices: ['auto', 'none'],
    reasoningOnToolCalls: 'required',
    missingReasoning: (i) => `thinking is enabled but reasoning_content is missing in assistant tool call message at index ${i}`,
  },
  // GLM: tool_choice only auto; interleaved thinking needs the reasoning returned with tool results
  // (the documentation states the rule, not the error's words: this text is ours).
  zhipu: {
    cacheField: 'openai',
    reasoningField: 'reasoning_content',
    toolChoices: ['auto'],
    reasoningOnToolCalls: 'required',
    missingReasoning: (i) => `reasoning_content of the assistant tool call message at index ${i} must be returned while thinking is enabled`,
  },
  qwen: { cacheField: 'openai', reasoningField: 'reasoning_content', toolChoices: ['auto', 'none', 'named'], reasoningOnToolCalls: 'ignored', missingReasoning: unexpectedField },
  ollama: { cacheField: 'none', reasoningField: 'reasoning', toolChoices: ALL_CHOICES, reasoningOnToolCalls: 'forbidden', missingReasoning: unexpectedField },
};

function toolChoiceKind(choice: unknown): ToolChoiceKind | null {
  if (choice === undefined) return null;
  if (choice === 'auto' || choice === 'none' || choice === 'required') return choice;
  return 'named';
}

/**
 * The first documented rule a Chat Completions request body breaks, as the provider's 400
 * message, or null when it follows the dialect.
 */
export function dialectViolation(dialect: ChatDialect, body: unknown): string | null {
  const request = (body ?? {}) as { tool_choice?: unknown; messages?: unknown };
  const choice = toolChoiceKind(request.tool_choice);
  if (choice !== null && !dialect.toolChoices.includes(choice)) {
    return `tool_choice ${JSON.stringify(request.tool_choice)} is not supported; use one of: ${dialect.toolChoices.join(', ')}`;
  }
  const messages = Array.isArray(request.messages) ? (request.messages as Record<string, unknown>[]) : [];
  for (const [index, message] of messages.entries()) {
    if (message['role'] !== 'assistant') continue;
    const hasCalls = Array.isArray(message['tool_calls']) && message['tool_calls'].length > 0;
    const hasReasoning = typeof message['reasoning_content'] === 'string';
    if (dialect.reasoningOnToolCalls === 'required' && hasCalls && !hasReasoning) return dialect.missingReasoning(index);
    if (dialect.reasoningOnToolCalls === 'forbidden' && 'reasoning_content' in message) return dialect.missingReasoning(index);
  }
  return null;
}
