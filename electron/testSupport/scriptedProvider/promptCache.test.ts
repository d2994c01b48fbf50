import { afterEach, describe, expect, it } from 'vitest';
import { assistantTurn } from '../../platform/llm/assistantTurn';
import { createLlmGateway } from '../../platform/llm/gateway';
import type { LlmMessage, LlmProtocol } from '../../platform/llm/types';
import { startScriptedProvider, type ScriptedProvider } from './index';

let provider: ScriptedProvider | undefined;
afterEach(async () => {
  await provider?.close();
  provider = undefined;
});

const system = `You review drawings. ${'Every dimension must be toleranced. '.repeat(200)}`;
const tool = { name: 'get_texts', description: 'Texts of the frame.', parameters: { type: 'object', properties: {} } };

async function loop(protocol: LlmProtocol) {
  provider = await startScriptedProvider({ script: [{ toolCall: { name: 'get_texts', arguments: {} } }, { toolCall: { name: 'get_texts', arguments: {} } }, { text: 'done' }], promptCache: true });
  const gateway = createLlmGateway({
    provider: { id: 'p', protocol, baseUrl: provider.apiBaseUrl, model: 'm', getApiKey: () => 'k' },
    retry: { maxAttempts: 1, baseDelayMs: 1, maxDelayMs: 1, totalBudgetMs: 2_000 },
  });
  const messages: LlmMessage[] = [{ role: 'user', content: [{ type: 'text', text: 'Review frame F1.' }] }];
  const usages = [];
  for (let turn = 0; turn < 3; turn++) {
    const reply = await gateway.complete({ system, messages, tools: [tool] });
    usages.push(reply.usage);
    if (reply.toolCalls.length === 0) break;
    messages.push(assistantTurn(reply, reply.toolCalls), { role: 'user', content: [{ type: 'tool_result', toolCallId: reply.toolCalls[0]!.id, content: `texts ${turn}` }] });
  }
  return usages;
}

describe('the simulated prompt cache', () => {
  it.each(['chat-completions', 'openai-responses', 'anthropic-messages'] as const)('%s: a tool loop reads its growing prefix from the cache from the second call on', async (protocol) => {
    const [first, second, third] = await loop(protocol);
    expect(first!.cachedPromptTokens ?? 0).toBe(0);
    for (const later of [second!, third!]) {
      expect(later.cachedPromptTokens).toBeGreaterThan(1024);
      expect(later.cachedPromptTokens).toBeLessThan(later.promptTokens!);
    }
    // The third call also reads what the second call added.
    expect(third!.cachedPromptTokens).toBeGreaterThan(second!.cachedPromptTokens!);
  });

  it('anthropic: the first call writes the prefix up to its breakpoints and reads nothing', async () => {
    const [first] = await loop('anthropic-messages');
    expect(first).toMatchObject({ cachedPromptTokens: 0 });
    expect(first!.cacheWritePromptTokens).toBeGreaterThan(1024);
  });

  it('serves nothing for prefixes under the minimum, and nothing without the option', async () => {
    provider = await startScriptedProvider({ script: [{ text: 'a' }, { text: 'b' }], promptCache: true });
    const gateway = createLlmGateway({ provider: { id: 'p', protocol: 'chat-completions', baseUrl: provider.apiBaseUrl, model: 'm', getApiKey: () => 'k' }, retry: { maxAttempts: 1, baseDelayMs: 1, maxDelayMs: 1, totalBudgetMs: 2_000 } });
    const request = { system: 'short', messages: [{ role: 'user' as const, content: [{ type: 'text' as const, text: 'hi' }] }] };
    await gateway.complete(request);
    expect((await gateway.complete(request)).usage.cachedPromptTokens).toBe(0);
  });
});
