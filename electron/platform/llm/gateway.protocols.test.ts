import { afterEach, describe, expect, it } from 'vitest';
import { createFakeClock, startScriptedProvider, type ScriptedProvider, type ScriptStep } from '../../testSupport/scriptedProvider';
import { createLlmGateway } from './gateway';
import type { LlmMessage, LlmProtocol, LlmToolDefinition } from './types';

const KEY = 'sk-test-canary-0123456789abcdef';
const IMAGE = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 1, 2, 250, 251, 252]);
const IMAGE_BASE64 = Buffer.from(IMAGE).toString('base64');
const MEASURE: LlmToolDefinition = {
  name: 'measure',
  description: 'Measures a distance',
  parameters: { type: 'object', properties: { from: { type: 'string' } }, required: ['from'] },
};

type Body = Record<string, any>;

/** Per-protocol view of the captured request: where each concept lives on the wire. */
interface WireExpectations {
  protocol: LlmProtocol;
  path: string;
  authHeader: 'bearer' | 'x-api-key';
  imageOf(body: Body): unknown;
  expectedImage: unknown;
  /** Asserts how the assistant tool call and the user's tool result were replayed. */
  expectToolLoop(body: Body): void;
  forcedChoice: unknown;
  /** What an unparsable arguments string becomes (Anthropic's input is JSON by construction). */
  badArgumentsCode: string;
}

const cases: WireExpectations[] = [
  {
    protocol: 'openai-responses',
    path: '/v1/responses',
    authHeader: 'bearer',
    imageOf: (body) => body['input'][0].content.find((p: Body) => p['type'] === 'input_image')?.image_url,
    expectedImage: `data:image/png;base64,${IMAGE_BASE64}`,
    expectToolLoop(body) {
      expect(body['input']).toEqual([
        { role: 'user', content: [{ type: 'input_text', text: 'How far?' }] },
        { role: 'assistant', content: 'Let me measure.' },
        { type: 'function_call', call_id: 'call_7', name: 'measure', arguments: '{"from":"A"}' },
        { type: 'function_call_output', call_id: 'call_7', output: '42 mm' },
      ]);
    },
    forcedChoice: { type: 'function', name: 'measure' },
    badArgumentsCode: 'LLM_BAD_TOOL_ARGUMENTS',
  },
  {
    protocol: 'chat-completions',
    path: '/v1/chat/completions',
    authHeader: 'bearer',
    imageOf: (body) => body['messages'].at(-1).content.find((p: Body) => p['type'] === 'image_url')?.image_url.url,
    expectedImage: `data:image/png;base64,${IMAGE_BASE64}`,
    expectToolLoop(body) {
      expect(body['messages']).toEqual([
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: [{ type: 'text', text: 'How far?' }] },
        { role: 'assistant', content: 'Let me measure.', tool_calls: [{ id: 'call_7', type: 'function', function: { name: 'measure', arguments: '{"from":"A"}' } }] },
        { role: 'tool', tool_call_id: 'call_7', content: '42 mm' },
      ]);
    },
    forcedChoice: { type: 'function', function: { name: 'measure' } },
    badArgumentsCode: 'LLM_BAD_TOOL_ARGUMENTS',
  },
  {
    protocol: 'anthropic-messages',
    path: '/v1/messages',
    authHeader: 'x-api-key',
    imageOf: (body) => body['messages'][0].content.find((p: Body) => p['type'] === 'image')?.source,
    expectedImage: { type: 'base64', media_type: 'image/png', data: IMAGE_BASE64 },
    expectToolLoop(body) {
      // The stable prefix (system) and the conversation's last block are cache breakpoints.
      expect(body['system']).toEqual([{ type: 'text', text: 'Be brief.', cache_control: { type: 'ephemeral' } }]);
      expect(body['messages']).toEqual([
        { role: 'user', content: [{ type: 'text', text: 'How far?' }] },
        { role: 'assistant', content: [{ type: 'text', text: 'Let me measure.' }, { type: 'tool_use', id: 'call_7', name: 'measure', input: { from: 'A' } }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'call_7', content: '42 mm', cache_control: { type: 'ephemeral' } }] },
      ]);
    },
    forcedChoice: { type: 'tool', name: 'measure', disable_parallel_tool_use: true },
    badArgumentsCode: 'LLM_BAD_RESPONSE',
  },
];

let server: ScriptedProvider | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function setup(protocol: LlmProtocol, script: ScriptStep[]) {
  server = await startScriptedProvider({ script, apiKey: KEY });
  const gateway = createLlmGateway({
    provider: { id: 'p1', protocol, baseUrl: server.apiBaseUrl, model: 'm-1', getApiKey: () => KEY },
    retry: { baseDelayMs: 10, maxDelayMs: 100, totalBudgetMs: 1000 },
    clock: createFakeClock(),
  });
  return { gateway, server };
}

