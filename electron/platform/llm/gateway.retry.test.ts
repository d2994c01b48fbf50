import { afterEach, describe, expect, it } from 'vitest';
import { createFakeClock, startScriptedProvider, type Script, type ScriptedProvider } from '../../testSupport/scriptedProvider';
import type { Logger } from '../log/types';
import { createLlmGateway, systemClock, type LlmClock } from './gateway';
import { createRetryBudget, type RetryOptions } from './retryPolicy';
import type { LlmMessage, LlmProviderConfig } from './types';

const KEY = 'sk-canary-retry-5f1e2d3c4b5a69788796a5b4';
const messages: LlmMessage[] = [{ role: 'user', content: [{ type: 'text', text: 'ping' }] }];
const servers: ScriptedProvider[] = [];

afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function serve(script: Script, apiKey?: string): Promise<ScriptedProvider> {
  const server = await startScriptedProvider({ script, ...(apiKey ? { apiKey } : {}) });
  servers.push(server);
  return server;
}

function provider(server: ScriptedProvider, id = 'primary', extra: Partial<LlmProviderConfig> = {}): LlmProviderConfig {
  return { id, protocol: 'chat-completions', baseUrl: server.apiBaseUrl, model: 'm', getApiKey: () => KEY, ...extra };
}

function collectingLogger(lines: string[]): Logger {
  const write = (level: string) => (message: string, fields?: Record<string, unknown>) => void lines.push(JSON.stringify({ level, message, ...fields }));
  const logger: Logger = { debug: write('debug'), info: write('info'), warn: write('warn'), error: write('error'), child: () => logger };
  return logger;
}

function gatewayFor(p: LlmProviderConfig, options: { retry?: Partial<RetryOptions>; clock?: LlmClock; fallback?: LlmProviderConfig; random?: () => number; log?: Logger } = {}) {
  return createLlmGateway({
    provider: p,
    ...(options.fallback ? { fallback: options.fallback } : {}),
    retry: { maxAttempts: 3, baseDelayMs: 100, maxDelayMs: 1000, totalBudgetMs: 10_000, ...options.retry },
    clock: options.clock ?? createFakeClock(),
    random: options.random ?? (() => 0.5),
    ...(options.log ? { log: options.log } : {}),
  });
}

const alwaysFailing = (status: number): Script => () => ({ error: { status } });

describe('gateway retries', () => {
  it('waits the Retry-After seconds of a 429 and then succeeds', async () => {
    const server = await serve([{ error: { status: 429, retryAfter: 2 } }, { text: 'ok' }]);
    const clock = createFakeClock();
    const response = await gatewayFor(provider(server), { clock }).complete({ messages });
    expect(response.text).toBe('ok');
    expect(response.usage.retries).toBe(1);
    expect(clock.sleeps).toEqual([2000]);
    expect(server.requests).toHaveLength(2);
  });

  it('honours a Retry-After given as an HTTP date', async () => {
    const clock = createFakeClock();
    const server = await serve([{ error: { status: 429, retryAfter: new Date(clock.now() + 3000).toUTCString() } }, { text: 'ok' }]);
    await gatewayFor(provider(server), { clock }).complete({ messages });
    expect(clock.sleeps).toEqual([3000]);
  });

  it('retries a 503 with jittered exponential backoff and then succeeds', async () => {
    const server = await serve([{ error: { status: 503 } }, { error: { status: 502 } }, { text: 'ok' }]);
    const clock = createFakeClock();
    const response = await gatewayFor(provider(server), { clock, random: () => 0.5 }).complete({ messages });
    expect(response.usage.retries).toBe(2);
    expect(clock.sleeps).toEqual([50, 100]);
  });

  it('retries a dropped connection and a timed-out attempt', async () => {
    const server = await serve([{ dropConnection: true }, { delayMs: 2000, text: 'too late' }, { text: 'ok' }]);
    const response = await gatewayFor(provider(server, 'primary', { timeoutMs: 200 })).complete({ messages });
    expect(response.text).toBe('ok');
    expect(response.usage.retries).toBe(2);
  });

  it('stops after maxAttempts and reports LLM_TRANSPORT_UNAVAILABLE with attempts and last status', async () => {
    const server = await serve(alwaysFailing(500));
    const error = await gatewayFor(provider(server)).complete({ messages }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'LLM_TRANSPORT_UNAVAILABLE', retryable: true, data: { attempts: 3, lastStatus: 500, providers: ['primary'] } });
    expect(server.requests).toHaveLength(3);
  });

  it('stops when the next wait does not fit in the time budget', async () => {
    const server = await serve(alwaysFailing(503));
    const clock = createFakeClock();
    const gateway = gatewayFor(provider(server), { clock, random: () => 0.99, retry: { maxAttempts: 10, baseDelayMs: 400, maxDelayMs: 400, totalBudgetMs: 1000 } });
    await expect(gateway.complete({ messages })).rejects.toMatchObject({ code: 'LLM_TRANSPORT_UNAVAILABLE', data: { attempts: 3 } });
    expect(clock.sleeps).toEqual([396, 396]);
  });

  it('does not wait at all when Retry-After exceeds the budget', async () => {
    const server = await serve([{ error: { status: 429, retryAfter: 60 } }, { text: 'never reached' }]);
    const clock = createFakeClock();
    await expect(gatewayFor(provider(server), { clock }).complete({ messages })).rejects.toMatchObject({ code: 'LLM_TRANSPORT_UNAVAILABLE', data: { attempts: 1, lastStatus: 429 } });
    expect(clock.sleeps).toEqual([]);
  });

  it('shares one retry budget across the calls of a run', async () => {
    const server = await serve(alwaysFailing(503));
    const clock = createFakeClock();
    const gateway = gatewayFor(provider(server), { clock, random: () => 0.99, retry: { maxAttempts: 10, baseDelayMs: 400, maxDelayMs: 400 } });
    const retryBudget = createRetryBudget(1000, clock.now);
    await expect(gateway.complete({ messages, retryBudget })).rejects.toMatchObject({ data: { attempts: 3 } });
    await expect(gateway.complete({ messages, retryBudget })).rejects.toMatchObject({ data: { attempts: 1 } });
    expect(server.requests).toHaveLength(4);
  });

  it('fails over once to the fallback provider after the primary is exhausted', async () => {
    const primary = await serve(alwaysFailing(503));
    const fallback = await serve([{ text: 'from fallback' }]);
    const response = await gatewayFor(provider(primary), { fallback: provider(fallback, 'secondary') }).complete({ messages });
    expect(response.text).toBe('from fallback');
    expect(response.usage).toMatchObject({ providerId: 'secondary', retries: 3 });
    expect(primary.requests).toHaveLength(3);
  });

  it('reports both providers when the fallback is exhausted too', async () => {
    const primary = await serve(alwaysFailing(503));
    const fallback = await serve(alwaysFailing(429));
    const error = await gatewayFor(provider(primary), { fallback: provider(fallback, 'secondary') }).complete({ messages }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'LLM_TRANSPORT_UNAVAILABLE', data: { attempts: 6, lastStatus: 429, providers: ['primary', 'secondary'] } });
  });
});

