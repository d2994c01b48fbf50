import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ACTIVE_STATES, TASK_EVENTS, TASK_STATES, TERMINAL_STATES, targetsOf, transition } from './states';
import type { TaskEvent, TaskState } from './states';

// Written out independently of the table so a changed edge fails here.
const EXPECTED: Record<string, TaskState[]> = {
  'DRAFTING_REQUIREMENTS requirements_finalized': ['REVIEWING_REQUIREMENTS'],
  'DRAFTING_REQUIREMENTS user_question': ['WAITING_FOR_USER'],
  'REVIEWING_REQUIREMENTS requirements_approved': ['AWAITING_ACTION'],
  'REVIEWING_REQUIREMENTS requirements_revise': ['DRAFTING_REQUIREMENTS'],
  'REVIEWING_REQUIREMENTS user_question': ['WAITING_FOR_USER'],
  'WAITING_FOR_USER user_answered': ['DRAFTING_REQUIREMENTS', 'AWAITING_ACTION'],
  'AWAITING_ACTION action_proposed': ['ACTION_PENDING'],
  'AWAITING_ACTION rolled_back': ['AWAITING_ACTION'],
  'AWAITING_ACTION user_question': ['WAITING_FOR_USER'],
  'AWAITING_ACTION complete_requested': ['FINAL_VALIDATION'],
  'ACTION_PENDING fragment_accepted': ['CANDIDATE_BUILDING'],
  'ACTION_PENDING rolled_back': ['AWAITING_ACTION'],
  'CANDIDATE_BUILDING candidate_built': ['CANDIDATE_REVIEW'],
  'CANDIDATE_BUILDING candidate_build_failed': ['AWAITING_ACTION'],
  'CANDIDATE_REVIEW candidate_accepted': ['AWAITING_ACTION'],
  'CANDIDATE_REVIEW candidate_rejected': ['AWAITING_ACTION'],
  'FINAL_VALIDATION final_accepted': ['COMPLETED'],
  'FINAL_VALIDATION final_rejected': ['AWAITING_ACTION'],
  'WAITING_RETRY resumed': [...ACTIVE_STATES],
  'WAITING_RETRY failed': ['FAILED'],
  'WAITING_FOR_USER failed': ['FAILED'],
  'FAILED budget_raised': [...ACTIVE_STATES],
};
for (const s of ACTIVE_STATES) {
  EXPECTED[`${s} infrastructure_exhausted`] = ['WAITING_RETRY'];
  EXPECTED[`${s} failed`] = ['FAILED'];
}

describe('task transition table', () => {
  it('allows exactly the expected edges for every state and event pair', () => {
    let legal = 0;
    for (const from of TASK_STATES) {
      for (const event of TASK_EVENTS) {
        const want = EXPECTED[`${from} ${event}`] ?? [];
        expect([...targetsOf(from, event)].sort(), `${from} --${event}-->`).toEqual([...want].sort());
        legal += want.length;
        const result = transition(from, event, want[0]);
        expect(result.ok, `${from} --${event}--> ${want[0] ?? '(none)'}`).toBe(want.length > 0);
      }
    }
    expect(legal).toBe(Object.values(EXPECTED).flat().length);
  });

  it('refuses a resume target that the task was never in and an ambiguous answer without a target', () => {
    expect(transition('WAITING_RETRY', 'resumed', 'COMPLETED').ok).toBe(false);
    expect(transition('WAITING_FOR_USER', 'user_answered').ok).toBe(false);
    expect(transition('WAITING_FOR_USER', 'user_answered', 'AWAITING_ACTION')).toEqual({ ok: true, to: 'AWAITING_ACTION' });
  });

  it('never leaves COMPLETED, leaves FAILED only by a budget raise, and only reaches COMPLETED through final validation, for any event sequence', () => {
    const stateArb = fc.constantFrom<TaskState>(...TASK_STATES);
    const stepArb = fc.record({ event: fc.constantFrom<TaskEvent>(...TASK_EVENTS), to: fc.option(stateArb, { nil: undefined }) });
    fc.assert(
      fc.property(fc.array(stepArb, { maxLength: 60 }), (steps) => {
        let state: TaskState = 'DRAFTING_REQUIREMENTS';
        for (const step of steps) {
          const before = state;
          const result = transition(state, step.event, step.to);
          if (TERMINAL_STATES.includes(before) && !(before === 'FAILED' && step.event === 'budget_raised')) expect(result.ok).toBe(false);
          if (before === 'FAILED' && result.ok) expect(ACTIVE_STATES).toContain(result.to);
          if (!result.ok) continue;
          if (result.to === 'COMPLETED') expect(before).toBe('FINAL_VALIDATION');
          if (result.to === 'WAITING_RETRY') expect(ACTIVE_STATES).toContain(before);
          state = result.to;
        }
      }),
    );
  });
});
