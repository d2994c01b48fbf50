import type { ChatDialect } from './dialects';
import type { ScriptStep } from './types';

/** A successful scripted reply, protocol-neutral. */
export interface NeutralReply {
  text: string;
  toolCall?: { id: string; name: string; arguments: string };
  promptTokens: number;
  completionTokens: number;
  cachedPromptTokens?: number;
  cacheWritePromptTokens?: number;
  cacheField?: 'openai' | 'deepseek' | 'moonshot';
  reasoning?: string;
}

/** Cache counts a simulated prompt cache measured, used where the step gives none. */
export interface MeasuredCache {
  cachedPromptTokens: number;
  cacheWritePromptTokens: number;
}

/** Resolves a text/tool step into a neutral reply with ids and default usage. */
export function neutralReply(step: ScriptStep, promptTokenEstimate: number, sequence: number, measured?: MeasuredCache): NeutralReply {
  const text = 'text' in step && typeof step.text === 'string' ? step.text : '';
  const toolCall =
    'toolCall' in step
      ? {
          id: step.toolCall.id ?? `call_${sequence}`,
          name: step.toolCall.name,
          arguments: typeof step.toolCall.arguments === 'string' ? step.toolCall.arguments : JSON.stringify(step.toolCall.arguments),
        }
      : undefined;
  const outputLength = text.length + (toolCall?.arguments.length ?? 0);
  return {
    text,
    ...(toolCall ? { toolCall } : {}),
    promptTokens: step.usage?.promptTokens ?? promptTokenEstimate,
    completionTokens: step.usage?.completionTokens ?? Math.ceil(outputLength / 4),
    ...(step.usage?.cachedPromptTokens !== undefined
      ? { cachedPromptTokens: step.usage.cachedPromptTokens, ...(step.usage.cacheField ? { cacheField: step.usage.cacheField } : {}) }
      : measured
        ? { cachedPromptTokens: measured.cachedPromptTokens }
        : {}),
    ...(step.usage?.cacheWritePromptTokens !== undefined
      ? { cacheWritePromptTokens: step.usage.cacheWritePromptTokens }
      : measured && measured.cacheWritePromptTokens > 0
        ? { cacheWritePromptTokens: measured.cacheWritePromptTokens }
        : {}),
    ...(step.reasoning !== undefined ? { reasoning: step.reasoning } : {}),
  };
}

/** OpenAI Responses body. */
export function responsesBody(reply: NeutralReply, model: string, sequence: number): string {
  const output: unknown[] = [];
  if (reply.reasoning !== undefined) output.push({ type: 'reasoning', id: `rs_${sequence}`, summary: [{ type: 'summary_text', text: reply.reasoning }] });
  if (reply.text) output.push({ type: 'message', id: `msg_${sequence}`, role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: reply.text, annotations: [] }] });
  if (reply.toolCall) {
    output.push({ type: 'function_call', id: `fc_${sequence}`, call_id: reply.toolCall.id, name: reply.toolCall.name, arguments: reply.toolCall.arguments, status: 'completed' });
  }
  return JSON.stringify({
    id: `resp_${sequence}`,
    object: 'response',
    status: 'completed',
    model,
    output,
    usage: {
      input_tokens: reply.promptTokens,
      output_tokens: reply.completionTokens,
      total_tokens: reply.promptTokens + reply.completionTokens,
      ...(reply.cachedPromptTokens !== undefined ? { input_tokens_details: { cached_tokens: reply.cachedPromptTokens } } : {}),
    },
  });
}

