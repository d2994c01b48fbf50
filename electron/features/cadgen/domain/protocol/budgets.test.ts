import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chargeCall, ZERO_USAGE, type TaskUsage } from './budgets';

describe('charging a model call to a task', () => {
  it('adds the cached prompt tokens beside the prompt tokens, from 0 on a task recorded before they were counted', () => {
    const old: TaskUsage = { authorTurns: 3, reviewerCalls: 1, promptTokens: 9000, contextBytes: 36_000, wallMs: 10, candidateBuilds: 1, requirementRevisions: 0 };
    expect(chargeCall(old, 'author', { promptTokens: 3000, cachedPromptTokens: 2048, contextBytes: 12_000 })).toMatchObject({ authorTurns: 4, promptTokens: 12_000, cachedPromptTokens: 2048 });
  });

  it('never counts more cached than prompt tokens when each call reports cached ≤ prompt', () => {
    const call = fc.nat(50_000).chain((prompt) => fc.record({ promptTokens: fc.constant(prompt), cachedPromptTokens: fc.nat(prompt), contextBytes: fc.nat(1_000_000) }));
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.constantFrom('author' as const, 'reviewer' as const), call), { maxLength: 30 }), (calls) => {
        const usage = calls.reduce((u, [role, c]) => chargeCall(u, role, c), ZERO_USAGE);
        expect(usage.cachedPromptTokens).toBeLessThanOrEqual(usage.promptTokens);
        expect(usage.cachedPromptTokens).toBe(calls.reduce((n, [, c]) => n + c.cachedPromptTokens, 0));
      }),
    );
  });
});
