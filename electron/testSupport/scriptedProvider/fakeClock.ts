/**
 * A manual clock for gateway tests: `sleep` advances time instantly and records each wait, so
 * backoff and Retry-After behaviour is asserted exactly without real waiting. Matches the
 * gateway's LlmClock shape structurally (test support does not import product code).
 */
export interface FakeClock {
  now(): number;
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  /** Every wait requested, in order. */
  sleeps: number[];
  advance(ms: number): void;
}

export function createFakeClock(start = Date.parse('2026-01-01T00:00:00Z')): FakeClock {
  let time = start;
  const sleeps: number[] = [];
  return {
    now: () => time,
    sleep(ms, signal) {
      sleeps.push(ms);
      if (signal?.aborted) return Promise.reject(new Error('aborted'));
      time += ms;
      return Promise.resolve();
    },
    sleeps,
    advance(ms) {
      time += ms;
    },
  };
}
