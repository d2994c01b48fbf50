import { z } from 'zod';
import { TransportFailure } from '../httpTransport';
import type { SseEvent } from '../sse';
import type { LlmResponse } from '../types';
import type { ProviderReply } from './types';
import { badResponse } from './wireHelpers';

const PROTOCOL = 'chat-completions stream';

/** Maps a Chat Completions finish_reason to the gateway's stop reason. */
export function chatStopReason(finishReason: string | null | undefined): LlmResponse['stopReason'] {
  if (finishReason === 'stop') return 'end';
  if (finishReason === 'tool_calls' || finishReason === 'function_call') return 'tool_call';
  if (finishReason === 'length') return 'max_tokens';
  return 'other';
}

/** Usage block shared by complete replies and the final stream chunk. */
export const chatUsageSchema = z
  .object({
    prompt_tokens: z.number().optional(),
    completion_tokens: z.number().optional(),
    // OpenAI, Kimi K2, GLM, Qwen implicit cache; Qwen's explicit cache adds cache_creation_input_tokens.
    prompt_tokens_details: z.object({ cached_tokens: z.number().nullish(), cache_creation_input_tokens: z.number().nullish() }).nullish(),
    // DeepSeek reports its context cache as hit/miss counts.
    prompt_cache_hit_tokens: z.number().nullish(),
    // Kimi's moonshot-v1 context cache reports a top-level count.
    cached_tokens: z.number().nullish(),
  })
  .nullish();

/** Prompt-token counts of a Chat Completions usage block, whichever way the gateway reports its cache. */
export function chatUsageTokens(usage: z.infer<typeof chatUsageSchema>): { promptTokens?: number; completionTokens?: number; cachedPromptTokens?: number; cacheWritePromptTokens?: number } {
  const cached = usage?.prompt_tokens_details?.cached_tokens ?? usage?.prompt_cache_hit_tokens ?? usage?.cached_tokens ?? undefined;
  const written = usage?.prompt_tokens_details?.cache_creation_input_tokens ?? undefined;
  return {
    ...(usage?.prompt_tokens !== undefined ? { promptTokens: usage.prompt_tokens } : {}),
    ...(usage?.completion_tokens !== undefined ? { completionTokens: usage.completion_tokens } : {}),
    ...(cached !== undefined ? { cachedPromptTokens: cached } : {}),
    ...(written !== undefined ? { cacheWritePromptTokens: written } : {}),
  };
}

const chunkSchema = z.object({
  choices: z
    .array(
      z.object({
        delta: z
          .object({
            content: z.string().nullish(),
            // Thinking models stream their reasoning apart from the answer (Ollama names it `reasoning`).
            reasoning_content: z.string().nullish(),
            reasoning: z.string().nullish(),
            tool_calls: z
              .array(
                z.object({
                  index: z.number().int().nonnegative(),
                  id: z.string().nullish(),
                  function: z.object({ name: z.string().nullish(), arguments: z.string().nullish() }).nullish(),
                }),
              )
              .nullish(),
          })
          .nullish(),
        finish_reason: z.string().nullish(),
      }),
    )
    .nullish(),
  usage: chatUsageSchema,
});

interface PartialToolCall {
  id: string;
  name: string;
  argumentChunks: string[];
}

/**
 * Accumulates a streamed Chat Completions reply: text deltas are concatenated, tool-call
 * argument deltas are concatenated per `index` (ids and names arrive once, in the first delta
 * of each call), usage is read from the final chunk (stream_options.include_usage). A stream
 * that ends before `[DONE]` or a finish_reason was cut off and is reported as a transport
 * failure, so the retry policy applies.
 */
export async function accumulateChatStream(events: AsyncIterable<SseEvent>): Promise<ProviderReply> {
  const text: string[] = [];
  const reasoning: string[] = [];
  const calls = new Map<number, PartialToolCall>();
  let finishReason: string | null | undefined;
  let sawDone = false;
  let usage: ReturnType<typeof chatUsageTokens> = {};

  for await (const event of events) {
    if (event.data === '[DONE]') {
      sawDone = true;
      break;
    }
    let json: unknown;
    try {
      json = JSON.parse(event.data);
    } catch {
      throw badResponse(PROTOCOL, 'a chunk is not JSON');
    }
    if (typeof json === 'object' && json !== null && 'error' in json) throw badResponse(PROTOCOL, 'the stream reported an error');
    const parsed = chunkSchema.safeParse(json);
    if (!parsed.success) throw badResponse(PROTOCOL, parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '));
    const chunk = parsed.data;
    if (chunk.usage) usage = { ...usage, ...chatUsageTokens(chunk.usage) };
    const choice = chunk.choices?.[0];
    if (!choice) continue;
    if (choice.delta?.content) text.push(choice.delta.content);
    const thought = choice.delta?.reasoning_content ?? choice.delta?.reasoning;
    if (thought) reasoning.push(thought);
    for (const delta of choice.delta?.tool_calls ?? []) {
      const call = calls.get(delta.index) ?? { id: '', name: '', argumentChunks: [] };
      if (delta.id) call.id = delta.id;
      // Names arrive whole in the first delta; some gateways repeat them, so set rather than append.
      if (delta.function?.name) call.name = delta.function.name;
      if (delta.function?.arguments) call.argumentChunks.push(delta.function.arguments);
      calls.set(delta.index, call);
    }
    if (choice.finish_reason) finishReason = choice.finish_reason;
  }
  if (!sawDone && !finishReason) throw new TransportFailure('interrupted', 'The stream ended before the reply was complete.');

  const toolCalls = [...calls.entries()]
    .sort(([a], [b]) => a - b)
    .map(([, c]) => {
      if (!c.id || !c.name) throw badResponse(PROTOCOL, 'a streamed tool call has no id or name');
      return { id: c.id, name: c.name, rawArguments: c.argumentChunks.join('') };
    });
  return {
    text: text.join(''),
    toolCalls,
    stopReason: chatStopReason(finishReason),
    ...(reasoning.length > 0 ? { reasoning: reasoning.join('') } : {}),
    ...usage,
  };
}
