import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_BUDGET } from './budgets';
import { ProtocolErrorCode } from './errors';
import { applyAuthorOutcome, FRESH_COUNTERS } from './progress';
import type { AuthorOutcome, ProgressCounters } from './progress';

describe('author progress counters', () => {
  it('fails with FAILED_AUTHOR_FORMAT after the same tool is malformed maxFormatRetries times in a row', () => {
    let counters: ProgressCounters = FRESH_COUNTERS;
    const outcome: AuthorOutcome = { kind: 'rejected', tool: 'propose_next_action', code: ProtocolErrorCode.authorFormatInvalid };
    for (let i = 1; i < DEFAULT_BUDGET.maxFormatRetries; i += 1) {
      const step = applyAuthorOutcome(counters, outcome, DEFAULT_BUDGET);
      expect(step.failure).toBeUndefined();
      counters = step.counters;
    }
    expect(applyAuthorOutcome(counters, outcome, DEFAULT_BUDGET).failure).toBe('FAILED_AUTHOR_FORMAT');
  });

  it('never turns format errors, infrastructure or internal errors into NO_PROGRESS_LIMIT', () => {
    const codes = [ProtocolErrorCode.authorFormatInvalid, ProtocolErrorCode.authorTransportUnavailable, ProtocolErrorCode.failedInternal, ProtocolErrorCode.reviewServiceUnavailable, ProtocolErrorCode.runtimeContractInvalid];
    fc.assert(
      fc.property(fc.array(fc.record({ code: fc.constantFrom(...codes), tool: fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f') }), { maxLength: 40 }), (steps) => {
        let counters: ProgressCounters = FRESH_COUNTERS;
        for (const step of steps) {
          const next = applyAuthorOutcome(counters, { kind: 'rejected', ...step }, { ...DEFAULT_BUDGET, maxFormatRetries: 1000 });
          expect(next.failure).not.toBe('NO_PROGRESS_LIMIT');
          counters = next.counters;
        }
        expect(counters.noProgress).toBe(0);
      }),
    );
  });

  it('counts legal but useless choices and resets them when the state advances', () => {
    let counters: ProgressCounters = FRESH_COUNTERS;
    for (let i = 0; i < DEFAULT_BUDGET.maxNoProgress - 1; i += 1) counters = applyAuthorOutcome(counters, { kind: 'no_change', tool: 'inspect_topology' }, DEFAULT_BUDGET).counters;
    expect(applyAuthorOutcome(counters, { kind: 'advanced', tool: 'propose_next_action' }, DEFAULT_BUDGET).counters.noProgress).toBe(0);
    expect(applyAuthorOutcome(counters, { kind: 'rejected', tool: 'propose_next_action', code: ProtocolErrorCode.staleWorkingHead }, DEFAULT_BUDGET).failure).toBe('NO_PROGRESS_LIMIT');
  });
});
