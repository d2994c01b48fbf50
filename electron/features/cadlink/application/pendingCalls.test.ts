import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { AppError } from '../../../../shared/errors';
import { createPendingCalls, type CallOutcome } from './pendingCalls';
import { makeSuccess, type JsonRpcId } from '../domain/protocol/jsonRpc';

type Event = { kind: 'reply'; id: JsonRpcId } | { kind: 'timeout'; id: JsonRpcId };

describe('pendingCalls', () => {
  it('settles every call exactly once whatever the reply order, duplicates, unknown ids and timeouts', () => {
    const idArb = fc.oneof(fc.integer({ min: 0, max: 30 }), fc.integer({ min: 0, max: 30 }).map(String));
    fc.assert(
      fc.property(fc.uniqueArray(idArb, { minLength: 1, maxLength: 25, selector: (id) => `${typeof id}:${id}` }), fc.array(idArb, { maxLength: 20 }), fc.array(fc.nat(), { maxLength: 10 }), fc.integer(), (ids, strays, timeoutPicks, seed) => {
        const pending = createPendingCalls();
        const settledCount = new Map<string, number>();
        const outcomes = new Map<string, CallOutcome>();
        const key = (id: JsonRpcId): string => `${typeof id}:${id}`;
        for (const id of ids) {
          pending.register(id, (outcome) => {
            settledCount.set(key(id), (settledCount.get(key(id)) ?? 0) + 1);
            outcomes.set(key(id), outcome);
          });
        }
        // Replies for every id (some twice), stray ids, and some timeouts, in a shuffled order.
        const events: Event[] = [...ids.map((id) => ({ kind: 'reply' as const, id })), ...ids.slice(0, 5).map((id) => ({ kind: 'reply' as const, id })), ...strays.map((id) => ({ kind: 'reply' as const, id }))];
        for (const pick of timeoutPicks) events.push({ kind: 'timeout', id: ids[pick % ids.length]! });
        const shuffled = fc.sample(fc.shuffledSubarray(events, { minLength: events.length, maxLength: events.length }), { seed, numRuns: 1 })[0]!;
        for (const event of shuffled) {
          if (event.kind === 'reply') pending.deliver(makeSuccess(event.id, { echoed: event.id }));
          else pending.fail(event.id, new AppError('CAD_TIMEOUT', 'timeout'));
        }
        for (const id of ids) {
          expect(settledCount.get(key(id))).toBe(1);
          const outcome = outcomes.get(key(id))!;
          // A reply always reaches the call with the same id type and value.
          if (outcome.kind === 'reply') expect(Object.is((outcome.message as { result: { echoed: unknown } }).result.echoed, id)).toBe(true);
        }
        expect(pending.size).toBe(0);
        const stats = pending.stats;
        const ignored = stats.unknownReplies + stats.duplicateReplies + stats.lateReplies;
        const replies = shuffled.filter((e) => e.kind === 'reply').length;
        const answered = [...outcomes.values()].filter((o) => o.kind === 'reply').length;
        expect(ignored + answered).toBe(replies);
      }),
    );
  });

  it('tells "1" from 1 and counts duplicate, late and unknown replies separately', () => {
    const pending = createPendingCalls();
    const got: unknown[] = [];
    pending.register('1', (o) => got.push(['string', o.kind]));
    pending.register(1, (o) => got.push(['number', o.kind]));
    pending.register(2, (o) => got.push(['two', o.kind]));
    expect(pending.deliver(makeSuccess(1, null))).toBe(true);
    expect(got).toEqual([['number', 'reply']]);
    expect(pending.deliver(makeSuccess(1, null))).toBe(false);
    pending.fail(2, new AppError('CAD_TIMEOUT', 't'));
    expect(pending.deliver(makeSuccess(2, null))).toBe(false);
    expect(pending.deliver(makeSuccess(99, null))).toBe(false);
    expect(pending.stats).toEqual({ unknownReplies: 1, duplicateReplies: 1, lateReplies: 1 });
    expect(pending.failAll(new AppError('CAD_DISCONNECTED', 'gone'))).toBe(1);
    expect(got).toEqual([['number', 'reply'], ['two', 'failed'], ['string', 'failed']]);
  });

  it('forgets the oldest settled ids beyond its memory so it stays bounded', () => {
    const pending = createPendingCalls(2);
    for (const id of [1, 2, 3]) {
      pending.register(id, () => undefined);
      pending.deliver(makeSuccess(id, null));
    }
    pending.deliver(makeSuccess(1, null));
    pending.deliver(makeSuccess(3, null));
    expect(pending.stats).toMatchObject({ unknownReplies: 1, duplicateReplies: 1 });
  });
});
