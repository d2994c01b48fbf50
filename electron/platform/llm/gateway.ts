import { AppError } from '../../../shared/errors';
import type { Logger } from '../log/types';
import { callForcedTool } from './forcedToolCall';
import { errorForStatus, isRetryableStatus, readErrorBody } from './httpErrors';
import { abortedError, runHttpAttempt, TransportFailure, type FetchLike } from './httpTransport';
import { anthropicMessagesAdapter } from './protocols/anthropicMessages';
import { chatCompletionsAdapter } from './protocols/chatCompletions';
import { openaiResponsesAdapter } from './protocols/openaiResponses';
import type { ProtocolAdapter, ProviderReply, WireRequest } from './protocols/types';
import { createRetryBudget, DEFAULT_MAX_ATTEMPTS, nextRetryDelay, parseRetryAfter, type RetryOptions } from './retryPolicy';
import { assertValidRequest } from './requestValidation';
import { readSseEvents } from './sse';
import type { LlmGateway, LlmProtocol, LlmProviderConfig, LlmRequest, LlmResponse, LlmToolCall, RetryBudget } from './types';
import { withoutReasoning } from './reasoning';

const DEFAULT_TIMEOUT_MS = 120_000;

const adapters: Readonly<Record<LlmProtocol, ProtocolAdapter>> = {
  'openai-responses': openaiResponsesAdapter,
  'chat-completions': chatCompletionsAdapter,
  'anthropic-messages': anthropicMessagesAdapter,
};

/** Time source of the gateway: latency, Retry-After dates and backoff waits all use it. */
export interface LlmClock {
  now(): number;
  /** Waits `ms`; rejects (with anything) when `signal` aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

/** The real clock: Date.now and a timer that an AbortSignal can cut short. */
export const systemClock: LlmClock = {
  now: () => Date.now(),
  sleep: (ms, signal) =>
    new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      }, ms);
      const onAbort = (): void => {
        clearTimeout(timer);
        reject(abortedError());
      };
      signal?.addEventListener('abort', onAbort, { once: true });
    }),
};

export interface LlmGatewayOptions {
  provider: LlmProviderConfig;
  /** Tried once, with its own attempts, after the primary provider's retries are exhausted. */
  fallback?: LlmProviderConfig;
  retry: RetryOptions;
  fetch?: FetchLike;
  clock?: LlmClock;
  /** Uniform [0, 1) source for backoff jitter. */
  random?: () => number;
  log?: Logger;
}

/** Outcome of the attempts against one provider. */
interface ProviderSuccess {
  provider: LlmProviderConfig;
  reply: ProviderReply;
  contextBytes: number;
  attempts: number;
}

/** Thrown inside the gateway when one provider's retries are spent. */
class ProviderExhausted extends Error {
  constructor(
    readonly attempts: number,
    readonly lastFailure: TransportFailure,
  ) {
    super('retries exhausted');
  }
}

/**
 * Creates the LLM gateway. Retries only 429/408/5xx, network faults, timeouts and cut-off
 * streams, with full-jitter exponential backoff and Retry-After, inside the run's RetryBudget;
 * then fails over once to `fallback`; then throws LLM_TRANSPORT_UNAVAILABLE (retryable, data:
 * attempts, lastStatus, lastReason, providers). Other errors are thrown at once (see types.ts).
 */
