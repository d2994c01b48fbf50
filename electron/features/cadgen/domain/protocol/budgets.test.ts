import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../../../../shared/errors';
import { budgetBasis, featureInstances, fitBudget, parseBudgetEntries, raiseBudget } from './budgetFit';
import { chargeCall, DEFAULT_BUDGET, exceededBudget, LIMITS, ZERO_USAGE } from './budgets';
import type { TaskBudget, TaskUsage } from './budgets';
import type { ContractClaim, RequirementsContract } from './task';

const claim = (n: number, requirement: string, claim_kind: string, expected: Record<string, unknown> = {}): ContractClaim => ({ claim_id: `claim_${n}`, requirement_id: requirement, claim_kind, expected, deterministic: true });

/** The 200 × 200 × 10 plate with thirty Ø8 holes on a 6 × 5 grid, as an author would state it. */
const gridPlate: Pick<RequirementsContract, 'requirements' | 'claims'> = {
  requirements: [
    { requirement_id: 'req_001', draft_id: 'd_001', statement: 'plate 200 x 200 x 10', source_ids: ['src_001'], assumptions: [], claim_ids: ['claim_1', 'claim_2'] },
    { requirement_id: 'req_002', draft_id: 'd_002', statement: 'thirty Ø8 holes on a grid', source_ids: ['src_001'], assumptions: [], claim_ids: ['claim_3', 'claim_4'] },
  ],
  claims: [
    claim(1, 'req_001', 'bbox_dimension_mm', { axis: 'sorted', values_mm: [10, 200, 200], tolerance_mm: 0.01 }),
    claim(2, 'req_001', 'solid_count_equals', { count: 1 }),
    claim(3, 'req_002', 'rectangular_hole_layout', { diameter_mm: 8, x_count: 6, y_count: 5 }),
    claim(4, 'req_002', 'hole_set', { count: 30, diameter_mm: 8 }),
  ],
};

const contractArb = fc.array(fc.array(fc.oneof(
  fc.record({ kind: fc.constant('hole_set'), count: fc.integer({ min: 1, max: 200 }) }),
  fc.record({ kind: fc.constant('rectangular_hole_layout'), x: fc.integer({ min: 1, max: 20 }), y: fc.integer({ min: 1, max: 20 }) }),
  fc.record({ kind: fc.constantFrom('bbox_dimension_mm', 'solid_count_equals', 'visual', 'fillet_radius') }),
), { maxLength: 6 }), { minLength: 1, maxLength: 12 }).map((reqs) => {
  let n = 0;
  const requirements: RequirementsContract['requirements'] = [];
  const claims: ContractClaim[] = [];
  reqs.forEach((items, i) => {
    const id = `req_${i + 1}`;
    const ids = items.map((item) => {
      n += 1;
      const expected = 'count' in item ? { count: item.count } : 'x' in item ? { x_count: item.x, y_count: item.y } : {};
      claims.push(claim(n, id, item.kind, expected));
      return `claim_${n}`;
    });
    requirements.push({ requirement_id: id, draft_id: `d_${i + 1}`, statement: id, source_ids: [], assumptions: [], claim_ids: ids });
  });
  return { requirements, claims };
});

const usageArb = fc.record({
  authorTurns: fc.nat(2000), reviewerCalls: fc.nat(2000), promptTokens: fc.nat(60_000_000), contextBytes: fc.nat(250_000_000), wallMs: fc.nat(90_000_000), candidateBuilds: fc.nat(600), requirementRevisions: fc.nat(5),
});