const userText = (text: string): LlmMessage => ({ role: 'user', content: [{ type: 'text', text }] });

describe.each(cases)('the gateway over $protocol', (wire) => {
  it('returns plain text with provider tokens, request bytes and no retries', async () => {
    const { gateway, server } = await setup(wire.protocol, [{ text: 'Hello 你好', usage: { promptTokens: 11, completionTokens: 3 } }]);
    const response = await gateway.complete({ system: 'Be brief.', messages: [userText('Hi')] });
    expect(response.text).toBe('Hello 你好');
    expect(response.stopReason).toBe('end');
    expect(response.usage).toMatchObject({ providerId: 'p1', model: 'm-1', promptTokens: 11, completionTokens: 3, retries: 0 });
    expect(response.usage.contextBytes).toBe(server.requests[0]!.bodyBytes);
    expect(server.requests[0]).toMatchObject({ method: 'POST', path: wire.path, auth: wire.authHeader, authMatched: true });
    expect(JSON.stringify(server.requests)).not.toContain(KEY);
  });

  it('sends image bytes in the user message in the protocol format', async () => {
    const { gateway, server } = await setup(wire.protocol, [{ text: 'A PNG.' }]);
    await gateway.complete({ messages: [{ role: 'user', content: [{ type: 'text', text: 'What is this?' }, { type: 'image', mimeType: 'image/png', data: IMAGE }] }] });
    expect(wire.imageOf(server.requests[0]!.body as Body)).toEqual(wire.expectedImage);
  });

  it('returns a tool call and replays the tool loop in the protocol format', async () => {
    const { gateway, server } = await setup(wire.protocol, [{ toolCall: { id: 'call_7', name: 'measure', arguments: '{"from":"A"}' }, text: 'Let me measure.' }, { text: 'It is 42 mm.' }]);
    const first = await gateway.complete({ system: 'Be brief.', messages: [userText('How far?')], tools: [MEASURE] });
    expect(first.stopReason).toBe('tool_call');
    expect(first.toolCalls).toEqual([{ id: 'call_7', name: 'measure', rawArguments: '{"from":"A"}', parsed: { from: 'A' } }]);
    const history: LlmMessage[] = [
      userText('How far?'),
      { role: 'assistant', content: [{ type: 'text', text: first.text }, ...first.toolCalls.map((c) => ({ type: 'tool_call' as const, id: c.id, name: c.name, arguments: c.rawArguments }))] },
      { role: 'user', content: [{ type: 'tool_result', toolCallId: 'call_7', content: '42 mm' }] },
    ];
    const second = await gateway.complete({ system: 'Be brief.', messages: history, tools: [MEASURE] });
    expect(second.text).toBe('It is 42 mm.');
    wire.expectToolLoop(server.requests[1]!.body as Body);
  });

  it('forces one tool call and keeps its arguments byte-for-byte', async () => {
    const raw = '{ "zeta" :1,\n\t"alpha":  [ 2 ,3.50 ], "10": "x" }';
    const { gateway, server } = await setup(wire.protocol, [{ toolCall: { name: 'measure', arguments: raw } }]);
    const result = await gateway.callTool({ messages: [userText('Measure A')], tool: MEASURE });
    expect(result.rawArguments).toBe(raw);
    expect(result.value).toEqual({ zeta: 1, alpha: [2, 3.5], 10: 'x' });
    expect((server.requests[0]!.body as Body)['tool_choice']).toEqual(wire.forcedChoice);
  });

  it('refuses a reply without the forced tool call instead of reading JSON from its text', async () => {
    const { gateway } = await setup(wire.protocol, [{ text: '{"from":"A"}' }]);
    await expect(gateway.callTool({ messages: [userText('Measure A')], tool: MEASURE })).rejects.toMatchObject({ code: 'LLM_NO_TOOL_CALL', retryable: false });
  });

  it('reports tool arguments that are not JSON without repairing them', async () => {
    const raw = '{"from": "A",}';
    const { gateway } = await setup(wire.protocol, [{ toolCall: { name: 'measure', arguments: raw } }]);
    const error = await gateway.callTool({ messages: [userText('Measure A')], tool: MEASURE }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: wire.badArgumentsCode });
    if (wire.badArgumentsCode === 'LLM_BAD_TOOL_ARGUMENTS') expect(error).toMatchObject({ data: { rawArguments: raw, truncated: false } });
  });
});
