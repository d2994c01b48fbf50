import { raiseBudget } from '../../domain/protocol/budgetFit';
import type { TaskBudget } from '../../domain/protocol/budgets';
import { protocolError, ProtocolErrorCode } from '../../domain/protocol/errors';
import { isActive, isTerminal } from '../../domain/protocol/states';
import type { TaskRecord } from '../../domain/protocol/task';
import type { TaskChange } from './ports';
import { moveTo } from './transitions';

/**
 * The change that lets `resume` drive `task` again, or null when it can continue as it is (a run
 * interrupted in an active state). `raise` is an explicit larger budget: the only way back from
 * FAILED (BUDGET_EXHAUSTED), also accepted for a waiting or interrupted task.
 * Errors: CDSL_TASK_NOT_RESUMABLE (terminal; an exhausted task without a raise names the limit to
 * raise), CDSL_AUTHOR_DECISION_REJECTED (waits for an answer), CDSL_BUDGET_INVALID (see raiseBudget).
 */
export function resumeChange(task: TaskRecord, raise?: Partial<TaskBudget>): TaskChange | null {
  const exhausted = task.state === 'FAILED' && task.failure_reason === 'BUDGET_EXHAUSTED' && task.resume_state !== null && isActive(task.resume_state);
  if (isTerminal(task.state) && !(exhausted && raise)) {
    const limit = (task.last_error?.data as { limit?: string } | undefined)?.limit;
    const hint = exhausted ? `; give it a larger budget, e.g. --budget ${limit ?? 'author_turns'}=N` : '; a finished task cannot be resumed';
    throw protocolError(ProtocolErrorCode.taskNotResumable, `task ${task.task_id} is ${task.state}${task.failure_reason ? ` (${task.failure_reason})` : ''}${hint}`, { state: task.state, failure_reason: task.failure_reason, ...(exhausted ? { limit: limit ?? null } : {}) });
  }
  if (task.state === 'WAITING_FOR_USER') throw protocolError(ProtocolErrorCode.authorDecisionRejected, `task ${task.task_id} waits for an answer; resume applies to WAITING_RETRY, an interrupted run or a task out of budget`);
  const budget = raise ? { budget: raiseBudget(task.budget, task.usage, raise), budget_overrides: { ...(task.budget_overrides ?? {}), ...raise } } : {};
  const ledger = raise ? [{ event: 'budget_raised' as const, limits: raise }] : [];
  if (task.state === 'FAILED' || task.state === 'WAITING_RETRY') {
    const to = task.resume_state ?? 'AWAITING_ACTION';
    const event = task.state === 'FAILED' ? 'budget_raised' : 'resumed';
    return {
      task: { state: moveTo(task.state, event, to), resume_state: null, failure_reason: null, last_error: null, ...budget },
      ledger,
      outbox: [{ type: 'resumed', payload: { state: to, ...(raise ? { budget: raise } : {}) } }],
    };
  }
  return raise ? { task: budget, ledger, outbox: [{ type: 'budget_raised', payload: { budget: raise } }] } : null;
}