/** Chat Completions usage with the cache counts where the dialect (or the step) reports them. */
function chatUsage(reply: NeutralReply, dialect: ChatDialect | undefined): Record<string, unknown> {
  const field = reply.cacheField ?? (dialect?.cacheField === 'none' ? undefined : (dialect?.cacheField ?? 'openai'));
  const cached = reply.cachedPromptTokens;
  const written = reply.cacheWritePromptTokens;
  const details = { ...(cached !== undefined ? { cached_tokens: cached } : {}), ...(written !== undefined ? { cache_creation_input_tokens: written } : {}) };
  return {
    prompt_tokens: reply.promptTokens,
    completion_tokens: reply.completionTokens,
    total_tokens: reply.promptTokens + reply.completionTokens,
    ...(cached === undefined || field === undefined
      ? {}
      : field === 'deepseek'
        ? { prompt_cache_hit_tokens: cached, prompt_cache_miss_tokens: reply.promptTokens - cached }
        : field === 'moonshot'
          ? { cached_tokens: cached }
          : { prompt_tokens_details: details }),
  };
}

/** Chat Completions body (non-streamed); reasoning in the dialect's field. */
export function chatBody(reply: NeutralReply, model: string, sequence: number, dialect?: ChatDialect): string {
  const toolCalls = reply.toolCall ? [{ id: reply.toolCall.id, type: 'function', function: { name: reply.toolCall.name, arguments: reply.toolCall.arguments } }] : undefined;
  return JSON.stringify({
    id: `chatcmpl_${sequence}`,
    object: 'chat.completion',
    created: 0,
    model,
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: reply.text === '' && toolCalls ? null : reply.text,
          ...(reply.reasoning !== undefined ? { [dialect?.reasoningField ?? 'reasoning_content']: reply.reasoning } : {}),
          ...(toolCalls ? { tool_calls: toolCalls } : {}),
        },
        finish_reason: toolCalls ? 'tool_calls' : 'stop',
      },
    ],
    usage: chatUsage(reply, dialect),
  });
}

/** Splits a string into chunks of `size` characters (at least one chunk, possibly empty). */
function chunks(value: string, size: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < value.length; i += size) out.push(value.slice(i, i + size));
  return out;
}

/**
 * Chat Completions SSE events: role delta, text deltas, the tool call's id+name then its
 * arguments in `chunkSize` pieces, finish_reason, usage when asked for, then [DONE].
 */
export function chatStreamEvents(reply: NeutralReply, model: string, sequence: number, chunkSize: number, includeUsage: boolean, dialect?: ChatDialect): StreamEvent[] {
  const frame = (choices: unknown[], extra: Record<string, unknown> = {}): string =>
    JSON.stringify({ id: `chatcmpl_${sequence}`, object: 'chat.completion.chunk', created: 0, model, choices, ...extra });
  const delta = (d: Record<string, unknown>, finish: string | null = null): string => frame([{ index: 0, delta: d, finish_reason: finish }]);
  const events = [delta({ role: 'assistant', content: '' })];
  // Thinking models stream their reasoning first, in its own field.
  for (const piece of reply.reasoning ? chunks(reply.reasoning, chunkSize) : []) events.push(delta({ [dialect?.reasoningField ?? 'reasoning_content']: piece }));
  for (const piece of chunks(reply.text, chunkSize)) events.push(delta({ content: piece }));
  if (reply.toolCall) {
    events.push(delta({ tool_calls: [{ index: 0, id: reply.toolCall.id, type: 'function', function: { name: reply.toolCall.name, arguments: '' } }] }));
    for (const piece of chunks(reply.toolCall.arguments, chunkSize)) events.push(delta({ tool_calls: [{ index: 0, function: { arguments: piece } }] }));
  }
  events.push(delta({}, reply.toolCall ? 'tool_calls' : 'stop'));
  if (includeUsage) {
    events.push(frame([], { usage: chatUsage(reply, dialect) }));
  }
  events.push('[DONE]');
  return events.map((data) => ({ data }));
}

