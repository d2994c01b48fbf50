import { AppError } from '../../../../../shared/errors';

/** Reconnect pacing: capped exponential backoff with proportional jitter. */
export interface BackoffOptions {
  /** Delay before the first retry, in ms. */
  baseMs: number;
  /** The delay never exceeds this, however many attempts failed. */
  maxMs: number;
  /** Fraction (0..1) of the delay that is randomised away, so many clients do not reconnect in lockstep. */
  jitter: number;
}

export const DEFAULT_BACKOFF: Readonly<BackoffOptions> = Object.freeze({ baseMs: 250, maxMs: 10_000, jitter: 0.2 });

/**
 * Delay before reconnect attempt `attempt` (0 = first retry after a failure or drop):
 * min(maxMs, baseMs * 2^attempt) scaled into [1 - jitter, 1] by `random` (a [0,1) source).
 */
export function backoffDelayMs(attempt: number, options: BackoffOptions, random: () => number): number {
  const ceiling = Math.min(options.maxMs, options.baseMs * 2 ** Math.min(attempt, 52));
  return Math.round(ceiling * (1 - options.jitter * random()));
}

/** Throws AppError CAD_CONFIG_INVALID when the numbers cannot describe a backoff. */
export function validateBackoff(options: BackoffOptions): BackoffOptions {
  const { baseMs, maxMs, jitter } = options;
  if (!(Number.isFinite(baseMs) && baseMs > 0 && Number.isFinite(maxMs) && maxMs >= baseMs && jitter >= 0 && jitter <= 1)) {
    throw new AppError('CAD_CONFIG_INVALID', 'Reconnect backoff needs 0 < baseMs <= maxMs (finite) and 0 <= jitter <= 1.', { data: { baseMs, maxMs, jitter } });
  }
  return options;
}
