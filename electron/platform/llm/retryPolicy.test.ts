import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createRetryBudget, nextRetryDelay, parseRetryAfter } from './retryPolicy';

describe('retry schedule', () => {
  it('never waits beyond the budget and never exceeds the attempt bound', () => {
    fc.assert(
      fc.property(
        fc.record({
          maxAttempts: fc.integer({ min: 1, max: 10 }),
          baseDelayMs: fc.integer({ min: 0, max: 5000 }),
          maxDelayMs: fc.integer({ min: 0, max: 60_000 }),
          totalBudgetMs: fc.integer({ min: 0, max: 120_000 }),
          retryAfters: fc.array(fc.option(fc.integer({ min: 0, max: 90_000 }), { nil: undefined }), { maxLength: 12 }),
          randoms: fc.array(fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), { minLength: 1, maxLength: 12 }),
        }),
        (c) => {
          let clock = 0;
          const budget = createRetryBudget(c.totalBudgetMs, () => clock);
          let attempts = 1;
          let r = 0;
          for (;;) {
            const delay = nextRetryDelay({
              attempt: attempts,
              maxAttempts: c.maxAttempts,
              baseDelayMs: c.baseDelayMs,
              maxDelayMs: c.maxDelayMs,
              retryAfterMs: c.retryAfters[attempts - 1],
              remainingBudgetMs: budget.remainingMs(),
              random: () => c.randoms[r++ % c.randoms.length]!,
            });
            if (delay === null) break;
            expect(delay).toBeGreaterThanOrEqual(c.retryAfters[attempts - 1] ?? 0);
            clock += delay;
            attempts++;
          }
          expect(attempts).toBeLessThanOrEqual(c.maxAttempts);
          expect(clock).toBeLessThanOrEqual(c.totalBudgetMs);
        },
      ),
    );
  });

  it('draws each jittered wait from zero up to the doubled cap', () => {
    const at = (attempt: number, random: number): number | null =>
      nextRetryDelay({ attempt, maxAttempts: 10, baseDelayMs: 100, maxDelayMs: 1000, remainingBudgetMs: 1e9, random: () => random });
    expect(at(1, 0)).toBe(0);
    expect(at(1, 0.999)).toBe(99);
    expect(at(3, 0.5)).toBe(200);
    expect(at(8, 0.5)).toBe(500);
  });

  it('reads Retry-After as seconds or as an HTTP date and ignores garbage', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(parseRetryAfter('2', now)).toBe(2000);
    expect(parseRetryAfter(' 0.5 ', now)).toBe(500);
    expect(parseRetryAfter('Thu, 01 Jan 2026 00:00:07 GMT', now)).toBe(7000);
    expect(parseRetryAfter('Wed, 31 Dec 2025 00:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter(null, now)).toBeUndefined();
  });
});
