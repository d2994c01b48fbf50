import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { LlmContentPart, LlmMessage, LlmProviderConfig } from '../types';
import { anthropicMessagesAdapter } from './anthropicMessages';
import { chatCompletionsAdapter } from './chatCompletions';
import { openaiResponsesAdapter } from './openaiResponses';

const provider: LlmProviderConfig = { id: 'p', protocol: 'chat-completions', baseUrl: 'http://127.0.0.1:1/v1', model: 'm', getApiKey: () => undefined };
const chatReply = (usage: Record<string, unknown>, message: Record<string, unknown> = { content: 'ok' }) =>
  JSON.stringify({ choices: [{ finish_reason: 'stop', message: { role: 'assistant', ...message } }], usage: { prompt_tokens: 1000, completion_tokens: 5, ...usage } });

describe('cached prompt tokens, as each protocol and provider reports them', () => {
  it.each([
    ['OpenAI, Kimi K2, GLM and Qwen: prompt_tokens_details.cached_tokens', { prompt_tokens_details: { cached_tokens: 900 } }, { cachedPromptTokens: 900 }],
    ["DeepSeek: prompt_cache_hit_tokens", { prompt_cache_hit_tokens: 896, prompt_cache_miss_tokens: 104 }, { cachedPromptTokens: 896 }],
    ["Kimi moonshot-v1's context cache: a top-level cached_tokens", { cached_tokens: 700 }, { cachedPromptTokens: 700 }],
    ["Qwen's explicit cache: cache_creation_input_tokens beside cached_tokens", { prompt_tokens_details: { cached_tokens: 0, cache_creation_input_tokens: 1000 } }, { cachedPromptTokens: 0, cacheWritePromptTokens: 1000 }],
    ['a gateway that reports no cache: nothing', {}, {}],
  ])('chat completions, %s', (_name, usage, expected) => {
    const reply = chatCompletionsAdapter.parseBody(chatReply(usage));
    expect({ cachedPromptTokens: reply.cachedPromptTokens, cacheWritePromptTokens: reply.cacheWritePromptTokens }).toEqual({ cachedPromptTokens: undefined, cacheWritePromptTokens: undefined, ...expected });
    expect(reply.promptTokens).toBe(1000);
  });

  it('responses: input_tokens_details.cached_tokens is the cached part of input_tokens', () => {
    const body = JSON.stringify({ status: 'completed', output: [{ type: 'message', content: [{ type: 'output_text', text: 'ok' }] }], usage: { input_tokens: 2000, output_tokens: 3, input_tokens_details: { cached_tokens: 1920 } } });
    expect(openaiResponsesAdapter.parseBody(body)).toMatchObject({ promptTokens: 2000, cachedPromptTokens: 1920 });
  });

  it('anthropic: the prompt is input + cache reads + cache writes, the reads are its cached part', () => {
    fc.assert(
      fc.property(fc.nat(100_000), fc.nat(100_000), fc.nat(100_000), (input, read, written) => {
        const body = JSON.stringify({ content: [{ type: 'text', text: 'ok' }], stop_reason: 'end_turn', usage: { input_tokens: input, cache_read_input_tokens: read, cache_creation_input_tokens: written, output_tokens: 1 } });
        expect(anthropicMessagesAdapter.parseBody(body)).toMatchObject({ promptTokens: input + read + written, cachedPromptTokens: read, cacheWritePromptTokens: written });
      }),
    );
  });
});

