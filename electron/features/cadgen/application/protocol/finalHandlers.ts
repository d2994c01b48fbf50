import { protocolError, ProtocolErrorCode } from '../../domain/protocol/errors';
import type { ReviewValue, VisualVerdict } from '../../domain/protocol/tools/reviewTools';
import type { ClaimResult } from '../evaluateClaims';
import { contradictionRejection, deterministicBlockers } from './candidateHandlers';
import { writeClaimRecord } from './claimRecordFiles';
import { accepted } from './handlerTypes';
import type { Handler } from './handlerTypes';
import { readRenderChoice } from './reviewRenders';
import { FINAL_SUFFIX } from './serverSteps';
import { moveTo } from './transitions';

/** The reviewer's verdicts on the visual (non-deterministic) claims: which lack one, which failed, and the judged rows. */
function judgeVisualClaims(results: ClaimResult[], verdicts: VisualVerdict[]): { missing: string[]; failed: ClaimResult[]; judged: ClaimResult[] } {
  const visual = results.filter((r) => !r.deterministic);
  const judged = visual.flatMap((r): ClaimResult[] => {
    const v = verdicts.find((x) => x.claim_id === r.id);
    return v ? [{ ...r, status: v.verdict, message: `independent reviewer: ${v.evidence}`, evidence: { ...r.evidence, reviewer_verdict: v.verdict, reviewer_evidence: v.evidence } }] : [];
  });
  return { missing: visual.filter((r) => !judged.some((j) => j.id === r.id)).map((r) => r.id), failed: judged.filter((j) => j.status === 'fail'), judged };
}

/**
 * review_final: COMPLETED only when every deterministic claim of the final rebuild passes, every
 * visual claim has the reviewer's pass with evidence, and the independent reviewer accepts; otherwise back to action selection with a repair card.
 */
export const handleReviewFinal: Handler<ReviewValue & { revision_id: string }> = async ({ snapshot, value, deps }) => {
  const { task } = snapshot;
  const results = snapshot.claimResults.get(`${value.revision_id}${FINAL_SUFFIX}`) ?? [];
  const contradiction = contradictionRejection(value.claim_coverage, results);
  if (contradiction) return contradiction;
  const blockers = deterministicBlockers(results);
  const visual = judgeVisualClaims(results, value.visual_verdicts ?? []);
  const revisionDir = snapshot.revisions.find((r) => r.revision_id === value.revision_id)?.dir;
  const renders = revisionDir ? await readRenderChoice(deps, task.task_id, revisionDir, 'final') : null;
  const review = { kind: 'final' as const, target: value.revision_id, verdict: value.verdict, body: { ...value, render_choice: renders } };
  if (blockers.length > 0 || visual.missing.length > 0 || visual.failed.length > 0 || value.verdict !== 'accept') {
    const error =
      blockers.length > 0
        ? protocolError(ProtocolErrorCode.claimVerificationFailed, `final claims failed: ${blockers.map((b) => `${b.id} ${b.message}`).join('; ')}`, { claims: blockers.map((b) => b.id) })
        : visual.missing.length > 0
          ? protocolError(ProtocolErrorCode.visualVerdictMissing, `no reviewer verdict for visual claim(s) ${visual.missing.join(', ')}: completion needs a pass with evidence for each`, { claims: visual.missing })
          : visual.failed.length > 0
            ? protocolError(ProtocolErrorCode.claimVerificationFailed, `the reviewer judged visual claim(s) failed: ${visual.failed.map((f) => `${f.id} ${f.message}`).join('; ')}`, { claims: visual.failed.map((f) => f.id) })
            : protocolError(ProtocolErrorCode.candidateReviewRejected, `final review asked for repair: ${value.issues.map((i) => i.message).join('; ')}`, { issues: value.issues });
    return accepted(
      { review, task: { state: moveTo(task.state, 'final_rejected'), last_error: error.toData() }, ledger: [{ event: 'final_rejected', revision_id: value.revision_id, code: error.code, summary: error.message.slice(0, 300) }], outbox: [{ type: 'final_rejected', payload: { code: error.code } }] },
      error.message,
    );
  }
  await deps.artifacts.writeStep(task.task_id, `revisions/${value.revision_id}/reviews/final-review.json`, JSON.stringify({ ...value, render_choice: renders }, null, 2));
  const judged = results.map((r) => visual.judged.find((j) => j.id === r.id) ?? r);
  if (snapshot.contract) await writeClaimRecord(deps.artifacts, snapshot.contract.contract, value.revision_id, 'final', judged);
  await deps.artifacts.writeStep(task.task_id, 'result.json', JSON.stringify({ task_id: task.task_id, revision_id: value.revision_id, step: `revisions/${value.revision_id}/model.step`, glb: `revisions/${value.revision_id}/model.glb`, claims: judged.map((r) => ({ id: r.id, status: r.status })) }, null, 2));
  return accepted(
    {
      review,
      // The visual claims' final rows now hold the reviewer's verdict and evidence (the deterministic rows stay the server's).
      ...(visual.judged.length > 0 ? { claimResults: { revision_id: `${value.revision_id}${FINAL_SUFFIX}`, results: visual.judged } } : {}),
      task: { state: moveTo(task.state, 'final_accepted'), last_error: null },
      ledger: [{ event: 'completed', revision_id: value.revision_id, claims_passed: judged.filter((r) => r.status === 'pass').length }],
      outbox: [{ type: 'completed', payload: { revision_id: value.revision_id } }],
    },
    `completed with ${value.revision_id}`,
  );
};
