/**
 * One FIFO lock per key: calls with the same key run strictly one after another, calls with
 * different keys run in parallel. A key's entry disappears when its queue drains, so the map
 * only holds busy keys (the TTL sweeper asks `isBusy`).
 */
export interface KeyedMutex {
  run<T>(key: string, task: () => Promise<T>): Promise<T>;
  isBusy(key: string): boolean;
}

export function createKeyedMutex(): KeyedMutex {
  const tails = new Map<string, Promise<void>>();
  // Calls queued or running per key. Counted down in the task's own `finally`, i.e. before the
  // caller's await resumes, so a sweep right after a turn returns sees the key idle.
  const pending = new Map<string, number>();
  return {
    run<T>(key: string, task: () => Promise<T>): Promise<T> {
      const previous = tails.get(key) ?? Promise.resolve();
      pending.set(key, (pending.get(key) ?? 0) + 1);
      const result = previous.then(task).finally(() => {
        const left = pending.get(key)! - 1;
        if (left === 0) {
          pending.delete(key);
          tails.delete(key);
        } else pending.set(key, left);
      });
      // The queue continues after failures too: one failed turn must not wedge the session.
      const tail = result.then(
        () => undefined,
        () => undefined,
      );
      tails.set(key, tail);
      return result;
    },
    isBusy: (key) => pending.has(key),
  };
}