describe('gateway failures that are not retried', () => {
  it('maps 401 to LLM_AUTH at once, without retry, failover or the key in any output', async () => {
    const server = await serve([{ text: 'unreachable' }], 'the-right-key');
    const fallback = await serve([{ text: 'unreachable' }]);
    const lines: string[] = [];
    const error = await gatewayFor(provider(server), { fallback: provider(fallback, 'secondary'), log: collectingLogger(lines) }).complete({ messages }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'LLM_AUTH', retryable: false, data: { status: 401 } });
    expect(server.requests).toHaveLength(1);
    expect(fallback.requests).toHaveLength(0);
    expect(JSON.stringify([error, (error as Error).message, lines])).not.toContain(KEY);
  });

  it.each([
    [403, undefined, 'LLM_AUTH'],
    [404, undefined, 'LLM_NOT_FOUND'],
    [422, undefined, 'LLM_BAD_REQUEST'],
    [413, undefined, 'LLM_CONTEXT_TOO_LARGE'],
    [400, { error: { message: "This model's maximum context length is 8192 tokens." } }, 'LLM_CONTEXT_TOO_LARGE'],
  ])('maps HTTP %i to its LLM code immediately', async (status, body, code) => {
    const server = await serve([{ error: { status, ...(body ? { body } : {}) } }]);
    await expect(gatewayFor(provider(server)).complete({ messages })).rejects.toMatchObject({ code, retryable: false });
    expect(server.requests).toHaveLength(1);
  });

  it('keeps the provider message of a 400 but strips keys and data URIs from it', async () => {
    const body = { error: { message: `Invalid image data:image/png;base64,iVBORw0KGgoAAAANSUhEUg for key ${KEY} (Bearer ${KEY})` } };
    const server = await serve([{ error: { status: 400, body } }]);
    const error = await gatewayFor(provider(server)).complete({ messages }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'LLM_BAD_REQUEST', data: { status: 400 } });
    expect((error as Error).message).toContain('Invalid image');
    expect(JSON.stringify([(error as Error).message, (error as { data: unknown }).data])).not.toMatch(/sk-canary|iVBORw0/);
  });

  it('turns an abort during the provider call into LLM_ABORTED', async () => {
    const server = await serve([{ delayMs: 5000, text: 'slow' }]);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    await expect(gatewayFor(provider(server)).complete({ messages, signal: controller.signal })).rejects.toMatchObject({ code: 'LLM_ABORTED' });
  });

  it('turns an abort during a backoff wait into LLM_ABORTED without another attempt', async () => {
    const server = await serve([{ error: { status: 429, retryAfter: 30 } }, { text: 'unreachable' }]);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const gateway = gatewayFor(provider(server), { clock: systemClock, retry: { totalBudgetMs: 60_000 } });
    await expect(gateway.complete({ messages, signal: controller.signal })).rejects.toMatchObject({ code: 'LLM_ABORTED' });
    expect(server.requests).toHaveLength(1);
  });

  it('sends nothing when the signal is already aborted', async () => {
    const server = await serve([{ text: 'unreachable' }]);
    await expect(gatewayFor(provider(server)).complete({ messages, signal: AbortSignal.abort() })).rejects.toMatchObject({ code: 'LLM_ABORTED' });
    expect(server.requests).toHaveLength(0);
  });
});