describe('reasoning round trip on the wire', () => {
  it('chat completions: reasoning_content (or Ollama reasoning) is parsed apart from the content', () => {
    expect(chatCompletionsAdapter.parseBody(chatReply({}, { content: 'Ø40', reasoning_content: 'bore first' }))).toMatchObject({ text: 'Ø40', reasoning: 'bore first' });
    expect(chatCompletionsAdapter.parseBody(chatReply({}, { content: 'Ø40', reasoning: 'bore first' }))).toMatchObject({ text: 'Ø40', reasoning: 'bore first' });
  });

  it('anthropic: thinking blocks are reasoning, not text, and a reasoning part is never replayed', () => {
    const reply = anthropicMessagesAdapter.parseBody(JSON.stringify({ content: [{ type: 'thinking', thinking: 'hmm', signature: 's' }, { type: 'text', text: 'Ø40' }], stop_reason: 'end_turn', usage: { input_tokens: 1, output_tokens: 1 } }));
    expect(reply).toMatchObject({ text: 'Ø40', reasoning: 'hmm' });
    const wire = anthropicMessagesAdapter.buildRequest(
      { messages: [{ role: 'user', content: [{ type: 'text', text: 'q' }] }, { role: 'assistant', content: [{ type: 'reasoning', text: 'hmm' }, { type: 'text', text: 'a' }] }, { role: 'user', content: [{ type: 'text', text: 'q2' }] }] },
      { ...provider, protocol: 'anthropic-messages' },
      undefined,
    );
    expect(JSON.stringify(wire.body)).not.toContain('hmm');
  });

  it('chat completions: reasoning goes back only on tool-call turns and only when the preset asks for it', () => {
    const history: LlmMessage[] = [
      { role: 'user', content: [{ type: 'text', text: 'q' }] },
      { role: 'assistant', content: [{ type: 'reasoning', text: 'plain turn thought' }, { type: 'text', text: 'a' }] },
      { role: 'assistant', content: [{ type: 'reasoning', text: 'tool turn thought' }, { type: 'tool_call', id: 'c1', name: 't', arguments: '{}' }] },
      { role: 'user', content: [{ type: 'tool_result', toolCallId: 'c1', content: 'r' }] },
    ];
    const sent = (echo: boolean) =>
      (chatCompletionsAdapter.buildRequest({ messages: history }, { ...provider, quirks: { forcedToolChoice: 'named', echoReasoningOnToolCalls: echo } }, undefined).body as { messages: Record<string, unknown>[] }).messages;
    expect(sent(true).map((m) => m['reasoning_content'])).toEqual([undefined, undefined, 'tool turn thought', undefined]);
    expect(JSON.stringify(sent(false))).not.toContain('thought');
  });
});

describe('anthropic cache breakpoints', () => {
  const tools = [{ name: 'a', description: 'A', parameters: { type: 'object' } }, { name: 'b', description: 'B', parameters: { type: 'object' } }];
  const build = (messages: LlmMessage[], system?: string) =>
    anthropicMessagesAdapter.buildRequest({ messages, tools, ...(system ? { system } : {}) }, { ...provider, protocol: 'anthropic-messages' }, undefined).body as {
      tools: Record<string, unknown>[];
      system?: Record<string, unknown>[];
      messages: { content: Record<string, unknown>[] }[];
    };
  const marks = (body: ReturnType<typeof build>): number => JSON.stringify(body).split('"cache_control"').length - 1;

  it('mark the last tool and the system text, and a lone one-shot message not at all', () => {
    const body = build([{ role: 'user', content: [{ type: 'text', text: 'turn view' }] }], 'rules');
    expect(body.tools.map((t) => 'cache_control' in t)).toEqual([false, true]);
    expect(body.system).toEqual([{ type: 'text', text: 'rules', cache_control: { type: 'ephemeral' } }]);
    expect(body.messages[0]!.content[0]).not.toHaveProperty('cache_control');
  });

  it('never exceed four, keep the conversation tail, and keep the latest of the caller marks', () => {
    const part = fc.record({ text: fc.string(), mark: fc.boolean() }).map(({ text, mark }): LlmContentPart => ({ type: 'text', text, ...(mark ? { cacheBreakpoint: true } : {}) }));
    fc.assert(
      fc.property(fc.array(fc.array(part, { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 6 }), fc.boolean(), (contents, withSystem) => {
        const messages = contents.map((content, i): LlmMessage => ({ role: i % 2 === 0 ? 'user' : 'assistant', content }));
        const body = build(messages, withSystem ? 'rules' : undefined);
        expect(marks(body)).toBeLessThanOrEqual(4);
        const last = body.messages.at(-1)!.content.at(-1)!;
        if (messages.length > 1) expect(last).toHaveProperty('cache_control');
      }),
    );
  });
});
