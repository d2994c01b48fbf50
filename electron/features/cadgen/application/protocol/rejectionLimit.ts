import type { AppError } from '../../../../../shared/errors';
import { protocolError, ProtocolErrorCode } from '../../domain/protocol/errors';
import { MAX_REJECTIONS_PER_HEAD, rejectionsOnHead } from '../../domain/protocol/noProgress';
import type { CandidateRow, TaskChange, TaskSnapshot } from './ports';
import { moveTo } from './transitions';

/**
 * Completes the change of a rejected or unbuildable candidate: back to action selection with the
 * rejection as the author's repair card (and the attempts left on this checkpoint), or — at the
 * MAX_REJECTIONS_PER_HEAD-th rejection on one checkpoint — FAILED with NO_PROGRESS_LIMIT and a
 * card that lists every rejection, so a reviewer that never accepts cannot burn the budget.
 */
export function afterRejection(snapshot: TaskSnapshot, candidate: CandidateRow, error: AppError, change: TaskChange, event: 'candidate_rejected' | 'candidate_build_failed'): TaskChange {
  const { task } = snapshot;
  const evidence = [...task.evidence, { ref: `ev_${candidate.candidate_id}`, summary: error.message.slice(0, 300) }].slice(-5);
  const count = rejectionsOnHead(snapshot.candidates, candidate.base_head, candidate.candidate_id);
  const data = error.toData();
  if (count < MAX_REJECTIONS_PER_HEAD) {
    const lastError = { ...data, data: { ...(data.data ?? {}), attempts_left_on_checkpoint: MAX_REJECTIONS_PER_HEAD - count } };
    return { ...change, task: { ...(change.task ?? {}), state: moveTo(task.state, event), last_error: lastError, evidence } };
  }
  const card = {
    checkpoint: task.head_revision,
    rejected_candidates: [...snapshot.candidates.filter((c) => c.base_head === candidate.base_head && (c.status === 'rejected' || c.status === 'build_failed')).map((c) => c.candidate_id), candidate.candidate_id],
    reasons: evidence.map((e) => e.summary),
    advice: 'Each candidate on this checkpoint was rejected. Read the reasons: fix the named claim or parameter, split the action, or start again from an earlier revision; the same fragment is never rebuilt.',
  };
  const limit = protocolError(ProtocolErrorCode.noProgressLimit, `${count} candidates in a row were rejected at checkpoint ${task.head_revision ?? '(empty)'}; last: ${error.message.slice(0, 240)}`, { repair_card: card, last: data });
  return {
    ...change,
    task: { ...(change.task ?? {}), state: moveTo(task.state, 'failed'), failure_reason: 'NO_PROGRESS_LIMIT', last_error: limit.toData(), evidence },
    ledger: [...(change.ledger ?? []), { event: 'failed', reason: 'NO_PROGRESS_LIMIT', code: limit.code, action_id: candidate.action_id }],
    outbox: [...(change.outbox ?? []), { type: 'failed', payload: { reason: 'NO_PROGRESS_LIMIT', code: limit.code } }],
  };
}
