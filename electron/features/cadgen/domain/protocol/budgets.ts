/** Per-task limits (seed §6.1, §6.7): turns, calls, tokens/bytes, wall time, retries. */
export interface TaskBudget {
  /** Author model calls (every tool call, observations included). */
  maxAuthorTurns: number;
  /** Reviewer model calls (requirements, candidate and final reviews). */
  maxReviewerCalls: number;
  /** Prompt tokens over all calls; providers without usage are charged context bytes / 4. */
  maxPromptTokens: number;
  /** Serialized request bytes over all calls. */
  maxContextBytes: number;
  /** Wall time of all runs of the task. */
  maxWallMs: number;
  /** Consecutive format rejections of one tool before FAILED_AUTHOR_FORMAT. */
  maxFormatRetries: number;
  /** Legal but useless author choices in a row before NO_PROGRESS_LIMIT. */
  maxNoProgress: number;
  /** Candidate builds (accepted or not). */
  maxCandidateBuilds: number;
  /** Requirement review rounds that answered revise before WAITING_FOR_USER. */
  maxRequirementRevisions: number;
}

export const DEFAULT_BUDGET: TaskBudget = {
  maxAuthorTurns: 80,
  maxReviewerCalls: 40,
  maxPromptTokens: 2_000_000,
  maxContextBytes: 8_000_000,
  maxWallMs: 30 * 60_000,
  maxFormatRetries: 3,
  maxNoProgress: 6,
  maxCandidateBuilds: 30,
  maxRequirementRevisions: 3,
};

/** What a fitted budget was derived from (shown beside the limits). */
export interface BudgetBasis {
  requirements: number;
  claims: number;
  /** Estimated modelling actions: per requirement the most of its claim count and the instances one claim asks for. */
  features: number;
}

/** What a task has consumed so far (persisted with the task). */
export interface TaskUsage {
  authorTurns: number;
  reviewerCalls: number;
  promptTokens: number;
  /** The part of promptTokens the providers served from their prompt caches (absent on tasks recorded before it was counted). */
  cachedPromptTokens?: number;
  contextBytes: number;
  wallMs: number;
  candidateBuilds: number;
  requirementRevisions: number;
}

export const ZERO_USAGE: TaskUsage = { authorTurns: 0, reviewerCalls: 0, promptTokens: 0, cachedPromptTokens: 0, contextBytes: 0, wallMs: 0, candidateBuilds: 0, requirementRevisions: 0 };

/**
 * The limits checked before every model call, by the name BUDGET_EXHAUSTED reports (and
 * `gen resume --budget name=N` raises): the budget field and the usage field it bounds.
 */
export const LIMITS = {
  author_turns: { budget: 'maxAuthorTurns', usage: 'authorTurns' },
  reviewer_calls: { budget: 'maxReviewerCalls', usage: 'reviewerCalls' },
  prompt_tokens: { budget: 'maxPromptTokens', usage: 'promptTokens' },
  context_bytes: { budget: 'maxContextBytes', usage: 'contextBytes' },
  wall_time: { budget: 'maxWallMs', usage: 'wallMs' },
  candidate_builds: { budget: 'maxCandidateBuilds', usage: 'candidateBuilds' },
} as const satisfies Record<string, { budget: keyof TaskBudget; usage: keyof TaskUsage }>;
export type BudgetLimit = keyof typeof LIMITS;

/** The first limit `usage` has reached, or null. Checked before every model call. */
export function exceededBudget(budget: TaskBudget, usage: TaskUsage): BudgetLimit | null {
  for (const [limit, fields] of Object.entries(LIMITS) as [BudgetLimit, (typeof LIMITS)[BudgetLimit]][]) {
    if (usage[fields.usage] >= budget[fields.budget]) return limit;
  }
  return null;
}

/**
 * Adds one logical model call's usage. Each retried attempt before the answer was sent too and
 * is charged as a call of the same request size; prompt tokens fall back to bytes/4 for attempts
 * the provider reported none for (failed ones, or providers without usage). Cached tokens count
 * only what the answering attempt's provider reported.
 */
export function chargeCall(usage: TaskUsage, role: 'author' | 'reviewer', call: { promptTokens?: number; cachedPromptTokens?: number; contextBytes: number; retries?: number }): TaskUsage {
  const calls = 1 + Math.max(0, Math.floor(call.retries ?? 0));
  const estimate = Math.ceil(call.contextBytes / 4);
  return {
    ...usage,
    authorTurns: usage.authorTurns + (role === 'author' ? calls : 0),
    reviewerCalls: usage.reviewerCalls + (role === 'reviewer' ? calls : 0),
    promptTokens: usage.promptTokens + (call.promptTokens ?? estimate) + estimate * (calls - 1),
    cachedPromptTokens: (usage.cachedPromptTokens ?? 0) + (call.cachedPromptTokens ?? 0),
    contextBytes: usage.contextBytes + call.contextBytes * calls,
  };
}