describe('budgets that fit the part', () => {
  it('counts the holes a hole set or grid asks for as features, and one for any other claim', () => {
    expect(featureInstances(claim(1, 'r', 'hole_set', { count: 30 }))).toBe(30);
    expect(featureInstances(claim(1, 'r', 'rectangular_hole_layout', { x_count: 6, y_count: 5 }))).toBe(30);
    expect(featureInstances(claim(1, 'r', 'circular_hole_pattern', { count: 4 }))).toBe(4);
    expect(featureInstances(claim(1, 'r', 'solid_count_equals', { count: 3 }))).toBe(1);
    expect(featureInstances(claim(1, 'r', 'hole_set', { count: 'many' }))).toBe(1);
  });

  it('gives the thirty-hole plate room for one action per hole: at least 4 author turns, a review and a build per feature over the requirements phase', () => {
    const basis = budgetBasis(gridPlate);
    expect(basis).toEqual({ requirements: 2, claims: 4, features: 32 });
    const budget = fitBudget(basis);
    // 31 actions × 4 turns + drafting (2) + complete (1), as a perfect author spends them.
    expect(budget.maxAuthorTurns).toBeGreaterThanOrEqual(31 * 4 + 3);
    expect(budget.maxReviewerCalls).toBeGreaterThanOrEqual(31 + 2);
    expect(budget.maxCandidateBuilds).toBeGreaterThanOrEqual(31);
    expect(budget.maxWallMs).toBeGreaterThan(DEFAULT_BUDGET.maxWallMs);
  });

  it('keeps the defaults for a small part and the limits the user set, whatever the contract', () => {
    expect(fitBudget({ requirements: 2, claims: 4, features: 4 })).toEqual(DEFAULT_BUDGET);
    fc.assert(
      fc.property(contractArb, fc.integer({ min: 1, max: 1000 }), (contract, turns) => {
        const budget = fitBudget(budgetBasis(contract), { maxAuthorTurns: turns });
        expect(budget.maxAuthorTurns).toBe(turns);
        for (const key of Object.keys(DEFAULT_BUDGET) as (keyof TaskBudget)[]) if (key !== 'maxAuthorTurns') expect(budget[key]).toBeGreaterThanOrEqual(DEFAULT_BUDGET[key]);
        expect(budget.maxFormatRetries).toBe(DEFAULT_BUDGET.maxFormatRetries);
        expect(budget.maxNoProgress).toBe(DEFAULT_BUDGET.maxNoProgress);
      }),
    );
  });

  it('never gives a contract with more features a smaller budget, and counts at least one feature per requirement', () => {
    fc.assert(
      fc.property(contractArb, contractArb, (a, b) => {
        const basisA = budgetBasis(a);
        expect(basisA.features).toBeGreaterThanOrEqual(basisA.requirements);
        const basisB = budgetBasis(b);
        const [small, large] = basisA.features <= basisB.features ? [basisA, basisB] : [basisB, basisA];
        const low = fitBudget(small);
        const high = fitBudget(large);
        for (const key of Object.keys(DEFAULT_BUDGET) as (keyof TaskBudget)[]) expect(high[key]).toBeGreaterThanOrEqual(low[key]);
      }),
    );
  });
});

describe('charging model calls', () => {
  it('charges every attempt of a call: one answered after r retries costs 1 + r calls and as many request sizes', () => {
    fc.assert(
      fc.property(usageArb, fc.constantFrom<'author' | 'reviewer'>('author', 'reviewer'), fc.nat(1_000_000), fc.nat(5), fc.option(fc.nat(500_000), { nil: undefined }), (usage, role, bytes, retries, tokens) => {
        const next = chargeCall(usage, role, { contextBytes: bytes, retries, ...(tokens !== undefined ? { promptTokens: tokens } : {}) });
        const calls = (role === 'author' ? next.authorTurns - usage.authorTurns : next.reviewerCalls - usage.reviewerCalls);
        expect(calls).toBe(1 + retries);
        expect(role === 'author' ? next.reviewerCalls : next.authorTurns).toBe(role === 'author' ? usage.reviewerCalls : usage.authorTurns);
        expect(next.contextBytes - usage.contextBytes).toBe(bytes * (1 + retries));
        expect(next.promptTokens - usage.promptTokens).toBe((tokens ?? Math.ceil(bytes / 4)) + retries * Math.ceil(bytes / 4));
        expect(next.candidateBuilds).toBe(usage.candidateBuilds);
      }),
    );
  });

  it('reports the first limit reached, by the name a resume raises', () => {
    expect(exceededBudget(DEFAULT_BUDGET, ZERO_USAGE)).toBeNull();
    expect(exceededBudget(DEFAULT_BUDGET, { ...ZERO_USAGE, authorTurns: 80 })).toBe('author_turns');
    expect(exceededBudget(DEFAULT_BUDGET, { ...ZERO_USAGE, candidateBuilds: 30 })).toBe('candidate_builds');
  });
});

