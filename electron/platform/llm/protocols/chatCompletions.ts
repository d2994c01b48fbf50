import type { ChatCompletionAssistantMessageParam, ChatCompletionContentPart, ChatCompletionCreateParams, ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import { z } from 'zod';
import type { LlmMessage, LlmProviderConfig, LlmRequest, ProviderQuirks } from '../types';
import { accumulateChatStream, chatStopReason, chatUsageSchema, chatUsageTokens } from './chatCompletionsStream';
import type { ProtocolAdapter, ProviderReply, WireRequest } from './types';
import { imageDataUrl, jsonHeaders, joinedText, parseReplyBody } from './wireHelpers';

const PROTOCOL = 'chat-completions';

/** The assistant message of thinking-model gateways (Kimi, DeepSeek, GLM): the SDK type lacks reasoning_content. */
type ThinkingAssistantMessage = ChatCompletionAssistantMessageParam & { reasoning_content?: string };

/**
 * Maps one LlmMessage to Chat Completions messages (tool results become role "tool" messages).
 * Reasoning goes back only on tool-call turns of providers that require it ("" when the turn
 * had none, as DeepSeek rejects a missing field). Sent with fetch, typed with the openai SDK's
 * request types (checked at compile time).
 */
function toChatMessages(message: LlmMessage, quirks: ProviderQuirks | undefined): ChatCompletionMessageParam[] {
  if (message.role === 'assistant') {
    const toolCalls = message.content.flatMap((p) =>
      p.type === 'tool_call' ? [{ id: p.id, type: 'function' as const, function: { name: p.name, arguments: p.arguments } }] : [],
    );
    const text = joinedText(message.content);
    const echo = quirks?.echoReasoningOnToolCalls === true && toolCalls.length > 0;
    const reasoning = message.content.flatMap((p) => (p.type === 'reasoning' ? [p.text] : [])).join('');
    const assistant: ThinkingAssistantMessage = {
      role: 'assistant',
      content: text === '' && toolCalls.length > 0 ? null : text,
      ...(echo ? { reasoning_content: reasoning } : {}),
      ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
    };
    return [assistant];
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
    ...request.messages.flatMap((m) => toChatMessages(m, provider.quirks)),
  ];
  const { offered, toolChoice } = toolsAndChoice(request, provider.quirks);
  const tools = offered.map((t) => ({ type: 'function' as const, function: { name: t.name, description: t.description, parameters: t.parameters, ...(t.strict ? { strict: true } : {}) } }));
  const body = {
    model: provider.model,
    messages,
    ...(tools.length > 0 ? { tools, tool_choice: toolChoice } : {}),
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

/**
 * The tools sent and the tool_choice that asks for the caller's choice. A forced call of a named
 * tool goes out as a named tool_choice, or — for providers that accept only "required" or only
 * "auto" — as that tool alone with the choice they accept.
 */
function toolsAndChoice(request: LlmRequest, quirks: ProviderQuirks | undefined): { offered: NonNullable<LlmRequest['tools']>; toolChoice: ChatCompletionCreateParams['tool_choice'] } {
  const all = request.tools ?? [];
  const choice = request.toolChoice;
  if (choice === undefined || choice === 'auto') return { offered: all, toolChoice: 'auto' };
  const mode = quirks?.forcedToolChoice ?? 'named';
  if (mode === 'named') return { offered: all, toolChoice: { type: 'function', function: { name: choice.name } } };
  return { offered: all.filter((t) => t.name === choice.name), toolChoice: mode };
}

const replySchema = z.object({
  choices: z
    .array(
      z.object({
        finish_reason: z.string().nullish(),
        message: z.object({
          content: z.string().nullish(),
          // Thinking models: Kimi, DeepSeek, GLM and Qwen use reasoning_content, Ollama `reasoning`.
          reasoning_content: z.string().nullish(),
          reasoning: z.string().nullish(),
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
  const reasoning = choice.message.reasoning_content ?? choice.message.reasoning;
  return {
    text: choice.message.content ?? '',
    toolCalls: (choice.message.tool_calls ?? []).map((c) => ({ id: c.id, name: c.function.name, rawArguments: c.function.arguments })),
    stopReason: chatStopReason(choice.finish_reason),
    ...(reasoning ? { reasoning } : {}),
    ...chatUsageTokens(reply.usage),
  };
}

/** Chat Completions (OpenAI-compatible gateways: Qwen, Kimi, DeepSeek, Zhipu, Ollama, vLLM...). */
export const chatCompletionsAdapter: ProtocolAdapter = { buildRequest, parseBody, parseStream: accumulateChatStream };
