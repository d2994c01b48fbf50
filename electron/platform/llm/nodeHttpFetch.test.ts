import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createFakeClock, startScriptedProvider, type ScriptedProvider, type ScriptStep } from '../../testSupport/scriptedProvider';
import { createLlmGateway } from './gateway';
import { createNodeHttpFetch, type NodeHttpFetch } from './nodeHttpFetch';
import type { LlmMessage } from './types';

const messages: LlmMessage[] = [{ role: 'user', content: [{ type: 'text', text: 'Describe the part' }] }];
let provider: ScriptedProvider | undefined;
let transport: NodeHttpFetch | undefined;
let raw: Server | undefined;

afterEach(async () => {
  transport?.close();
  await provider?.close();
  await new Promise((resolve) => (raw ? raw.close(resolve) : resolve(undefined)));
  provider = undefined;
  transport = undefined;
  raw = undefined;
});

async function gatewayFor(script: ScriptStep[], extra: { forceStreaming?: boolean; timeoutMs?: number } = {}) {
  provider = await startScriptedProvider({ script });
  transport = createNodeHttpFetch();
  const gateway = createLlmGateway({
    provider: { id: 'chat', protocol: 'chat-completions', baseUrl: provider.apiBaseUrl, model: 'm', getApiKey: () => 'sk-node-http-0123456789', ...extra },
    retry: { maxAttempts: 3, baseDelayMs: 1, maxDelayMs: 5, totalBudgetMs: 5_000 },
    fetch: transport.fetch,
    clock: createFakeClock(),
  });
  return { gateway, provider };
}

describe('the node:http client of the gateway', () => {
  it('carries a model call and its reply, with the headers the gateway set', async () => {
    const { gateway, provider } = await gatewayFor([{ text: 'A flange — 四孔', usage: { promptTokens: 7, completionTokens: 3 } }]);
    const response = await gateway.complete({ messages });
    expect(response).toMatchObject({ text: 'A flange — 四孔', usage: { promptTokens: 7, completionTokens: 3 } });
    expect(provider.requests[0]).toMatchObject({ method: 'POST', path: '/v1/chat/completions', auth: 'bearer', headers: { 'content-type': 'application/json' } });
  });

  it('hands an event stream over as it arrives and retries one cut off mid-reply', async () => {
    const { gateway, provider } = await gatewayFor([{ text: 'first attempt', chunkSize: 2, cutAfterEvents: 3 }, { text: 'streamed reply', chunkSize: 2 }], { forceStreaming: true });
    expect(await gateway.complete({ messages })).toMatchObject({ text: 'streamed reply', usage: { retries: 1 } });
    expect(provider.requests).toHaveLength(2);
  });

  it('retries a dropped connection and a 429, then reports a 401 at once', async () => {
    const { gateway } = await gatewayFor([{ dropConnection: true }, { error: { status: 429, retryAfter: 0 } }, { text: 'third time' }, { error: { status: 401 } }]);
    expect(await gateway.complete({ messages })).toMatchObject({ text: 'third time', usage: { retries: 2 } });
    await expect(gateway.complete({ messages })).rejects.toMatchObject({ code: 'LLM_AUTH' });
  });

  it('stops a call when the caller aborts and when the attempt times out', async () => {
    const { gateway } = await gatewayFor([{ text: 'late', delayMs: 2_000 }, { text: 'late', delayMs: 2_000 }, { text: 'late', delayMs: 2_000 }, { text: 'late', delayMs: 2_000 }], { timeoutMs: 50 });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 20);
    await expect(gateway.complete({ messages, signal: controller.signal })).rejects.toMatchObject({ code: 'LLM_ABORTED' });
    await expect(gateway.complete({ messages })).rejects.toMatchObject({ code: 'LLM_TRANSPORT_UNAVAILABLE', data: { lastReason: 'timeout' } });
  });

  it('keeps one connection alive across calls', async () => {
    let connections = 0;
    raw = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ id: 'c', object: 'chat.completion', model: 'm', choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }] }));
      });
    });
    raw.on('connection', () => connections++);
    await new Promise<void>((resolve) => raw!.listen(0, '127.0.0.1', resolve));
    transport = createNodeHttpFetch();
    const gateway = createLlmGateway({
      provider: { id: 'chat', protocol: 'chat-completions', baseUrl: `http://127.0.0.1:${(raw.address() as AddressInfo).port}/v1`, model: 'm', getApiKey: () => 'k' },
      retry: { maxAttempts: 1, baseDelayMs: 1, maxDelayMs: 1, totalBudgetMs: 5_000 },
      fetch: transport.fetch,
    });
    for (let i = 0; i < 5; i++) expect((await gateway.complete({ messages })).text).toBe('ok');
    expect(connections).toBe(1);
  });

  it('refuses a URL that is not http(s)', async () => {
    transport = createNodeHttpFetch();
    await expect(transport.fetch('ftp://127.0.0.1/x', { method: 'POST', body: '{}' })).rejects.toThrow(/Unsupported protocol/);
  });
});