describe('raising an exhausted budget', () => {
  const spent: TaskUsage = { ...ZERO_USAGE, authorTurns: 80, reviewerCalls: 12 };

  it('continues with a raise above what was spent and records nothing else changed', () => {
    const next = raiseBudget(DEFAULT_BUDGET, spent, { maxAuthorTurns: 120 });
    expect(next).toEqual({ ...DEFAULT_BUDGET, maxAuthorTurns: 120 });
    expect(exceededBudget(next, spent)).toBeNull();
  });

  it('refuses a raise not above what was spent, or one that leaves another limit exhausted, as CDSL_BUDGET_INVALID', () => {
    const code = (fn: () => unknown): unknown => {
      try {
        fn();
        return 'no error';
      } catch (error) {
        return error instanceof AppError ? [error.code, (error.data as { reason: string }).reason] : error;
      }
    };
    expect(code(() => raiseBudget(DEFAULT_BUDGET, spent, { maxAuthorTurns: 80 }))).toEqual(['CDSL_BUDGET_INVALID', 'below_spent']);
    expect(code(() => raiseBudget(DEFAULT_BUDGET, spent, {}))).toEqual(['CDSL_BUDGET_INVALID', 'empty']);
    expect(code(() => raiseBudget(DEFAULT_BUDGET, { ...spent, candidateBuilds: 30 }, { maxAuthorTurns: 200 }))).toEqual(['CDSL_BUDGET_INVALID', 'still_exhausted']);
  });

  it('for any usage and raise: either every raised limit ends above its spending and none is exhausted, or a typed refusal', () => {
    const raiseArb = fc.record(Object.fromEntries(Object.values(LIMITS).map((l) => [l.budget, fc.integer({ min: 1, max: 100_000_000 })])) as Record<keyof TaskBudget, fc.Arbitrary<number>>, { requiredKeys: [] });
    fc.assert(
      fc.property(usageArb, raiseArb, (usage, raise) => {
        let next: TaskBudget;
        try {
          next = raiseBudget(DEFAULT_BUDGET, usage, raise);
        } catch (error) {
          expect(error).toBeInstanceOf(AppError);
          expect((error as AppError).code).toBe('CDSL_BUDGET_INVALID');
          return;
        }
        expect(exceededBudget(next, usage)).toBeNull();
        for (const { budget, usage: spentKey } of Object.values(LIMITS)) if (raise[budget] !== undefined) expect(next[budget]).toBeGreaterThan(usage[spentKey]);
      }),
    );
  });
});

describe('parsing --budget entries', () => {
  it('reads name=N into budget fields, wall_time in minutes', () => {
    expect(parseBudgetEntries(['author_turns=120', 'wall_time=45', ' reviewer_calls = 60 '])).toEqual({ maxAuthorTurns: 120, maxWallMs: 45 * 60_000, maxReviewerCalls: 60 });
  });

  it('refuses anything else with a typed reason, never a partial budget', () => {
    const reason = (entries: string[]): unknown => {
      try {
        return parseBudgetEntries(entries);
      } catch (error) {
        return error instanceof AppError ? `${error.code}:${(error.data as { reason: string }).reason}` : error;
      }
    };
    expect(reason(['author_turns'])).toBe('CDSL_BUDGET_INVALID:syntax');
    expect(reason(['turns=5'])).toBe('CDSL_BUDGET_INVALID:unknown_limit');
    expect(reason(['author_turns=-5'])).toBe('CDSL_BUDGET_INVALID:not_a_count');
    expect(reason(['author_turns=1.5'])).toBe('CDSL_BUDGET_INVALID:not_a_count');
    expect(reason(['author_turns=0'])).toBe('CDSL_BUDGET_INVALID:not_a_count');
    expect(reason(['author_turns=5', 'author_turns=6'])).toBe('CDSL_BUDGET_INVALID:repeated');
  });

  it('for any string: a budget of positive whole numbers under known fields, or CDSL_BUDGET_INVALID', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.string(), fc.tuple(fc.constantFrom(...Object.keys(LIMITS), 'x'), fc.oneof(fc.nat(), fc.string())).map(([k, v]) => `${k}=${v}`)), { maxLength: 4 }), (entries) => {
        try {
          const budget = parseBudgetEntries(entries);
          const fields = new Set<string>(Object.values(LIMITS).map((l) => l.budget));
          for (const [key, value] of Object.entries(budget)) {
            expect(fields.has(key)).toBe(true);
            expect(Number.isSafeInteger(value) && value > 0).toBe(true);
          }
        } catch (error) {
          expect((error as AppError).code).toBe('CDSL_BUDGET_INVALID');
        }
      }),
    );
  });
});

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
