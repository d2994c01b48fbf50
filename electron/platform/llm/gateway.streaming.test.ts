import { afterEach, describe, expect, it } from 'vitest';
import { createFakeClock, startScriptedProvider, type ScriptedProvider, type ScriptStep } from '../../testSupport/scriptedProvider';
import { createLlmGateway } from './gateway';
import type { LlmMessage, LlmProtocol } from './types';

const messages: LlmMessage[] = [{ role: 'user', content: [{ type: 'text', text: 'Describe the part' }] }];
const tool = { name: 'part', description: 'A part', parameters: { type: 'object' } };
let server: ScriptedProvider | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

const cases: Array<{ protocol: LlmProtocol; streamRequest: Record<string, unknown>; forcedChoice: unknown }> = [
  { protocol: 'chat-completions', streamRequest: { stream: true, stream_options: { include_usage: true } }, forcedChoice: { type: 'function', function: { name: 'part' } } },
  { protocol: 'anthropic-messages', streamRequest: { stream: true }, forcedChoice: { type: 'tool', name: 'part', disable_parallel_tool_use: true } },
];

describe.each(cases)('$protocol with forced streaming', ({ protocol, streamRequest, forcedChoice }) => {
  async function streamingGateway(script: ScriptStep[]) {
    server = await startScriptedProvider({ script });
    const gateway = createLlmGateway({
      provider: { id: 'gw', protocol, baseUrl: server.apiBaseUrl, model: 'm', getApiKey: () => 'k-stream', forceStreaming: true },
      retry: { baseDelayMs: 10, maxDelayMs: 100, totalBudgetMs: 1000 },
      clock: createFakeClock(),
    });
    return { gateway, server };
  }

  it('asks for a stream and reassembles the streamed text with its usage', async () => {
    const { gateway, server } = await streamingGateway([{ text: 'A flange, OD 120 — 四孔', chunkSize: 2, usage: { promptTokens: 9, completionTokens: 4 } }]);
    const response = await gateway.complete({ messages });
    expect(response).toMatchObject({ text: 'A flange, OD 120 — 四孔', stopReason: 'end', usage: { promptTokens: 9, completionTokens: 4 } });
    expect(server.requests[0]!.body).toMatchObject(streamRequest);
    expect(server.requests[0]!.headers['accept']).toBe('text/event-stream');
  });

  it('accumulates streamed tool-call argument deltas into the exact raw string', async () => {
    const raw = '{"od": 120 ,\n "holes":[{"d":10},{"d":10}] , "note":"Ø10 \\"thru\\""}';
    const { gateway, server } = await streamingGateway([{ toolCall: { name: 'part', arguments: raw }, chunkSize: 3 }]);
    const result = await gateway.callTool({ messages, tool });
    expect(result.rawArguments).toBe(raw);
    expect(result.value).toEqual({ od: 120, holes: [{ d: 10 }, { d: 10 }], note: 'Ø10 "thru"' });
    expect((server.requests[0]!.body as Record<string, unknown>)['tool_choice']).toEqual(forcedChoice);
  });

  it('retries a stream that is cut off mid-reply and returns the complete second reply', async () => {
    const { gateway, server } = await streamingGateway([{ text: 'first attempt', chunkSize: 2, cutAfterEvents: 4 }, { text: 'complete reply', chunkSize: 2 }]);
    const response = await gateway.complete({ messages });
    expect(response).toMatchObject({ text: 'complete reply', usage: { retries: 1 } });
    expect(server.requests).toHaveLength(2);
  });

  it('reports streamed arguments that are not JSON as LLM_BAD_TOOL_ARGUMENTS with the raw text', async () => {
    const { gateway } = await streamingGateway([{ toolCall: { name: 'part', arguments: '{"od": 120' }, chunkSize: 4 }]);
    await expect(gateway.callTool({ messages, tool })).rejects.toMatchObject({ code: 'LLM_BAD_TOOL_ARGUMENTS', data: { rawArguments: '{"od": 120' } });
  });
});