/** Anthropic's input counts: input_tokens is what was neither read from nor written to the cache. */
function anthropicInputUsage(reply: NeutralReply): Record<string, number> {
  if (reply.cachedPromptTokens === undefined && reply.cacheWritePromptTokens === undefined) return { input_tokens: reply.promptTokens };
  const read = reply.cachedPromptTokens ?? 0;
  const written = reply.cacheWritePromptTokens ?? 0;
  return { input_tokens: reply.promptTokens - read - written, cache_read_input_tokens: read, cache_creation_input_tokens: written };
}

/**
 * Anthropic Messages body. The tool input is spliced in as raw text so unusual whitespace and
 * key order reach the client byte-for-byte, as a real provider's serialization would.
 */
export function anthropicBody(reply: NeutralReply, model: string, sequence: number): string {
  const placeholder = `"__scripted_input_${sequence}__"`;
  const content: unknown[] = [];
  if (reply.reasoning !== undefined) content.push({ type: 'thinking', thinking: reply.reasoning, signature: `sig_${sequence}` });
  if (reply.text) content.push({ type: 'text', text: reply.text });
  if (reply.toolCall) content.push({ type: 'tool_use', id: reply.toolCall.id, name: reply.toolCall.name, input: JSON.parse(placeholder) });
  const body = JSON.stringify({
    id: `msg_${sequence}`,
    type: 'message',
    role: 'assistant',
    model,
    content,
    stop_reason: reply.toolCall ? 'tool_use' : 'end_turn',
    usage: { ...anthropicInputUsage(reply), output_tokens: reply.completionTokens },
  });
  // A replacer function, because a replacement string would interpret `$&` patterns in the arguments.
  const raw = reply.toolCall?.arguments;
  return raw === undefined ? body : body.replace(placeholder, () => raw);
}

/** One SSE event as the server writes it. */
export interface StreamEvent {
  event?: string;
  data: string;
}

/**
 * Anthropic Messages SSE: message_start (input tokens), a text block and/or a tool_use block
 * whose input arrives as `partial_json` deltas in `chunkSize` pieces, message_delta with the
 * stop reason and output tokens, message_stop.
 */
export function anthropicStreamEvents(reply: NeutralReply, model: string, sequence: number, chunkSize: number): StreamEvent[] {
  const ev = (type: string, payload: Record<string, unknown>): StreamEvent => ({ event: type, data: JSON.stringify({ type, ...payload }) });
  const events = [
    ev('message_start', { message: { id: `msg_${sequence}`, type: 'message', role: 'assistant', model, content: [], stop_reason: null, usage: { ...anthropicInputUsage(reply), output_tokens: 1 } } }),
    ev('ping', {}),
  ];
  let index = 0;
  if (reply.text) {
    events.push(ev('content_block_start', { index, content_block: { type: 'text', text: '' } }));
    for (const piece of chunks(reply.text, chunkSize)) events.push(ev('content_block_delta', { index, delta: { type: 'text_delta', text: piece } }));
    events.push(ev('content_block_stop', { index }));
    index++;
  }
  if (reply.toolCall) {
    events.push(ev('content_block_start', { index, content_block: { type: 'tool_use', id: reply.toolCall.id, name: reply.toolCall.name, input: {} } }));
    for (const piece of chunks(reply.toolCall.arguments, chunkSize)) events.push(ev('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: piece } }));
    events.push(ev('content_block_stop', { index }));
  }
  events.push(ev('message_delta', { delta: { stop_reason: reply.toolCall ? 'tool_use' : 'end_turn', stop_sequence: null }, usage: { output_tokens: reply.completionTokens } }));
  events.push(ev('message_stop', {}));
  return events;
}

/** Default error body in the shape each protocol uses. */
export function errorBody(protocol: 'openai' | 'anthropic', status: number, message: string): string {
  return protocol === 'anthropic'
    ? JSON.stringify({ type: 'error', error: { type: status === 401 ? 'authentication_error' : 'api_error', message } })
    : JSON.stringify({ error: { message, type: status === 401 ? 'invalid_request_error' : 'server_error', code: null } });
}
