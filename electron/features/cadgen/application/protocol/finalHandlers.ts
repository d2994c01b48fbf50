import { protocolError, ProtocolErrorCode } from '../../domain/protocol/errors';
import type { ReviewValue } from '../../domain/protocol/tools/reviewTools';
import { contradictionRejection, deterministicBlockers } from './candidateHandlers';
import { accepted } from './handlerTypes';
import type { Handler } from './handlerTypes';
import { FINAL_SUFFIX } from './serverSteps';
import { moveTo } from './transitions';

/**
 * review_final: COMPLETED only when every deterministic claim of the final rebuild passes and
 * the independent reviewer accepts; otherwise back to action selection with a repair card.
 */
export const handleReviewFinal: Handler<ReviewValue & { revision_id: string }> = async ({ snapshot, value, deps }) => {
  const { task } = snapshot;
  const results = snapshot.claimResults.get(`${value.revision_id}${FINAL_SUFFIX}`) ?? [];
  const contradiction = contradictionRejection(value.claim_coverage, results);
  if (contradiction) return contradiction;
  const blockers = deterministicBlockers(results);
  const review = { kind: 'final' as const, target: value.revision_id, verdict: value.verdict, body: value };
  if (blockers.length > 0 || value.verdict !== 'accept') {
    const error =
      blockers.length > 0
        ? protocolError(ProtocolErrorCode.claimVerificationFailed, `final claims failed: ${blockers.map((b) => `${b.id} ${b.message}`).join('; ')}`, { claims: blockers.map((b) => b.id) })
        : protocolError(ProtocolErrorCode.candidateReviewRejected, `final review asked for repair: ${value.issues.map((i) => i.message).join('; ')}`, { issues: value.issues });
    return accepted(
      { review, task: { state: moveTo(task.state, 'final_rejected'), last_error: error.toData() }, ledger: [{ event: 'final_rejected', revision_id: value.revision_id, code: error.code, summary: error.message.slice(0, 300) }], outbox: [{ type: 'final_rejected', payload: { code: error.code } }] },
      error.message,
    );
  }
  await deps.artifacts.writeStep(task.task_id, `revisions/${value.revision_id}/reviews/final-review.json`, JSON.stringify(value, null, 2));
  await deps.artifacts.writeStep(task.task_id, 'result.json', JSON.stringify({ task_id: task.task_id, revision_id: value.revision_id, step: `revisions/${value.revision_id}/model.step`, glb: `revisions/${value.revision_id}/model.glb`, claims: results.map((r) => ({ id: r.id, status: r.status })) }, null, 2));
  return accepted(
    {
      review,
      task: { state: moveTo(task.state, 'final_accepted'), last_error: null },
      ledger: [{ event: 'completed', revision_id: value.revision_id, claims_passed: results.filter((r) => r.status === 'pass').length }],
      outbox: [{ type: 'completed', payload: { revision_id: value.revision_id } }],
    },
    `completed with ${value.revision_id}`,
  );
};
