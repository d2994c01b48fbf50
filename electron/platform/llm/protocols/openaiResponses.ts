import type { ResponseCreateParamsNonStreaming, ResponseInputContent, ResponseInputItem } from 'openai/resources/responses/responses';
import { z } from 'zod';
import type { LlmMessage, LlmProviderConfig, LlmRequest } from '../types';
import type { ProtocolAdapter, ProviderReply, WireRequest } from './types';
import { imageDataUrl, jsonHeaders, joinedText, parseReplyBody } from './wireHelpers';

const PROTOCOL = 'openai-responses';

/**
 * Maps one LlmMessage to Responses input items (tool calls/results are their own items).
 * The request is sent with fetch (one retry policy, byte-exact bodies) but typed with the
 * openai SDK's request types so the wire shape is checked at compile time.
 */
function toInputItems(message: LlmMessage): ResponseInputItem[] {
  if (message.role === 'assistant') {
    const text = joinedText(message.content);
    const calls = message.content.flatMap((p): ResponseInputItem[] =>
      p.type === 'tool_call' ? [{ type: 'function_call', call_id: p.id, name: p.name, arguments: p.arguments }] : [],
    );
    return [...(text !== '' ? [{ role: 'assistant' as const, content: text }] : []), ...calls];
  }
  const outputs = message.content.flatMap((p): ResponseInputItem[] =>
    p.type === 'tool_result' ? [{ type: 'function_call_output', call_id: p.toolCallId, output: p.isError ? `ERROR: ${p.content}` : p.content }] : [],
  );
  const parts = message.content.flatMap((p): ResponseInputContent[] => {
    if (p.type === 'text') return [{ type: 'input_text' as const, text: p.text }];
    if (p.type === 'image') return [{ type: 'input_image' as const, image_url: imageDataUrl(p), detail: 'auto' as const }];
    return [];
  });
  return parts.length > 0 ? [...outputs, { role: 'user', content: parts }] : outputs;
}

function buildRequest(request: LlmRequest, provider: LlmProviderConfig, apiKey: string | undefined): WireRequest {
  const tools = request.tools?.map((t) => ({ type: 'function' as const, name: t.name, description: t.description, parameters: t.parameters, strict: t.strict === true }));
  const choice = request.toolChoice;
  const forced = choice !== undefined && choice !== 'auto';
  const body = {
    model: provider.model,
    input: request.messages.flatMap(toInputItems),
    // Conversations live in our SQLite store; nothing is left on the provider's side.
    store: false,
    ...(request.system ? { instructions: request.system } : {}),
    ...(tools && tools.length > 0 ? { tools, tool_choice: forced ? { type: 'function' as const, name: choice.name } : ('auto' as const) } : {}),
    ...(forced ? { parallel_tool_calls: false } : {}),
    ...(request.responseFormat === 'json_object' ? { text: { format: { type: 'json_object' as const } } } : {}),
    ...(request.maxOutputTokens !== undefined ? { max_output_tokens: request.maxOutputTokens } : {}),
    ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
  } satisfies ResponseCreateParamsNonStreaming;
  const headers = jsonHeaders(provider.headers);
  if (apiKey) headers['authorization'] = `Bearer ${apiKey}`;
  return { path: '/responses', headers, body, stream: false };
}

const replySchema = z.object({
  status: z.string().nullish(),
  incomplete_details: z.object({ reason: z.string().nullish() }).nullish(),
  output: z.array(
    z.union([
      z.object({ type: z.literal('message'), content: z.array(z.object({ type: z.string(), text: z.string().nullish() })) }),
      z.object({ type: z.literal('function_call'), call_id: z.string(), name: z.string(), arguments: z.string() }),
      // Reasoning summaries and built-in tool items carry nothing the gateway returns.
      z.object({ type: z.string() }),
    ]),
  ),
  usage: z.object({ input_tokens: z.number().optional(), output_tokens: z.number().optional(), input_tokens_details: z.object({ cached_tokens: z.number().nullish() }).nullish() }).nullish(),
});

function parseBody(bodyText: string): ProviderReply {
  const reply = parseReplyBody(PROTOCOL, bodyText, replySchema);
  const text: string[] = [];
  const toolCalls: ProviderReply['toolCalls'] = [];
  for (const item of reply.output) {
    if ('content' in item) for (const c of item.content) if (c.type === 'output_text' && c.text) text.push(c.text);
    if ('call_id' in item) toolCalls.push({ id: item.call_id, name: item.name, rawArguments: item.arguments });
  }
  const truncated = reply.status === 'incomplete' && reply.incomplete_details?.reason === 'max_output_tokens';
  return {
    text: text.join(''),
    toolCalls,
    stopReason: truncated ? 'max_tokens' : toolCalls.length > 0 ? 'tool_call' : reply.status === 'completed' ? 'end' : 'other',
    ...(reply.usage?.input_tokens !== undefined ? { promptTokens: reply.usage.input_tokens } : {}),
    ...(reply.usage?.output_tokens !== undefined ? { completionTokens: reply.usage.output_tokens } : {}),
    ...(typeof reply.usage?.input_tokens_details?.cached_tokens === 'number' ? { cachedPromptTokens: reply.usage.input_tokens_details.cached_tokens } : {}),
  };
}

/** OpenAI Responses API (POST /responses). */
export const openaiResponsesAdapter: ProtocolAdapter = { buildRequest, parseBody };