export function createLlmGateway(options: LlmGatewayOptions): LlmGateway {
  const fetchFn: FetchLike = options.fetch ?? ((url, init) => fetch(url, init));
  const clock = options.clock ?? systemClock;
  const random = options.random ?? Math.random;
  const maxAttempts = Math.max(1, options.retry.maxAttempts ?? DEFAULT_MAX_ATTEMPTS);

  async function consumeReply(response: Response, wire: WireRequest, adapter: ProtocolAdapter, provider: LlmProviderConfig, apiKey: string | undefined): Promise<ProviderReply> {
    if (!response.ok) {
      const bodyText = await readErrorBody(response);
      if (isRetryableStatus(response.status)) {
        const retryAfterMs = parseRetryAfter(response.headers.get('retry-after'), clock.now());
        throw new TransportFailure('status', `HTTP ${response.status}`, response.status, retryAfterMs);
      }
      throw errorForStatus(response.status, bodyText, provider, apiKey);
    }
    const isSse = (response.headers.get('content-type') ?? '').includes('text/event-stream');
    if (wire.stream && isSse && adapter.parseStream && response.body) return adapter.parseStream(readSseEvents(response.body));
    return adapter.parseBody(await response.text());
  }

  async function attemptProvider(provider: LlmProviderConfig, request: LlmRequest, budget: RetryBudget): Promise<ProviderSuccess> {
    const adapter = adapters[provider.protocol];
    for (let attempt = 1; ; attempt++) {
      const apiKey = provider.getApiKey();
      const wire = adapter.buildRequest(request, provider, apiKey);
      const bodyText = JSON.stringify(wire.body);
      const contextBytes = Buffer.byteLength(bodyText, 'utf8');
      try {
        const reply = await runHttpAttempt(
          {
            fetch: fetchFn,
            url: `${provider.baseUrl.replace(/\/+$/, '')}${wire.path}`,
            headers: wire.headers,
            bodyText,
            timeoutMs: provider.timeoutMs ?? DEFAULT_TIMEOUT_MS,
            ...(request.signal ? { signal: request.signal } : {}),
          },
          (response) => consumeReply(response, wire, adapter, provider, apiKey),
        );
        return { provider, reply, contextBytes, attempts: attempt };
      } catch (error) {
        if (!(error instanceof TransportFailure)) throw error;
        const delay = nextRetryDelay({
          attempt,
          maxAttempts,
          baseDelayMs: options.retry.baseDelayMs,
          maxDelayMs: options.retry.maxDelayMs,
          ...(error.retryAfterMs !== undefined ? { retryAfterMs: error.retryAfterMs } : {}),
          remainingBudgetMs: budget.remainingMs(),
          random,
        });
        options.log?.warn('llm attempt failed', { providerId: provider.id, attempt, reason: error.reason, status: error.status, retryInMs: delay, purpose: request.purpose });
        if (delay === null) throw new ProviderExhausted(attempt, error);
        try {
          await clock.sleep(delay, request.signal);
        } catch {
          throw abortedError();
        }
        if (request.signal?.aborted) throw abortedError();
      }
    }
  }

  async function complete(request: LlmRequest): Promise<LlmResponse> {
    assertValidRequest(request);
    const started = clock.now();
    const budget = request.retryBudget ?? createRetryBudget(options.retry.totalBudgetMs, clock.now);
    const providers = [options.provider, ...(options.fallback ? [options.fallback] : [])];
    let failedAttempts = 0;
    let lastExhausted: ProviderExhausted | undefined;
    for (const provider of providers) {
      try {
        const success = await attemptProvider(provider, request, budget);
        return toResponse(success, failedAttempts, clock.now() - started, request.purpose);
      } catch (error) {
        if (!(error instanceof ProviderExhausted)) throw error;
        failedAttempts += error.attempts;
        lastExhausted = error;
        if (provider !== options.fallback && options.fallback) options.log?.warn('llm failover', { from: provider.id, to: options.fallback.id, purpose: request.purpose });
      }
    }
    const last = lastExhausted!.lastFailure;
    throw new AppError('LLM_TRANSPORT_UNAVAILABLE', `No provider answered after ${failedAttempts} attempt(s) (last: ${last.message}).`, {
      retryable: true,
      data: { attempts: failedAttempts, lastStatus: last.status ?? null, lastReason: last.reason, providers: providers.map((p) => p.id) },
    });
  }

  function toResponse(success: ProviderSuccess, earlierAttempts: number, latencyMs: number, purpose: string | undefined): LlmResponse {
    const { reply, provider } = success;
    const toolCalls: LlmToolCall[] = reply.toolCalls.map((c) => ({ ...c, parsed: parseOrUndefined(c.rawArguments) }));
    const usage = {
      providerId: provider.id,
      model: provider.model,
      ...(reply.promptTokens !== undefined ? { promptTokens: reply.promptTokens } : {}),
      ...(reply.completionTokens !== undefined ? { completionTokens: reply.completionTokens } : {}),
      ...(reply.cachedPromptTokens !== undefined ? { cachedPromptTokens: reply.cachedPromptTokens } : {}),
      ...(reply.cacheWritePromptTokens !== undefined ? { cacheWritePromptTokens: reply.cacheWritePromptTokens } : {}),
      contextBytes: success.contextBytes,
      latencyMs,
      retries: earlierAttempts + success.attempts - 1,
    };
    options.log?.info('llm call', { ...usage, purpose, stopReason: reply.stopReason });
    // Answers only: reasoning a model writes into its text never reaches a caller or a history;
    // reasoning in its own field is kept apart, to go back with this turn's tool calls.
    const reasoning = reply.reasoning ? { reasoning: reply.reasoning } : {};
    return { text: withoutReasoning(reply.text), ...reasoning, toolCalls, stopReason: reply.stopReason, usage };
  }

  return { complete, callTool: (request) => callForcedTool(complete, request) };
}

function parseOrUndefined(raw: string): unknown {
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return undefined;
  }
}
