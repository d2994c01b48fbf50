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

/** A prefix ending here is cached for five minutes (reads cost a tenth of fresh input). */
const cacheControl = (part: { cacheBreakpoint?: boolean }) => (part.cacheBreakpoint ? { cache_control: { type: 'ephemeral' } } : {});

function toBlock(part: LlmContentPart): Record<string, unknown> {
  switch (part.type) {
    case 'text':
      return { type: 'text', text: part.text, ...cacheControl(part) };
    case 'image':
      return { type: 'image', source: { type: 'base64', media_type: part.mimeType, data: imageBase64(part) }, ...cacheControl(part) };
    case 'tool_call':
      return { type: 'tool_use', id: part.id, name: part.name, input: toolUseInput(part) };
    case 'tool_result':
      return { type: 'tool_result', tool_use_id: part.toolCallId, content: part.content, ...(part.isError ? { is_error: true } : {}) };
  }
}

function toAnthropicMessage(message: LlmMessage): Record<string, unknown> {
  // Tool results must open the user turn that answers the assistant's tool_use blocks.
  const ordered = message.role === 'user' ? [...message.content].sort((a, b) => Number(b.type === 'tool_result') - Number(a.type === 'tool_result')) : message.content;
  return { role: message.role, content: ordered.map(toBlock) };
}

function buildRequest(request: LlmRequest, provider: LlmProviderConfig, apiKey: string | undefined): WireRequest {
  const stream = provider.forceStreaming === true;
  if (request.responseFormat) throw new AppError('LLM_BAD_REQUEST', 'Anthropic Messages has no JSON mode; use a (strict) tool instead.', { data: { responseFormat: request.responseFormat } });
  const tools = request.tools?.map((t) => ({ name: t.name, description: t.description, input_schema: t.parameters, ...(t.strict ? { strict: true } : {}) }));
  const choice = request.toolChoice;
  const body: Record<string, unknown> = {
    model: provider.model,
    max_tokens: request.maxOutputTokens ?? DEFAULT_MAX_TOKENS,
    messages: request.messages.map(toAnthropicMessage),
    ...(request.system ? { system: request.system } : {}),
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
      z.object({ type: z.string() }),
    ]),
  ),
  stop_reason: z.string().nullish(),
  usage: anthropicUsageSchema,
});

function parseBody(bodyText: string): ProviderReply {
  const reply = parseReplyBody(PROTOCOL, bodyText, replySchema);
  const text: string[] = [];
  const toolCalls: ProviderReply['toolCalls'] = [];
  reply.content.forEach((block, index) => {
    if ('text' in block) text.push(block.text);
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
    ...anthropicPromptTokens(reply.usage),
    ...(typeof reply.usage?.output_tokens === 'number' ? { completionTokens: reply.usage.output_tokens } : {}),
  };
}

/** Anthropic Messages API (POST /messages, x-api-key + anthropic-version headers; SSE with forceStreaming). */
export const anthropicMessagesAdapter: ProtocolAdapter = { buildRequest, parseBody, parseStream: accumulateAnthropicStream };
