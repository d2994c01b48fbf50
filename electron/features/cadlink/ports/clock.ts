/** Time source and timers, injected so backoff, timeouts and silence windows are testable. */
export interface Clock {
  /** Milliseconds since an arbitrary origin (monotonic in the system adapter). */
  now(): number;
  /** Runs `callback` after `ms`; returns a function that cancels it (safe to call twice). */
  setTimeout(callback: () => void, ms: number): () => void;
}

/** Uniform random number in [0, 1), injected so jittered backoff is reproducible in tests. */
export type RandomSource = () => number;
