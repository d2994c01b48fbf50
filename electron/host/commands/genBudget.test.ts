import { describe, expect, it } from 'vitest';
import { DEFAULT_BUDGET, ZERO_USAGE } from '../../features/cadgen/domain/protocol/budgets';
import type { TaskRecord } from '../../features/cadgen/index';
import { budgetLine, budgetRaiseOf } from './genBudget';

const refusal = (entries: string[]): unknown => {
  try {
    return budgetRaiseOf(entries);
  } catch (error) {
    return { code: (error as { code: string }).code, reason: ((error as { data?: { reason?: string } }).data ?? {}).reason };
  }
};

describe('gen resume --budget', () => {
  it('reads the raise, and nothing when no --budget is given', () => {
    expect(budgetRaiseOf(['author_turns=200', 'candidate_builds=60'])).toEqual({ maxAuthorTurns: 200, maxCandidateBuilds: 60 });
    expect(budgetRaiseOf(undefined)).toBeUndefined();
    expect(budgetRaiseOf([])).toBeUndefined();
  });

  it('refuses unknown names, bad numbers and values beyond the app limits as CDSL_BUDGET_INVALID', () => {
    expect(refusal(['max_turns=10'])).toEqual({ code: 'CDSL_BUDGET_INVALID', reason: 'unknown_limit' });
    expect(refusal(['author_turns=ten'])).toEqual({ code: 'CDSL_BUDGET_INVALID', reason: 'not_a_count' });
    expect(refusal(['author_turns=5000'])).toEqual({ code: 'CDSL_BUDGET_INVALID', reason: 'out_of_range' });
    expect(refusal(['wall_time=100000'])).toEqual({ code: 'CDSL_BUDGET_INVALID', reason: 'out_of_range' });
  });
});

describe('the budget line of gen new / gen show', () => {
  const task = (fields: Partial<TaskRecord>): TaskRecord => ({ budget: DEFAULT_BUDGET, usage: ZERO_USAGE, ...fields }) as TaskRecord;

  it('says the defaults hold until the requirements are frozen, then what the budget was fitted to and what the user set', () => {
    expect(budgetLine(task({ budget_overrides: {}, budget_basis: null }))).toBe('budget: 80 author turns, 40 reviewer calls, 30 builds, 2.0 M prompt tokens, 30 min (until the requirements are frozen; then fitted to the part)');
    expect(budgetLine(task({ budget: { ...DEFAULT_BUDGET, maxAuthorTurns: 208 }, budget_overrides: { maxWallMs: 600_000 }, budget_basis: { requirements: 2, claims: 4, features: 32 } }))).toContain('208 author turns');
    expect(budgetLine(task({ budget_overrides: { maxWallMs: 600_000 }, budget_basis: { requirements: 2, claims: 4, features: 32 } }))).toContain('(fitted to 32 features of 2 requirements / 4 claims; set by you: wall_time)');
    expect(budgetLine(task({}))).toContain('(fixed)');
  });
});
