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

/** The first limit `usage` has reached, or null. Checked before every model call. */
export function exceededBudget(budget: TaskBudget, usage: TaskUsage): string | null {
  if (usage.authorTurns >= budget.maxAuthorTurns) return 'author_turns';
  if (usage.reviewerCalls >= budget.maxReviewerCalls) return 'reviewer_calls';
  if (usage.promptTokens >= budget.maxPromptTokens) return 'prompt_tokens';
  if (usage.contextBytes >= budget.maxContextBytes) return 'context_bytes';
  if (usage.wallMs >= budget.maxWallMs) return 'wall_time';
  if (usage.candidateBuilds >= budget.maxCandidateBuilds) return 'candidate_builds';
  return null;
}

/** Adds one model call's usage; prompt tokens fall back to bytes/4 only when the provider reports none. */
export function chargeCall(usage: TaskUsage, role: 'author' | 'reviewer', call: { promptTokens?: number; cachedPromptTokens?: number; contextBytes: number }): TaskUsage {
  return {
    ...usage,
    authorTurns: usage.authorTurns + (role === 'author' ? 1 : 0),
    reviewerCalls: usage.reviewerCalls + (role === 'reviewer' ? 1 : 0),
    promptTokens: usage.promptTokens + (call.promptTokens ?? Math.ceil(call.contextBytes / 4)),
    cachedPromptTokens: (usage.cachedPromptTokens ?? 0) + (call.cachedPromptTokens ?? 0),
    contextBytes: usage.contextBytes + call.contextBytes,
  };
}
