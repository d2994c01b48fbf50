import type { Clock } from '../../features/cadlink/index';

/** A Clock whose time only moves when the test says so. */
export interface ManualClock extends Clock {
  /** Advances time, firing due timers in order. */
  advance(ms: number): void;
  /** Delays of timers still pending. */
  readonly pendingDelays: number[];
}

export function createManualClock(): ManualClock {
  let now = 0;
  let nextTimer = 0;
  const timers = new Map<number, { at: number; delay: number; callback: () => void }>();
  return {
    now: () => now,
    setTimeout(callback, ms) {
      const id = nextTimer++;
      timers.set(id, { at: now + ms, delay: ms, callback });
      return () => void timers.delete(id);
    },
    advance(ms) {
      const target = now + ms;
      for (;;) {
        const due = [...timers.entries()].filter(([, t]) => t.at <= target).sort((a, b) => a[1].at - b[1].at)[0];
        if (!due) break;
        timers.delete(due[0]);
        now = due[1].at;
        due[1].callback();
      }
      now = target;
    },
    get pendingDelays() {
      return [...timers.values()].map((t) => t.delay);
    },
  };
}
