import { z } from 'zod';
import { TransportFailure } from '../httpTransport';
import type { SseEvent } from '../sse';
import type { LlmResponse } from '../types';
import type { ProviderReply } from './types';
import { badResponse } from './wireHelpers';

const PROTOCOL = 'anthropic-messages stream';

/** Maps an Anthropic stop_reason to the gateway's stop reason. */
export function anthropicStopReason(reason: string | null | undefined): LlmResponse['stopReason'] {
  if (reason === 'end_turn' || reason === 'stop_sequence') return 'end';
  if (reason === 'tool_use') return 'tool_call';
  if (reason === 'max_tokens') return 'max_tokens';
  return 'other';
}

const usageSchema = z
  .object({ input_tokens: z.number().nullish(), output_tokens: z.number().nullish(), cache_read_input_tokens: z.number().nullish(), cache_creation_input_tokens: z.number().nullish() })
  .nullish();

/**
 * Anthropic's input_tokens leaves out what was read from or written to the prompt cache: the
 * prompt is the sum of the three, and the cache reads are its cached part.
 */
export function anthropicPromptTokens(usage: z.infer<typeof usageSchema>): { promptTokens?: number; cachedPromptTokens?: number; cacheWritePromptTokens?: number } {
  if (typeof usage?.input_tokens !== 'number') return {};
  const read = usage.cache_read_input_tokens ?? 0;
  const written = usage.cache_creation_input_tokens ?? 0;
  return {
    promptTokens: usage.input_tokens + read + written,
    ...(typeof usage.cache_read_input_tokens === 'number' ? { cachedPromptTokens: read } : {}),
    ...(typeof usage.cache_creation_input_tokens === 'number' ? { cacheWritePromptTokens: written } : {}),
  };
}
export { usageSchema as anthropicUsageSchema };

const eventSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('message_start'), message: z.object({ usage: usageSchema }) }),
  z.object({
    type: z.literal('content_block_start'),
    index: z.number().int().nonnegative(),
    content_block: z.object({ type: z.string(), text: z.string().optional(), id: z.string().optional(), name: z.string().optional(), input: z.unknown().optional() }),
  }),
  z.object({
    type: z.literal('content_block_delta'),
    index: z.number().int().nonnegative(),
    delta: z.object({ type: z.string(), text: z.string().optional(), partial_json: z.string().optional(), thinking: z.string().optional() }),
  }),
  z.object({ type: z.literal('content_block_stop') }),
  z.object({ type: z.literal('message_delta'), delta: z.object({ stop_reason: z.string().nullish() }), usage: usageSchema }),
  z.object({ type: z.literal('message_stop') }),
  z.object({ type: z.literal('ping') }),
  z.object({ type: z.literal('error'), error: z.object({ type: z.string(), message: z.string().optional() }) }),
]);

/** Event types this accumulator understands; the API may add others, which must be ignored. */
const KNOWN_EVENTS = new Set(['message_start', 'content_block_start', 'content_block_delta', 'content_block_stop', 'message_delta', 'message_stop', 'ping', 'error']);

interface ToolBlock {
  id: string;
  name: string;
  /** The input as given in content_block_start; used only when no input_json_delta follows. */
  startInput: unknown;
  jsonChunks: string[];
}

/** Error event types that mean "try again later" (Anthropic's 529/500 delivered mid-stream). */
const RETRYABLE_STREAM_ERRORS = new Set(['overloaded_error', 'api_error', 'rate_limit_error']);

/**
 * Accumulates a streamed Anthropic reply. Tool inputs are the concatenated `partial_json`
 * deltas — the model's exact bytes, which the non-streamed API only offers as a parsed object.
 * A stream without message_stop was cut off (transport failure, retried); an overloaded or
 * api error event is retryable too; other error events are malformed replies.
 */
export async function accumulateAnthropicStream(events: AsyncIterable<SseEvent>): Promise<ProviderReply> {
  const text: string[] = [];
  const thinking: string[] = [];
  const tools = new Map<number, ToolBlock>();
  let stop: string | null | undefined;
  let stopped = false;
  let prompt: ReturnType<typeof anthropicPromptTokens> = {};
  let completionTokens: number | undefined;

  for await (const sse of events) {
    let json: unknown;
    try {
      json = JSON.parse(sse.data);
    } catch {
      throw badResponse(PROTOCOL, 'an event is not JSON');
    }
    const type = typeof json === 'object' && json !== null ? (json as { type?: unknown }).type : undefined;
    if (typeof type === 'string' && !KNOWN_EVENTS.has(type)) continue;
    const parsed = eventSchema.safeParse(json);
    if (!parsed.success) throw badResponse(PROTOCOL, parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '));
    const event = parsed.data;
    switch (event.type) {
      case 'message_start': {
        prompt = { ...prompt, ...anthropicPromptTokens(event.message.usage) };
        completionTokens = event.message.usage?.output_tokens ?? completionTokens;
        break;
      }
      case 'content_block_start':
        if (event.content_block.type === 'tool_use') {
          if (!event.content_block.id || !event.content_block.name) throw badResponse(PROTOCOL, 'a tool_use block has no id or name');
          tools.set(event.index, { id: event.content_block.id, name: event.content_block.name, startInput: event.content_block.input, jsonChunks: [] });
        } else if (event.content_block.type === 'text' && event.content_block.text) {
          text.push(event.content_block.text);
        }
        break;
      case 'content_block_delta':
        if (event.delta.type === 'text_delta' && event.delta.text !== undefined) text.push(event.delta.text);
        if (event.delta.type === 'thinking_delta' && event.delta.thinking !== undefined) thinking.push(event.delta.thinking);
        if (event.delta.type === 'input_json_delta' && event.delta.partial_json !== undefined) tools.get(event.index)?.jsonChunks.push(event.delta.partial_json);
        break;
      case 'message_delta':
        stop = event.delta.stop_reason ?? stop;
        completionTokens = event.usage?.output_tokens ?? completionTokens;
        break;
      case 'message_stop':
        stopped = true;
        break;
      case 'error':
        if (RETRYABLE_STREAM_ERRORS.has(event.error.type)) throw new TransportFailure('interrupted', `The stream reported ${event.error.type}.`);
        throw badResponse(PROTOCOL, `the stream reported ${event.error.type}`);
      default:
        break;
    }
  }
  if (!stopped) throw new TransportFailure('interrupted', 'The stream ended before message_stop.');
  const toolCalls = [...tools.entries()]
    .sort(([a], [b]) => a - b)
    .map(([, t]) => ({ id: t.id, name: t.name, rawArguments: t.jsonChunks.length > 0 ? t.jsonChunks.join('') : JSON.stringify(t.startInput ?? {}) }));
  return {
    text: text.join(''),
    toolCalls,
    stopReason: anthropicStopReason(stop),
    ...(thinking.length > 0 ? { reasoning: thinking.join('') } : {}),
    ...prompt,
    ...(completionTokens !== undefined ? { completionTokens } : {}),
  };
}
