import { protocolError, ProtocolErrorCode } from './errors';
import { DEFAULT_BUDGET, exceededBudget, LIMITS } from './budgets';
import type { BudgetBasis, BudgetLimit, TaskBudget, TaskUsage } from './budgets';
import type { ContractClaim, RequirementsContract, TaskRecord } from './task';

/**
 * Allowance per estimated feature, over a base. A feature costs a perfect author about four
 * turns (propose, inspect, read the operation contract, submit), one candidate build and one
 * candidate review; the allowance leaves room for about one repair in two. The defaults stay the
 * floor, so a small part keeps them and only a larger one gets more.
 */
const PER_FEATURE: Partial<TaskBudget> = {
  maxAuthorTurns: 6,
  maxReviewerCalls: 2,
  maxCandidateBuilds: 2,
  maxPromptTokens: 200_000,
  maxContextBytes: 800_000,
  maxWallMs: 60_000,
};
const BASE: Partial<TaskBudget> = {
  maxAuthorTurns: 16,
  maxReviewerCalls: 8,
  maxCandidateBuilds: 4,
  maxPromptTokens: 400_000,
  maxContextBytes: 1_600_000,
  maxWallMs: 5 * 60_000,
};

/**
 * How many like features one claim asks for: a hole set or pattern counts its holes (an author
 * may drill them one action each), a rectangular layout its rows × columns; any other claim one.
 */
export function featureInstances(claim: Pick<ContractClaim, 'claim_kind' | 'expected'>): number {
  const n = (key: string): number => {
    const value = claim.expected[key];
    return typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : 1;
  };
  switch (claim.claim_kind) {
    case 'hole_set':
    case 'linear_hole_pattern':
    case 'circular_hole_pattern':
      return n('count');
    case 'rectangular_hole_layout':
      return n('x_count') * n('y_count');
    default:
      return 1;
  }
}

/** The basis of a contract: its requirement and claim counts and the features they imply. */
export function budgetBasis(contract: Pick<RequirementsContract, 'requirements' | 'claims'>): BudgetBasis {
  const byId = new Map(contract.claims.map((c) => [c.claim_id, c]));
  const features = contract.requirements.reduce((sum, requirement) => {
    const claims = requirement.claim_ids.map((id) => byId.get(id)).filter((c): c is ContractClaim => c !== undefined);
    return sum + Math.max(1, claims.length, ...claims.map(featureInstances));
  }, 0);
  return { requirements: contract.requirements.length, claims: contract.claims.length, features };
}

/**
 * The budget that fits a frozen contract: per scaled limit max(default, base + allowance ×
 * features); limits the user set explicitly (`overrides`) are kept as given.
 */
export function fitBudget(basis: BudgetBasis, overrides: Partial<TaskBudget> = {}): TaskBudget {
  const fitted: TaskBudget = { ...DEFAULT_BUDGET };
  for (const key of Object.keys(PER_FEATURE) as (keyof TaskBudget)[]) {
    fitted[key] = Math.max(DEFAULT_BUDGET[key], (BASE[key] ?? 0) + (PER_FEATURE[key] ?? 0) * basis.features);
  }
  return { ...fitted, ...overrides };
}

/** The limits a `--budget key=value` may raise, by the names BUDGET_EXHAUSTED reports. */
export const RAISABLE_LIMITS = Object.keys(LIMITS) as BudgetLimit[];

/**
 * Parses `name=N` entries (`gen resume --budget author_turns=120`) into budget fields: names are
 * RAISABLE_LIMITS, N a positive whole number (wall_time in minutes). Errors: CDSL_BUDGET_INVALID
 * (data.reason syntax | unknown_limit | not_a_count | repeated).
 */
export function parseBudgetEntries(entries: readonly string[]): Partial<TaskBudget> {
  const raise: Partial<TaskBudget> = {};
  for (const entry of entries) {
    const match = /^\s*([a-z_]+)\s*=\s*(\S+)\s*$/.exec(entry);
    if (!match) throw protocolError(ProtocolErrorCode.budgetInvalid, `budget entry "${entry.slice(0, 80)}" is not name=N (names: ${RAISABLE_LIMITS.join(', ')})`, { reason: 'syntax', entry: entry.slice(0, 80) });
    const [, name = '', text = ''] = match;
    if (!(name in LIMITS)) throw protocolError(ProtocolErrorCode.budgetInvalid, `unknown budget limit ${name} (names: ${RAISABLE_LIMITS.join(', ')})`, { reason: 'unknown_limit', limit: name, allowed: RAISABLE_LIMITS });
    const value = /^\d{1,12}$/.test(text) ? Number(text) : NaN;
    if (!Number.isSafeInteger(value) || value < 1) throw protocolError(ProtocolErrorCode.budgetInvalid, `${name} takes a positive whole number${name === 'wall_time' ? ' of minutes' : ''}; got ${text.slice(0, 40)}`, { reason: 'not_a_count', limit: name, value: text.slice(0, 40) });
    const field = LIMITS[name as BudgetLimit].budget;
    if (raise[field] !== undefined) throw protocolError(ProtocolErrorCode.budgetInvalid, `${name} is given twice`, { reason: 'repeated', limit: name });
    raise[field] = name === 'wall_time' ? value * 60_000 : value;
  }
  return raise;
}

/**
 * Applies an explicit raise to an exhausted (or waiting) task's budget. Every raised limit must
 * lie above what the task already spent on it, and after the raise no limit may still be
 * exhausted. Errors: CDSL_BUDGET_INVALID (data.reason below_spent | still_exhausted | empty).
 */
export function raiseBudget(budget: TaskBudget, usage: TaskUsage, raise: Partial<TaskBudget>): TaskBudget {
  const keys = Object.keys(raise) as (keyof TaskBudget)[];
  if (keys.length === 0) throw protocolError(ProtocolErrorCode.budgetInvalid, 'no budget limit to raise', { reason: 'empty' });
  for (const [limit, { budget: field, usage: spentField }] of Object.entries(LIMITS) as [BudgetLimit, (typeof LIMITS)[BudgetLimit]][]) {
    const value = raise[field];
    if (value === undefined) continue;
    const spent = usage[spentField];
    if (value <= spent) throw protocolError(ProtocolErrorCode.budgetInvalid, `${limit} must be above what the task already spent (${spent}); got ${value}`, { reason: 'below_spent', limit, value, spent });
  }
  const next = { ...budget, ...raise };
  const still = exceededBudget(next, usage);
  if (still) {
    const { budget: field, usage: spentField } = LIMITS[still];
    throw protocolError(ProtocolErrorCode.budgetInvalid, `${still} is still exhausted (spent ${usage[spentField]} of ${next[field]}); raise it too`, { reason: 'still_exhausted', limit: still, spent: usage[spentField], max: next[field] });
  }
  return next;
}

/** The limit a task FAILED as BUDGET_EXHAUSTED ran out of (by its last error), or null. */
export function exhaustedLimit(task: Pick<TaskRecord, 'failure_reason' | 'last_error' | 'budget' | 'usage'>): { limit: BudgetLimit; field: (typeof LIMITS)[BudgetLimit]['budget']; spent: number; max: number } | null {
  const limit = (task.last_error?.data as { limit?: unknown } | undefined)?.limit;
  if (task.failure_reason !== 'BUDGET_EXHAUSTED' || typeof limit !== 'string' || !(limit in LIMITS)) return null;
  const fields = LIMITS[limit as BudgetLimit];
  return { limit: limit as BudgetLimit, field: fields.budget, spent: task.usage[fields.usage], max: task.budget[fields.budget] };
}
