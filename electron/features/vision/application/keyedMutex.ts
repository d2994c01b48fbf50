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
  return {
    run<T>(key: string, task: () => Promise<T>): Promise<T> {
      const previous = tails.get(key) ?? Promise.resolve();
      const result = previous.then(task);
      // The queue continues after failures too: one failed turn must not wedge the session.
      const tail = result.then(
        () => undefined,
        () => undefined,
      );
      tails.set(key, tail);
      void tail.then(() => {
        if (tails.get(key) === tail) tails.delete(key);
      });
      return result;
    },
    isBusy: (key) => tails.has(key),
  };
}
