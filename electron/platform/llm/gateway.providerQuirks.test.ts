import { afterEach, describe, expect, it } from 'vitest';
import { providerPresets } from '../../../shared/llmPresets';
import { startScriptedProvider, type ChatDialectId, type ScriptedProvider, type ScriptStep } from '../../testSupport/scriptedProvider';
import { assistantTurn } from './assistantTurn';
import { createLlmGateway } from './gateway';
import type { LlmMessage, LlmToolDefinition, ProviderQuirks } from './types';

let provider: ScriptedProvider | undefined;
afterEach(async () => {
  await provider?.close();
  provider = undefined;
});

const measure: LlmToolDefinition = { name: 'measure', description: 'Measures a distance.', parameters: { type: 'object', properties: { from: { type: 'string' } }, required: ['from'] } };
const other: LlmToolDefinition = { name: 'other', description: 'Something else.', parameters: { type: 'object', properties: {} } };
const question: LlmMessage = { role: 'user', content: [{ type: 'text', text: 'How far is A from B?' }] };

/** A gateway on a scripted provider that speaks (and enforces) `dialect`, configured with `quirks`. */
async function gatewayFor(dialect: ChatDialectId, quirks: ProviderQuirks | undefined, script: ScriptStep[], forceStreaming = false) {
  provider = await startScriptedProvider({ script, dialect });
  return createLlmGateway({
    provider: { id: dialect, protocol: 'chat-completions', baseUrl: provider.apiBaseUrl, model: 'scripted-model', getApiKey: () => 'sk-test', ...(quirks ? { quirks } : {}), ...(forceStreaming ? { forceStreaming } : {}) },
    retry: { maxAttempts: 1, baseDelayMs: 1, maxDelayMs: 1, totalBudgetMs: 2_000 },
  });
}

/** Two turns of a tool loop: the model calls `measure` (with reasoning), then answers from the result. */
async function toolLoop(gateway: Awaited<ReturnType<typeof gatewayFor>>) {
  const first = await gateway.complete({ messages: [question], tools: [measure], toolChoice: 'auto' });
  const history: LlmMessage[] = [question, assistantTurn(first, first.toolCalls), { role: 'user', content: [{ type: 'tool_result', toolCallId: first.toolCalls[0]!.id, content: '42 mm' }] }];
  const second = await gateway.complete({ messages: history, tools: [measure] });
  return { first, second, sent: (provider!.requests[1]!.body as { messages: Record<string, unknown>[] }).messages };
}

const thinkingLoop: ScriptStep[] = [
  { toolCall: { name: 'measure', arguments: { from: 'A' } }, reasoning: 'The user wants a distance; measure it.' },
  { text: 'A is 42 mm from B.', reasoning: 'The tool said 42 mm.' },
];

describe('thinking models that need their reasoning back on tool-call turns', () => {
  it.each(['kimi', 'deepseek', 'zhipu'] as const)('%s: the preset sends each tool-call turn its reasoning_content, and the answer never contains reasoning', async (id) => {
    const gateway = await gatewayFor(id, providerPresets[id].quirks, thinkingLoop);
    const { first, second, sent } = await toolLoop(gateway);
    expect(first.reasoning).toBe('The user wants a distance; measure it.');
    expect(first.text).toBe('');
    expect(sent[1]).toMatchObject({ role: 'assistant', reasoning_content: 'The user wants a distance; measure it.', tool_calls: [{ function: { name: 'measure' } }] });
    expect(second.text).toBe('A is 42 mm from B.');
    expect(second.text).not.toContain('42 mm.');
  });

  it.each([
    ['kimi', 'thinking is enabled but reasoning_content is missing in assistant tool call message at index 1'],
    ['deepseek', 'Missing reasoning_content field in the assistant message at message index 1'],
  ] as const)('%s: without the quirk the provider refuses the history with its documented error', async (id, words) => {
    const gateway = await gatewayFor(id, undefined, thinkingLoop);
    await expect(toolLoop(gateway)).rejects.toMatchObject({ code: 'LLM_BAD_REQUEST', message: expect.stringContaining(words) });
  });

  it('deepseek: a tool-call turn that returned no reasoning still sends reasoning_content, empty', async () => {
    const gateway = await gatewayFor('deepseek', providerPresets.deepseek.quirks, [{ toolCall: { name: 'measure', arguments: { from: 'A' } } }, { text: '42 mm' }]);
    const { sent } = await toolLoop(gateway);
    expect(sent[1]).toMatchObject({ role: 'assistant', reasoning_content: '' });
  });

  it('kimi, streamed: reasoning deltas are collected apart from the answer and go back with the call', async () => {
    const gateway = await gatewayFor('kimi', providerPresets.kimi.quirks, thinkingLoop, true);
    const { first, second, sent } = await toolLoop(gateway);
    expect(first.reasoning).toBe('The user wants a distance; measure it.');
    expect(second).toMatchObject({ text: 'A is 42 mm from B.', reasoning: 'The tool said 42 mm.' });
    expect(sent[1]).toMatchObject({ reasoning_content: 'The user wants a distance; measure it.' });
  });

  it.each(['openai', 'ollama'] as const)('%s: reasoning in the history is never sent (the API refuses the field)', async (id) => {
    const gateway = await gatewayFor(id, providerPresets[id].quirks, thinkingLoop);
    const { second, sent } = await toolLoop(gateway);
    expect(second.text).toBe('A is 42 mm from B.');
    expect(sent[1]).not.toHaveProperty('reasoning_content');
  });

  it("ollama: reasoning in Ollama's `reasoning` field is kept apart, never taken as the answer", async () => {
    const gateway = await gatewayFor('ollama', providerPresets.ollama.quirks, [{ text: 'Red.', reasoning: 'The square is filled with #ff0000.' }]);
    const response = await gateway.complete({ messages: [question] });
    expect(response).toMatchObject({ text: 'Red.', reasoning: 'The square is filled with #ff0000.' });
    expect((provider!.requests[0]!.body as Record<string, unknown>)['messages']).toHaveLength(1);
  });
});

