/**
 * Persisted task states of the CDSL v3 protocol (seed §6.6) and the one transition table.
 * Observation tools (inspect/measure/render/contract) are read-only and never change the state.
 */
export const TASK_STATES = [
  'DRAFTING_REQUIREMENTS',
  'REVIEWING_REQUIREMENTS',
  'AWAITING_ACTION',
  'ACTION_PENDING',
  'CANDIDATE_BUILDING',
  'CANDIDATE_REVIEW',
  'FINAL_VALIDATION',
  'WAITING_RETRY',
  'WAITING_FOR_USER',
  'COMPLETED',
  'FAILED',
] as const;
export type TaskState = (typeof TASK_STATES)[number];

/** Events that move a task. Tool calls that do not appear here never change the state. */
export const TASK_EVENTS = [
  'requirements_finalized',
  'requirements_approved',
  'requirements_revise',
  'user_question',
  'user_answered',
  'action_proposed',
  'fragment_accepted',
  'candidate_built',
  'candidate_build_failed',
  'candidate_accepted',
  'candidate_rejected',
  'rolled_back',
  'complete_requested',
  'final_accepted',
  'final_rejected',
  'infrastructure_exhausted',
  'resumed',
  'failed',
  'budget_raised',
] as const;
export type TaskEvent = (typeof TASK_EVENTS)[number];

export const TERMINAL_STATES: readonly TaskState[] = ['COMPLETED', 'FAILED'];
/** States a task may be working in: every state that is neither waiting nor terminal. */
export const ACTIVE_STATES: readonly TaskState[] = TASK_STATES.filter((state) => !state.startsWith('WAITING_') && !TERMINAL_STATES.includes(state));

export interface Edge {
  from: TaskState;
  event: TaskEvent;
  to: TaskState;
}

const edge = (from: TaskState, event: TaskEvent, to: TaskState): Edge => ({ from, event, to });

/**
 * Every legal edge. `resumed` from WAITING_RETRY returns to the active state the task was in
 * (kept as `resume_state`); `user_answered` returns to requirement drafting or action selection.
 * `budget_raised` is the one way out of FAILED: a task failed as BUDGET_EXHAUSTED continues, in
 * the active state it stopped in, once the user gave it a larger budget (the service checks the reason).
 * Anything not listed is illegal and is refused as CDSL_ILLEGAL_TRANSITION.
 */
export const TRANSITION_TABLE: readonly Edge[] = [
  edge('DRAFTING_REQUIREMENTS', 'requirements_finalized', 'REVIEWING_REQUIREMENTS'),
  edge('DRAFTING_REQUIREMENTS', 'user_question', 'WAITING_FOR_USER'),
  edge('REVIEWING_REQUIREMENTS', 'requirements_approved', 'AWAITING_ACTION'),
  edge('REVIEWING_REQUIREMENTS', 'requirements_revise', 'DRAFTING_REQUIREMENTS'),
  edge('REVIEWING_REQUIREMENTS', 'user_question', 'WAITING_FOR_USER'),
  edge('WAITING_FOR_USER', 'user_answered', 'DRAFTING_REQUIREMENTS'),
  edge('WAITING_FOR_USER', 'user_answered', 'AWAITING_ACTION'),
  edge('AWAITING_ACTION', 'action_proposed', 'ACTION_PENDING'),
  edge('AWAITING_ACTION', 'rolled_back', 'AWAITING_ACTION'),
  edge('AWAITING_ACTION', 'user_question', 'WAITING_FOR_USER'),
  edge('AWAITING_ACTION', 'complete_requested', 'FINAL_VALIDATION'),
  edge('ACTION_PENDING', 'fragment_accepted', 'CANDIDATE_BUILDING'),
  edge('ACTION_PENDING', 'rolled_back', 'AWAITING_ACTION'),
  edge('CANDIDATE_BUILDING', 'candidate_built', 'CANDIDATE_REVIEW'),
  edge('CANDIDATE_BUILDING', 'candidate_build_failed', 'AWAITING_ACTION'),
  edge('CANDIDATE_REVIEW', 'candidate_accepted', 'AWAITING_ACTION'),
  edge('CANDIDATE_REVIEW', 'candidate_rejected', 'AWAITING_ACTION'),
  edge('FINAL_VALIDATION', 'final_accepted', 'COMPLETED'),
  edge('FINAL_VALIDATION', 'final_rejected', 'AWAITING_ACTION'),
  ...ACTIVE_STATES.map((s) => edge(s, 'infrastructure_exhausted', 'WAITING_RETRY')),
  ...ACTIVE_STATES.map((s) => edge('WAITING_RETRY', 'resumed', s)),
  ...[...ACTIVE_STATES, 'WAITING_RETRY' as const, 'WAITING_FOR_USER' as const].map((s) => edge(s, 'failed', 'FAILED')),
  ...ACTIVE_STATES.map((s) => edge('FAILED', 'budget_raised', s)),
];

/** The states `event` may lead to from `from` (empty = illegal). */
export function targetsOf(from: TaskState, event: TaskEvent): TaskState[] {
  return TRANSITION_TABLE.filter((e) => e.from === from && e.event === event).map((e) => e.to);
}

export type TransitionResult = { ok: true; to: TaskState } | { ok: false; from: TaskState; event: TaskEvent; allowed: TaskState[] };

/**
 * Pure transition function. For events with one target `to` may be omitted; for `resumed` and
 * `user_answered` the caller names the stored state to return to, which must be a listed edge.
 */
export function transition(from: TaskState, event: TaskEvent, to?: TaskState): TransitionResult {
  const allowed = targetsOf(from, event);
  if (allowed.length === 0) return { ok: false, from, event, allowed };
  if (to === undefined) return allowed.length === 1 ? { ok: true, to: allowed[0] as TaskState } : { ok: false, from, event, allowed };
  return allowed.includes(to) ? { ok: true, to } : { ok: false, from, event, allowed };
}

/** Why a FAILED task failed (persisted beside the state). */
export const FAILURE_REASONS = ['FAILED_INTERNAL', 'FAILED_AUTHOR_FORMAT', 'NO_PROGRESS_LIMIT', 'BUDGET_EXHAUSTED', 'CANCELLED', 'VERIFIER_UNAVAILABLE'] as const;
export type FailureReason = (typeof FAILURE_REASONS)[number];

export const isTerminal = (state: TaskState): boolean => TERMINAL_STATES.includes(state);
export const isActive = (state: TaskState): boolean => ACTIVE_STATES.includes(state);
