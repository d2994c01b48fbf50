import { z } from 'zod';
import { AppError } from '../../../../shared/errors';
import { rawJsonValueAt } from '../rawJson';
import type { LlmContentPart, LlmMessage, LlmProviderConfig, LlmRequest } from '../types';
import { accumulateAnthropicStream, anthropicPromptTokens, anthropicStopReason, anthropicUsageSchema } from './anthropicMessagesStream';
import type { ProtocolAdapter, ProviderReply, WireRequest } from './types';
import { badResponse, imageBase64, jsonHeaders, parseReplyBody } from './wireHelpers';

const PROTOCOL = 'anthropic-messages';
const ANTHROPIC_VERSION = '2023-06-01';
/** Anthropic requires max_tokens; this is used when the caller gives none. */
const DEFAULT_MAX_TOKENS = 4096;

/** Anthropic wants tool_use.input as an object, so the stored arguments string must be JSON. */
function toolUseInput(part: Extract<LlmContentPart, { type: 'tool_call' }>): unknown {
  try {
    return JSON.parse(part.arguments);
  } catch {
    throw new AppError('LLM_BAD_REQUEST', `Tool call "${part.id}" in the history has arguments that are not JSON; Anthropic cannot replay it.`, {
      data: { toolCallId: part.id },
    });
  }
}

/** A prefix ending at a block with this is cached for five minutes (reads cost a tenth of fresh input). */
const EPHEMERAL = { cache_control: { type: 'ephemeral' } } as const;

function toBlock(part: Exclude<LlmContentPart, { type: 'reasoning' }>): Record<string, unknown> {
  switch (part.type) {
    case 'text':
      return { type: 'text', text: part.text };
    case 'image':
      return { type: 'image', source: { type: 'base64', media_type: part.mimeType, data: imageBase64(part) } };
    case 'tool_call':
      return { type: 'tool_use', id: part.id, name: part.name, input: toolUseInput(part) };
    case 'tool_result':
      return { type: 'tool_result', tool_use_id: part.toolCallId, content: part.content, ...(part.isError ? { is_error: true } : {}) };
  }
}

/** A wire message plus which of its blocks the caller marked as the end of a cacheable prefix. */
interface WireMessage {
  role: LlmMessage['role'];
  blocks: Record<string, unknown>[];
  marked: boolean[];
}

function toAnthropicMessage(message: LlmMessage): WireMessage {
  // Tool results must open the user turn that answers the assistant's tool_use blocks. Reasoning
  // is not replayed: Anthropic thinking needs its signed block, and thinking is never enabled here.
  const parts = message.content.filter((p): p is Exclude<LlmContentPart, { type: 'reasoning' }> => p.type !== 'reasoning');
  const ordered = message.role === 'user' ? [...parts].sort((a, b) => Number(b.type === 'tool_result') - Number(a.type === 'tool_result')) : parts;
  return { role: message.role, blocks: ordered.map(toBlock), marked: ordered.map((p) => 'cacheBreakpoint' in p && p.cacheBreakpoint === true) };
}

/** Anthropic accepts at most this many cache_control breakpoints per request. */
const MAX_BREAKPOINTS = 4;

/**
 * Places the cache breakpoints. The stable prefix comes first: one at the last tool definition
 * and one at the end of the system text (Anthropic orders tools, then system, then messages).
 * The rest go to the conversation: in a multi-turn history, the last block of the last
 * message, so the next turn of a tool loop reads everything before its new messages from the
 * cache; then the caller's own marks (the latest ones when there are too many). A lone message
 * gets no automatic mark: a one-shot turn would pay the cache write and never read it back.
 */
function withBreakpoints(messages: WireMessage[], prefixBreakpoints: number): Record<string, unknown>[] {
  const marks = messages.flatMap((m, mi) => m.marked.flatMap((on, bi) => (on ? [`${mi}:${bi}`] : [])));
  const last = messages.length - 1;
  const tail = messages.length > 1 && messages[last]!.blocks.length > 0 ? [`${last}:${messages[last]!.blocks.length - 1}`] : [];
  const room = MAX_BREAKPOINTS - prefixBreakpoints - tail.length;
  const at = new Set([...tail, ...(room > 0 ? marks.filter((m) => !tail.includes(m)).slice(-room) : [])]);
  return messages.map((m, mi) => ({ role: m.role, content: m.blocks.map((b, bi) => (at.has(`${mi}:${bi}`) ? { ...b, ...EPHEMERAL } : b)) }));
}

