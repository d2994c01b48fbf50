import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { startScriptedProvider, type ScriptedProvider, type ScriptStep } from '../../testSupport/scriptedProvider';
import { createLlmGateway } from './gateway';
import { withoutReasoning } from './reasoning';
import type { LlmProtocol } from './types';

let provider: ScriptedProvider | undefined;
afterEach(async () => {
  await provider?.close();
  provider = undefined;
});

async function gatewayFor(protocol: LlmProtocol, steps: ScriptStep[]) {
  provider = await startScriptedProvider({ script: steps });
  return createLlmGateway({
    provider: { id: 'p', protocol, baseUrl: provider.apiBaseUrl, model: 'scripted-model', getApiKey: () => 'sk-test-0123456789' },
    retry: { maxAttempts: 1, baseDelayMs: 1, maxDelayMs: 1, totalBudgetMs: 2_000 },
  });
}

const protocols: LlmProtocol[] = ['openai-responses', 'chat-completions', 'anthropic-messages'];

describe('answers only, with cached tokens counted', () => {
  it.each(protocols)('%s: drops provider reasoning fields and <think> blocks from the answer', async (protocol) => {
    const gateway = await gatewayFor(protocol, [{ text: '<think>The user wants the bore.\nCheck the title block.</think>\n\nThe bore is Ø40 H7.', reasoning: 'hidden chain of thought' }]);
    const response = await gateway.complete({ messages: [{ role: 'user', content: [{ type: 'text', text: 'Bore?' }] }] });
    expect(response.text).toBe('The bore is Ø40 H7.');
    expect(response.text).not.toContain('hidden chain');
  });

  it.each([
    ['openai-responses', undefined],
    ['chat-completions', 'openai'],
    ['chat-completions', 'deepseek'],
    ['anthropic-messages', undefined],
  ] as const)('%s (%s): reports the prompt tokens served from the cache as part of the prompt', async (protocol, cacheField) => {
    const gateway = await gatewayFor(protocol, [{ text: 'ok', usage: { promptTokens: 1000, cachedPromptTokens: 900, ...(cacheField ? { cacheField } : {}) } }]);
    const response = await gateway.complete({ messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }] });
    expect(response.usage).toMatchObject({ promptTokens: 1000, cachedPromptTokens: 900 });
  });

  it('marks cache breakpoints as Anthropic cache_control and sends nothing extra to other protocols', async () => {
    const messages = [{ role: 'user' as const, content: [{ type: 'image' as const, mimeType: 'image/png', data: Uint8Array.from([0x89, 0x50]), cacheBreakpoint: true }, { type: 'text' as const, text: 'What?' }] }];
    const anthropic = await gatewayFor('anthropic-messages', [{ text: 'ok' }]);
    await anthropic.complete({ messages });
    const blocks = (provider!.requests[0]!.body as { messages: Array<{ content: Array<Record<string, unknown>> }> }).messages[0]!.content;
    expect(blocks[0]).toMatchObject({ type: 'image', cache_control: { type: 'ephemeral' } });
    expect(blocks[1]).not.toHaveProperty('cache_control');
    await provider!.close();
    const chat = await gatewayFor('chat-completions', [{ text: 'ok' }]);
    await chat.complete({ messages });
    expect(JSON.stringify(provider!.requests[0]!.body)).not.toContain('cache');
  });

  it('keeps any answer without reasoning tags as it is, and removes a reasoning block wherever it sits', () => {
    const plain = fc.string().filter((s) => !/<\/?(think|thinking|reasoning)>/i.test(s));
    fc.assert(
      fc.property(plain, plain, plain, fc.constantFrom('think', 'thinking', 'reasoning'), (before, reasoning, after, tag) => {
        expect(withoutReasoning(before)).toBe(before);
        const cleaned = withoutReasoning(`${before}<${tag}>${reasoning}</${tag}>${after}`);
        expect(cleaned).toBe(`${before}${after}`.replace(/\n{3,}/g, '\n\n').trim());
      }),
    );
  });

  it('drops what precedes an orphan closing tag and an unclosed block at the end', () => {
    expect(withoutReasoning('thinking out loud…</think>\nAnswer: 42')).toBe('Answer: 42');
    expect(withoutReasoning('Answer: 42\n<think>cut off mid-thought')).toBe('Answer: 42');
  });
});
