import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createKeyedMutex } from './keyedMutex';

describe('keyed mutex', () => {
  it('runs calls of one key one at a time in order, and is idle as soon as the last call returns (property)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(fc.constantFrom('a', 'b'), fc.boolean()), { minLength: 1, maxLength: 12 }), async (calls) => {
        const mutex = createKeyedMutex();
        const running = new Map<string, number>();
        const order: Record<string, number[]> = { a: [], b: [] };
        const results = calls.map(([key, fails], i) =>
          mutex
            .run(key, async () => {
              running.set(key, (running.get(key) ?? 0) + 1);
              expect(running.get(key)).toBe(1);
              await new Promise((resolve) => setTimeout(resolve, 0));
              order[key]!.push(i);
              running.set(key, running.get(key)! - 1);
              if (fails) throw new Error('turn failed');
              return i;
            })
            .catch(() => -1),
        );
        await Promise.all(results);
        expect(mutex.isBusy('a')).toBe(false);
        expect(mutex.isBusy('b')).toBe(false);
        for (const key of ['a', 'b']) expect(order[key]).toEqual(calls.flatMap(([k], i) => (k === key ? [i] : [])));
      }),
      { numRuns: 30 },
    );
  });

  it('reports a key busy while a call is queued or running', async () => {
    const mutex = createKeyedMutex();
    let release!: () => void;
    const first = mutex.run('s', () => new Promise<void>((resolve) => (release = resolve)));
    expect(mutex.isBusy('s')).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 0)); // the task starts on a later tick
    expect(mutex.isBusy('s')).toBe(true);
    release();
    await first;
    expect(mutex.isBusy('s')).toBe(false);
  });
});