function buildRequest(request: LlmRequest, provider: LlmProviderConfig, apiKey: string | undefined): WireRequest {
  const stream = provider.forceStreaming === true;
  if (request.responseFormat) throw new AppError('LLM_BAD_REQUEST', 'Anthropic Messages has no JSON mode; use a (strict) tool instead.', { data: { responseFormat: request.responseFormat } });
  const tools = request.tools?.map((t, i, all) => ({ name: t.name, description: t.description, input_schema: t.parameters, ...(t.strict ? { strict: true } : {}), ...(i === all.length - 1 ? EPHEMERAL : {}) }));
  const choice = request.toolChoice;
  const prefixBreakpoints = (tools && tools.length > 0 ? 1 : 0) + (request.system ? 1 : 0);
  const body: Record<string, unknown> = {
    model: provider.model,
    max_tokens: request.maxOutputTokens ?? DEFAULT_MAX_TOKENS,
    messages: withBreakpoints(request.messages.map(toAnthropicMessage), prefixBreakpoints),
    ...(request.system ? { system: [{ type: 'text', text: request.system, ...EPHEMERAL }] } : {}),
    ...(tools && tools.length > 0
      ? { tools, tool_choice: choice === undefined || choice === 'auto' ? { type: 'auto' } : { type: 'tool', name: choice.name, disable_parallel_tool_use: true } }
      : {}),
    ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
    ...(stream ? { stream: true } : {}),
  };
  const headers: Record<string, string> = { ...jsonHeaders(provider.headers), 'anthropic-version': ANTHROPIC_VERSION };
  if (apiKey) headers['x-api-key'] = apiKey;
  if (stream) headers['accept'] = 'text/event-stream';
  return { path: '/messages', headers, body, stream };
}

const replySchema = z.object({
  content: z.array(
    z.union([
      z.object({ type: z.literal('text'), text: z.string() }),
      z.object({ type: z.literal('tool_use'), id: z.string(), name: z.string(), input: z.unknown() }),
      z.object({ type: z.literal('thinking'), thinking: z.string() }),
      z.object({ type: z.string() }),
    ]),
  ),
  stop_reason: z.string().nullish(),
  usage: anthropicUsageSchema,
});

function parseBody(bodyText: string): ProviderReply {
  const reply = parseReplyBody(PROTOCOL, bodyText, replySchema);
  const text: string[] = [];
  const thinking: string[] = [];
  const toolCalls: ProviderReply['toolCalls'] = [];
  reply.content.forEach((block, index) => {
    if ('text' in block) text.push(block.text);
    if ('thinking' in block) thinking.push(block.thinking);
    if ('input' in block) {
      // Anthropic sends arguments as an object: slice its exact bytes out of the body.
      const raw = rawJsonValueAt(bodyText, ['content', index, 'input']);
      if (raw === undefined) throw badResponse(PROTOCOL, `tool_use block ${index} has no input`);
      toolCalls.push({ id: block.id, name: block.name, rawArguments: raw });
    }
  });
  return {
    text: text.join(''),
    toolCalls,
    stopReason: anthropicStopReason(reply.stop_reason),
    ...(thinking.length > 0 ? { reasoning: thinking.join('') } : {}),
    ...anthropicPromptTokens(reply.usage),
    ...(typeof reply.usage?.output_tokens === 'number' ? { completionTokens: reply.usage.output_tokens } : {}),
  };
}

/** Anthropic Messages API (POST /messages, x-api-key + anthropic-version headers; SSE with forceStreaming). */
export const anthropicMessagesAdapter: ProtocolAdapter = { buildRequest, parseBody, parseStream: accumulateAnthropicStream };
