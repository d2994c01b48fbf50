import { describe, expect, it } from 'vitest';
import { createTileLoader } from './tileLoader';

function deferred() {
  const pending = new Map<string, (v: string) => void>();
  return {
    fetch: (key: string) => new Promise<string>((resolve) => pending.set(key, resolve)),
    resolve(key: string) {
      pending.get(key)?.(`png:${key}`);
      pending.delete(key);
    },
    pending,
  };
}
const tick = () => new Promise((r) => setTimeout(r, 0));

describe('tile loader', () => {
  it('keeps at most two requests in flight and drops tiles the view stopped wanting', async () => {
    const host = deferred();
    const loaded: string[] = [];
    const loader = createTileLoader({ fetch: host.fetch, onLoaded: (k) => loaded.push(k) });
    loader.want(['a', 'b', 'c', 'd']);
    expect([...host.pending.keys()]).toEqual(['a', 'b']);
    loader.want(['x', 'a']);
    host.resolve('a');
    await tick();
    expect(loaded).toEqual(['a']);
    expect([...host.pending.keys()]).toEqual(['b', 'x']);
    host.resolve('b');
    host.resolve('x');
    await tick();
    expect(loader.requested).toBe(3);
    expect(loader.get('x')).toBe('png:x');
  });

  it('asks once per tile however often the view asks, and forgets the least recently used beyond its capacity', async () => {
    const host = deferred();
    const loader = createTileLoader({ fetch: host.fetch, onLoaded: () => {}, capacity: 2 });
    for (let i = 0; i < 5; i++) loader.want(['a']);
    host.resolve('a');
    await tick();
    loader.want(['a', 'b']);
    host.resolve('b');
    await tick();
    expect(loader.requested).toBe(2);
    loader.get('a');
    loader.want(['c']);
    host.resolve('c');
    await tick();
    expect(loader.get('b')).toBeUndefined();
    expect(loader.get('a')).toBe('png:a');
  });

  it('delivers nothing after dispose', async () => {
    const host = deferred();
    const loaded: string[] = [];
    const loader = createTileLoader({ fetch: host.fetch, onLoaded: (k) => loaded.push(k) });
    loader.want(['a']);
    loader.dispose();
    host.resolve('a');
    await tick();
    expect(loaded).toEqual([]);
  });
});
