import type { TaskBudget } from './budgets';
import { countsTowardFormatLimit, ERROR_CATEGORY } from './errors';
import type { ProtocolErrorCodeValue } from './errors';
import type { FailureReason } from './states';

/** Strike counters that decide FAILED_AUTHOR_FORMAT and NO_PROGRESS_LIMIT (persisted per task). */
export interface ProgressCounters {
  /** Consecutive format rejections per tool name. */
  formatStrikes: Record<string, number>;
  /** Legal-but-useless author choices since the last state advance. */
  noProgress: number;
}

export const FRESH_COUNTERS: ProgressCounters = { formatStrikes: {}, noProgress: 0 };

export type AuthorOutcome =
  /** The state advanced (draft stored, action proposed, fragment accepted...). */
  | { kind: 'advanced'; tool: string }
  /** A legal read-only observation or a choice that changed nothing. */
  | { kind: 'no_change'; tool: string }
  /** A side-effect-free rejection with its code. */
  | { kind: 'rejected'; tool: string; code: ProtocolErrorCodeValue };

/**
 * Applies one author outcome to the counters. Format errors count only toward the format
 * limit of their tool; decision/stale/runtime rejections and no-change choices count toward
 * NO_PROGRESS_LIMIT; infrastructure, internal and contract errors count toward nothing (they
 * never reach this function as author outcomes — the caller classifies them first).
 */
export function applyAuthorOutcome(counters: ProgressCounters, outcome: AuthorOutcome, budget: TaskBudget): { counters: ProgressCounters; failure?: FailureReason } {
  if (outcome.kind === 'advanced') return { counters: { formatStrikes: { ...counters.formatStrikes, [outcome.tool]: 0 }, noProgress: 0 } };
  if (outcome.kind === 'rejected' && countsTowardFormatLimit(outcome.code)) {
    const strikes = (counters.formatStrikes[outcome.tool] ?? 0) + 1;
    const next = { ...counters, formatStrikes: { ...counters.formatStrikes, [outcome.tool]: strikes } };
    return strikes >= budget.maxFormatRetries ? { counters: next, failure: 'FAILED_AUTHOR_FORMAT' } : { counters: next };
  }
  if (outcome.kind === 'rejected' && !['decision', 'stale', 'runtime'].includes(ERROR_CATEGORY[outcome.code])) return { counters };
  const next = { ...counters, noProgress: counters.noProgress + 1 };
  return next.noProgress >= budget.maxNoProgress ? { counters: next, failure: 'NO_PROGRESS_LIMIT' } : { counters: next };
}
