import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { entityKeyer, entityLabel, isFingerprint } from './entityKey';

describe('entity keys', () => {
  it('keep handles and give every handle-less entity of one answer its own stable fingerprint', () => {
    const entry = fc.record({ handle: fc.constantFrom('', '', '1A', '2B'), type: fc.constantFrom('LINE', 'CIRCLE'), x: fc.integer({ min: 0, max: 3 }), y: fc.integer({ min: 0, max: 3 }) });
    fc.assert(
      fc.property(fc.array(entry, { maxLength: 40 }), (entries) => {
        const keyOf = (key: ReturnType<typeof entityKeyer>) => entries.map((e) => key(e.handle, e.type, { x: e.x, y: e.y }));
        const keys = keyOf(entityKeyer());
        const anonymous = keys.filter((k, i) => entries[i]!.handle === '');
        expect(new Set(anonymous).size).toBe(anonymous.length);
        expect(anonymous.every(isFingerprint)).toBe(true);
        expect(keys.filter((k, i) => entries[i]!.handle !== '')).toEqual(entries.filter((e) => e.handle !== '').map((e) => e.handle));
        expect(keyOf(entityKeyer())).toEqual(keys);
      }),
    );
  });

  it('name a handle-less entity by its place instead of an empty handle', () => {
    expect(entityLabel('zh-CN', 'fp:abc', { x: 1.234, y: 5 })).toBe('无句柄，位于 (1.23, 5)');
    expect(entityLabel('en', '1A', { x: 0, y: 0 })).toBe('handle 1A');
  });
});
