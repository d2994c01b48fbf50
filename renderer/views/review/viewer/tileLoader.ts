/**
 * Fetches viewer tiles without hammering the host: a bounded LRU cache, at most `concurrency`
 * requests in flight, requests for the same key shared, and queued tiles the view no longer
 * wants dropped before they are asked for. One loader per viewer (no module state).
 */
export interface TileLoaderOptions<T> {
  fetch(key: string): Promise<T>;
  /** Called whenever a tile arrived (the view re-renders from `get`). */
  onLoaded(key: string): void;
  concurrency?: number;
  capacity?: number;
}

export interface TileLoader<T> {
  get(key: string): T | undefined;
  /** The tiles the view needs now, most important first; replaces the previous wish list. */
  want(keys: readonly string[]): void;
  /** Requests started so far (for tests and the "never hammer" guarantee). */
  readonly requested: number;
  /** Stops delivering results (the viewer unmounted or the drawing changed). */
  dispose(): void;
}

export function createTileLoader<T>(options: TileLoaderOptions<T>): TileLoader<T> {
  const concurrency = options.concurrency ?? 2;
  const capacity = options.capacity ?? 160;
  const cache = new Map<string, T>();
  const inFlight = new Set<string>();
  let queue: string[] = [];
  let requested = 0;
  let disposed = false;

  const remember = (key: string, value: T): void => {
    cache.delete(key);
    cache.set(key, value);
    // Map order is insertion order: the first key is the least recently used.
    while (cache.size > capacity) cache.delete(cache.keys().next().value as string);
  };

  const pump = (): void => {
    while (!disposed && inFlight.size < concurrency && queue.length > 0) {
      const key = queue.shift() as string;
      if (cache.has(key) || inFlight.has(key)) continue;
      inFlight.add(key);
      requested++;
      void options
        .fetch(key)
        .then((value) => {
          if (disposed) return;
          remember(key, value);
          options.onLoaded(key);
        })
        .finally(() => {
          inFlight.delete(key);
          pump();
        });
    }
  };

  return {
    get(key) {
      const value = cache.get(key);
      if (value !== undefined) remember(key, value);
      return value;
    },
    want(keys) {
      queue = keys.filter((k) => !cache.has(k) && !inFlight.has(k));
      pump();
    },
    get requested() {
      return requested;
    },
    dispose() {
      disposed = true;
      queue = [];
    },
  };
}