describe('providers whose tool_choice cannot name a tool', () => {
  it.each(['kimi', 'zhipu'] as const)('%s: a forced call goes out as the one tool with tool_choice "auto" and is accepted', async (id) => {
    const gateway = await gatewayFor(id, providerPresets[id].quirks, [{ toolCall: { name: 'measure', arguments: { from: 'A' } } }]);
    const result = await gateway.callTool({ messages: [question], tool: measure });
    expect(result.value).toEqual({ from: 'A' });
    const body = provider!.requests[0]!.body as { tool_choice: unknown; tools: { function: { name: string } }[] };
    expect(body.tool_choice).toBe('auto');
    expect(body.tools.map((t) => t.function.name)).toEqual(['measure']);
  });

  it.each(['kimi', 'zhipu'] as const)('%s: a named tool_choice is refused by the provider (so the quirk is needed)', async (id) => {
    const gateway = await gatewayFor(id, undefined, [{ toolCall: { name: 'measure', arguments: { from: 'A' } } }]);
    await expect(gateway.callTool({ messages: [question], tool: measure })).rejects.toMatchObject({ code: 'LLM_BAD_REQUEST', message: expect.stringContaining('tool_choice') });
  });

  it('a provider that takes only "auto" and answers in text gives LLM_NO_TOOL_CALL, never JSON read from the text', async () => {
    const gateway = await gatewayFor('zhipu', providerPresets.zhipu.quirks, [{ text: '{"from":"A"}' }]);
    await expect(gateway.callTool({ messages: [question], tool: measure })).rejects.toMatchObject({ code: 'LLM_NO_TOOL_CALL' });
  });

  it('the "required" mode sends only the named tool with tool_choice "required"; named and auto choices are unchanged', async () => {
    const gateway = await gatewayFor('openai', { forcedToolChoice: 'required', echoReasoningOnToolCalls: false }, [{ toolCall: { name: 'measure', arguments: { from: 'A' } } }, { text: 'ok' }]);
    await gateway.complete({ messages: [question], tools: [other, measure], toolChoice: { name: 'measure' } });
    await gateway.complete({ messages: [question], tools: [other, measure], toolChoice: 'auto' });
    const [forced, free] = provider!.requests.map((r) => r.body as { tool_choice: unknown; tools: { function: { name: string } }[] });
    expect(forced).toMatchObject({ tool_choice: 'required', tools: [{ function: { name: 'measure' } }] });
    expect(free!.tools).toHaveLength(2);
    expect(free!.tool_choice).toBe('auto');
  });

  it('every preset records its forced-choice mode and whether it echoes reasoning', () => {
    const modes = Object.fromEntries(Object.entries(providerPresets).map(([id, p]) => [id, `${p.quirks.forcedToolChoice}/${p.quirks.echoReasoningOnToolCalls}`]));
    expect(modes).toEqual({
      openai: 'named/false', anthropic: 'named/false', qwen: 'named/false', kimi: 'auto/true', deepseek: 'named/true', zhipu: 'auto/true', ollama: 'auto/false', custom: 'named/false',
    });
  });
});
