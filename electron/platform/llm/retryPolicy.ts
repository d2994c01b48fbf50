import type { RetryBudget } from './types';

/** Retry settings of a gateway. All durations are milliseconds. */
export interface RetryOptions {
  /** Attempts per provider including the first one (default 3). */
  maxAttempts?: number;
  /** Backoff cap of the first retry; doubles on each further retry. */
  baseDelayMs: number;
  /** Upper bound of one exponential backoff wait. */
  maxDelayMs: number;
  /** Total time a run may spend on retries (waits included). */
  totalBudgetMs: number;
}

export const DEFAULT_MAX_ATTEMPTS = 3;

/**
 * A budget that expires `totalMs` after creation, measured with the injected clock so tests
 * and the gateway agree on time.
 */
export function createRetryBudget(totalMs: number, now: () => number): RetryBudget {
  const deadline = now() + Math.max(0, totalMs);
  return { remainingMs: () => Math.max(0, deadline - now()) };
}

/** Inputs of one retry decision, after `attempt` attempts have failed retryably. */
export interface RetryDecisionInput {
  /** Number of attempts already made (>= 1). */
  attempt: number;
  maxAttempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /** Server-requested wait from Retry-After, if any. */
  retryAfterMs?: number;
  remainingBudgetMs: number;
  /** Uniform random number in [0, 1). */
  random: () => number;
}

/**
 * Exponential backoff with full jitter: a uniform wait in [0, min(maxDelay, base * 2^(n-1))],
 * raised to the server's Retry-After when it asks for longer. Returns null when no retry may
 * happen: attempts are used up, or the wait does not fit in the remaining budget (waiting
 * less than Retry-After would only earn another 429, so it is not shortened).
 */
export function nextRetryDelay(input: RetryDecisionInput): number | null {
  if (input.attempt >= input.maxAttempts) return null;
  const exponent = Math.min(input.attempt - 1, 30);
  const cap = Math.min(input.maxDelayMs, input.baseDelayMs * 2 ** exponent);
  const jittered = Math.floor(input.random() * Math.max(0, cap));
  const delay = Math.max(jittered, Math.ceil(input.retryAfterMs ?? 0));
  return delay < input.remainingBudgetMs ? delay : null;
}

/**
 * Parses a Retry-After header: delta-seconds or an HTTP date. Returns milliseconds from `nowMs`
 * (0 for dates in the past) or undefined when absent or unparsable.
 */
export function parseRetryAfter(value: string | null | undefined, nowMs: number): number | undefined {
  if (value === null || value === undefined) return undefined;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - nowMs);
}
