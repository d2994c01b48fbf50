/**
 * Runs `work` over `items` with at most `concurrency` in flight. Stops starting new items once
 * `signal` aborts (items already running finish). Each item's failure is handed to `work`'s own
 * handling: `work` must not throw for a per-item failure it wants to survive.
 */
export async function runBounded<T>(items: readonly T[], concurrency: number, signal: AbortSignal | undefined, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lanes = Array.from({ length: Math.max(1, Math.min(concurrency, items.length)) }, async () => {
    while (next < items.length && !signal?.aborted) {
      const item = items[next++]!;
      await work(item);
    }
  });
  await Promise.all(lanes);
}
