import type { ChatCompletionContentPart, ChatCompletionCreateParams, ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import { z } from 'zod';
import type { LlmMessage, LlmProviderConfig, LlmRequest } from '../types';
import { accumulateChatStream, chatCachedTokens, chatStopReason, chatUsageSchema } from './chatCompletionsStream';
import type { ProtocolAdapter, ProviderReply, WireRequest } from './types';
import { imageDataUrl, jsonHeaders, joinedText, parseReplyBody } from './wireHelpers';

const PROTOCOL = 'chat-completions';

/**
 * Maps one LlmMessage to Chat Completions messages (tool results become role "tool" messages).
 * Sent with fetch, typed with the openai SDK's request types (checked at compile time).
 */
function toChatMessages(message: LlmMessage): ChatCompletionMessageParam[] {
  if (message.role === 'assistant') {
    const toolCalls = message.content.flatMap((p) =>
      p.type === 'tool_call' ? [{ id: p.id, type: 'function' as const, function: { name: p.name, arguments: p.arguments } }] : [],
    );
    const text = joinedText(message.content);
    return [{ role: 'assistant', content: text === '' && toolCalls.length > 0 ? null : text, ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}) }];
  }
  // Tool results must directly follow the assistant turn that made the calls.
  const toolMessages = message.content.flatMap((p): ChatCompletionMessageParam[] =>
    p.type === 'tool_result' ? [{ role: 'tool', tool_call_id: p.toolCallId, content: p.isError ? `ERROR: ${p.content}` : p.content }] : [],
  );
  const userParts = message.content.flatMap((p): ChatCompletionContentPart[] => {
    if (p.type === 'text') return [{ type: 'text' as const, text: p.text }];
    if (p.type === 'image') return [{ type: 'image_url' as const, image_url: { url: imageDataUrl(p) } }];
    return [];
  });
  return userParts.length > 0 ? [...toolMessages, { role: 'user', content: userParts }] : toolMessages;
}

function buildRequest(request: LlmRequest, provider: LlmProviderConfig, apiKey: string | undefined): WireRequest {
  const stream = provider.forceStreaming === true;
  const messages: ChatCompletionMessageParam[] = [
    ...(request.system ? [{ role: 'system' as const, content: request.system }] : []),
    ...request.messages.flatMap(toChatMessages),
  ];
  const tools = request.tools?.map((t) => ({ type: 'function' as const, function: { name: t.name, description: t.description, parameters: t.parameters, ...(t.strict ? { strict: true } : {}) } }));
  const choice = request.toolChoice;
  const body = {
    model: provider.model,
    messages,
    ...(tools && tools.length > 0
      ? { tools, tool_choice: choice === undefined || choice === 'auto' ? ('auto' as const) : { type: 'function' as const, function: { name: choice.name } } }
      : {}),
    ...(request.responseFormat === 'json_object' ? { response_format: { type: 'json_object' as const } } : {}),
    ...(request.maxOutputTokens !== undefined ? { max_tokens: request.maxOutputTokens } : {}),
    ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
    ...(stream ? { stream: true, stream_options: { include_usage: true } } : {}),
  } satisfies ChatCompletionCreateParams;
  const headers = jsonHeaders(provider.headers);
  if (apiKey) headers['authorization'] = `Bearer ${apiKey}`;
  if (stream) headers['accept'] = 'text/event-stream';
  return { path: '/chat/completions', headers, body, stream };
}

const replySchema = z.object({
  choices: z
    .array(
      z.object({
        finish_reason: z.string().nullish(),
        message: z.object({
          content: z.string().nullish(),
          tool_calls: z
            .array(z.object({ id: z.string(), function: z.object({ name: z.string(), arguments: z.string() }) }))
            .nullish(),
        }),
      }),
    )
    .min(1),
  usage: chatUsageSchema,
});

function parseBody(bodyText: string): ProviderReply {
  const reply = parseReplyBody(PROTOCOL, bodyText, replySchema);
  const choice = reply.choices[0]!;
  return {
    text: choice.message.content ?? '',
    toolCalls: (choice.message.tool_calls ?? []).map((c) => ({ id: c.id, name: c.function.name, rawArguments: c.function.arguments })),
    stopReason: chatStopReason(choice.finish_reason),
    ...(reply.usage?.prompt_tokens !== undefined ? { promptTokens: reply.usage.prompt_tokens } : {}),
    ...(reply.usage?.completion_tokens !== undefined ? { completionTokens: reply.usage.completion_tokens } : {}),
    ...(chatCachedTokens(reply.usage) !== undefined ? { cachedPromptTokens: chatCachedTokens(reply.usage)! } : {}),
  };
}

/** Chat Completions (OpenAI-compatible gateways: Qwen, Kimi, DeepSeek, Zhipu, Ollama, vLLM...). */
export const chatCompletionsAdapter: ProtocolAdapter = { buildRequest, parseBody, parseStream: accumulateChatStream };
