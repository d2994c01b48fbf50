import { AppError } from '../../../../../shared/errors';
import { canonicalJson } from '../../domain/canonicalJson';
import type { CdslDocument } from '../../domain/document';
import { runPreflights } from '../../domain/preflight';
import { protocolError, ProtocolErrorCode } from '../../domain/protocol/errors';
import { rejectedTwin } from '../../domain/protocol/noProgress';
import { afterRejection } from './rejectionLimit';
import type { FragmentCall } from '../../domain/protocol/tools/fragmentTool';
import type { ReviewValue } from '../../domain/protocol/tools/reviewTools';
import { resolveRefs } from '../../domain/resolveRefs';
import { candidateBlockers, reviewContradictions } from '../../domain/verifiers/candidateGate';
import type { CandidateBlocker } from '../../domain/verifiers/candidateGate';
import type { ClaimResult } from '../evaluateClaims';
import { writeClaimRecord } from './claimRecordFiles';
import { accepted, rejected } from './handlerTypes';
import type { Handler, HandlerResult } from './handlerTypes';
import { readRenderChoice } from './reviewRenders';
import type { CandidateRow, TaskSnapshot } from './ports';
import { headDocument, headMove, moveTo, nextRevisionId } from './transitions';

/** Maps a runtime validation error onto the protocol's side-effect-free categories. */
function fragmentRejection(error: AppError): AppError {
  if (error.code === 'CDSL_SCHEMA_INVALID') return protocolError(ProtocolErrorCode.authorFormatInvalid, error.message, error.data);
  if (error.code === 'CDSL_STALE_SNAPSHOT') return protocolError(ProtocolErrorCode.staleWorkingHead, error.message, error.data);
  if (error.code === 'CDSL_CONTRACT_UNKNOWN') return protocolError(ProtocolErrorCode.runtimeContractInvalid, error.message, error.data);
  return protocolError(ProtocolErrorCode.runtimePreconditionFailed, error.message, { cause: error.code, ...(error.data ?? {}) });
}

/**
 * submit_cdsl_fragment: canonical fragment validation, selector resolution and semantic
 * preflight against the head snapshot — all before any candidate exists — then one candidate
 * row (status building) keyed by task + head + action + fragment hash.
 */
export const handleSubmitFragment: Handler<FragmentCall> = async ({ snapshot, value, deps, topology }) => {
  const { task, pending } = snapshot;
  if (!pending) return rejected(protocolError(ProtocolErrorCode.authorDecisionRejected, 'no pending action'));
  const fragment = value.fragment as { feature?: { atomic_id?: string } };
  if (fragment.feature?.atomic_id !== pending.proposal.atomic_id) return rejected(protocolError(ProtocolErrorCode.authorDecisionRejected, `the fragment is not a ${pending.proposal.atomic_id}`));
  const base = headDocument(snapshot);
  const contract = deps.catalog.contracts.get(pending.proposal.atomic_id);
  if (!contract) return rejected(protocolError(ProtocolErrorCode.runtimeContractInvalid, `no contract for ${pending.proposal.atomic_id}`));
  let feature;
  try {
    feature = deps.catalog.validateFragment(value.fragment, pending.proposal.atomic_id, topology, base.features.length);
    runPreflights(contract.semantic_preflight, { feature, previous: topology, resolved: resolveRefs(contract, feature, topology) });
  } catch (error) {
    if (error instanceof AppError) return rejected(fragmentRejection(error));
    throw error;
  }
  const document: CdslDocument = { ...base, features: [...base.features, feature] };
  const fragmentSha = deps.sha256(canonicalJson(value.fragment));
  const key = deps.sha256(`${task.task_id}|${task.working_head}|${pending.action_id}|${fragmentSha}`);
  const twin = rejectedTwin(snapshot.candidates, task.working_head, fragmentSha);
  if (twin) {
    const why = snapshot.task.last_error && snapshot.task.last_error.message ? ` (${snapshot.task.last_error.message.slice(0, 200)})` : '';
    return rejected(protocolError(ProtocolErrorCode.fragmentAlreadyRejected, `this exact fragment was already ${twin.status === 'build_failed' ? 'built and failed' : 'rejected'} as ${twin.candidate_id}${why}: change the parameters that the rejection names, or roll back and choose another action`, { candidate_id: twin.candidate_id, fragment_sha256: fragmentSha }));
  }
  const existing = deps.repo.candidateByKey(task.task_id, key);
  if (existing) return rejected(protocolError(ProtocolErrorCode.authorDecisionRejected, `this exact fragment was already built as ${existing.candidate_id}`, { candidate_id: existing.candidate_id }));
  const candidate: CandidateRow = {
    candidate_id: deps.newId('cand'),
    action_id: pending.action_id,
    idempotency_key: key,
    base_head: task.working_head,
    fragment_sha256: fragmentSha,
    snapshot_id: value.snapshot_id,
    status: 'building',
    document_json: JSON.stringify(document),
    revision_id: nextRevisionId(snapshot),
    report_json: null,
  };
  return accepted({ candidate, task: { state: moveTo(task.state, 'fragment_accepted'), last_error: null }, outbox: [{ type: 'candidate_building', payload: { candidate_id: candidate.candidate_id } }] }, `building ${candidate.candidate_id}`);
};

/** The claims of the frozen contract in the shape the verifiers take. */
export const contractClaims = (snapshot: TaskSnapshot) => (snapshot.contract?.contract.claims ?? []).map((c) => ({ id: c.claim_id, kind: c.claim_kind, expected: c.expected }));

/** Deterministic claims that must all pass before publication (final rebuild, seed §6.4). */
export function deterministicBlockers(results: ClaimResult[]): ClaimResult[] {
  return results.filter((r) => r.deterministic && r.status !== 'pass');
}

/**
 * The candidate gate of seed §6.4 for one built candidate: claims of the requirements the pending
 * action targets, claims that passed at the parent (head) revision, global invariants.
 */
export function gateCandidate(snapshot: TaskSnapshot, requirementIds: readonly string[], results: ClaimResult[]): CandidateBlocker[] {
  const targeted = new Set((snapshot.contract?.contract.requirements ?? []).filter((r) => requirementIds.includes(r.requirement_id)).flatMap((r) => r.claim_ids));
  const parent = snapshot.task.head_revision ? (snapshot.claimResults.get(snapshot.task.head_revision) ?? []) : [];
  return candidateBlockers(results, parent, targeted);
}

/** A review whose claim rows contradict the server's results is refused as a malformed review (field-level issues, re-asked). */
export function contradictionRejection(rows: ReviewValue['claim_coverage'], results: ClaimResult[]): HandlerResult | null {
  const contradictions = reviewContradictions(rows, results);
  if (contradictions.length === 0) return null;
  const issues = contradictions.map((c) => ({ path: `/claim_coverage/${rows.findIndex((r) => r.claim_id === c.claim_id)}/status`, message: `${c.claim_id}: the server's verifier says ${c.server}, not ${c.reviewer} (write the server's status or unverified)` }));
  return rejected(protocolError(ProtocolErrorCode.reviewContradictsVerifier, `the review contradicts the server's claim results: ${issues.map((i) => i.message).join('; ')}`, { issues, contradictions }));
}

/**
 * review_candidate: a deterministic failure forces rejection (CLAIM_VERIFICATION_FAILED) even
 * when the reviewer accepts. Accept commits the revision, ledger, coverage and pending-action
 * clear in one transaction.
 */
export const handleReviewCandidate: Handler<ReviewValue & { candidate_id: string }> = async ({ snapshot, value, deps }): Promise<HandlerResult> => {
  const { task, pending } = snapshot;
  const candidate = snapshot.candidates.find((c) => c.candidate_id === value.candidate_id && c.status === 'built');
  if (!candidate || !pending) throw protocolError(ProtocolErrorCode.illegalTransition, 'candidate review without a built candidate and pending action');
  const report = JSON.parse(candidate.report_json ?? '{}') as { claims: ClaimResult[]; snapshot_id: string; manifest: unknown; dir: string };
  const contradiction = contradictionRejection(value.claim_coverage, report.claims);
  if (contradiction) return contradiction;
  const blockers = gateCandidate(snapshot, pending.proposal.requirement_ids, report.claims);
  const renders = await readRenderChoice(deps, task.task_id, `revisions/${candidate.revision_id}`, 'candidate');
  const review = { kind: 'candidate' as const, target: candidate.candidate_id, verdict: value.verdict, body: { ...value, render_choice: renders } };
  if (blockers.length > 0 || value.verdict === 'reject') {
    const error =
      blockers.length > 0
        ? protocolError(ProtocolErrorCode.claimVerificationFailed, `the candidate breaks claims: ${blockers.map((b) => `${b.id} (${b.reason.replace(/_/g, ' ')}) ${b.message}`).join('; ')}`, { claims: blockers.map((b) => b.id), blockers, reviewer_verdict: value.verdict })
        : protocolError(ProtocolErrorCode.candidateReviewRejected, `the reviewer rejected ${candidate.candidate_id}: ${value.issues.map((i) => i.message).join('; ')}`, { issues: value.issues });
    const change = afterRejection(snapshot, candidate, error, {
      review,
      candidate: { ...candidate, status: 'rejected' },
      pending: null,
      ledger: [{ event: 'review_rejected', action_id: candidate.action_id, candidate_id: candidate.candidate_id, code: error.code, summary: error.message.slice(0, 300) }],
      outbox: [{ type: 'candidate_rejected', payload: { candidate_id: candidate.candidate_id, code: error.code } }],
    }, 'candidate_rejected');
    return accepted(change, error.message);
  }
  const revisionId = candidate.revision_id;
  const results = report.claims;
  await deps.artifacts.writeStep(task.task_id, `revisions/${revisionId}/reviews/candidate-review.json`, JSON.stringify({ ...value, render_choice: renders }, null, 2));
  if (snapshot.contract) await writeClaimRecord(deps.artifacts, snapshot.contract.contract, revisionId, 'candidate', results);
  const coverage = (snapshot.contract?.contract.requirements ?? [])
    .filter((r) => pending.proposal.requirement_ids.includes(r.requirement_id))
    .map((r) => ({ requirement_id: r.requirement_id, status: r.claim_ids.every((id) => results.find((x) => x.id === id)?.status === 'pass') ? 'complete' : 'partial' }));
  return accepted(
    {
      review,
      candidate: { ...candidate, status: 'accepted' },
      revision: { revision_id: revisionId, parent_revision: task.head_revision, action_id: candidate.action_id, candidate_id: candidate.candidate_id, document_json: candidate.document_json, snapshot_id: report.snapshot_id, dir: `revisions/${revisionId}`, manifest_json: JSON.stringify(report.manifest) },
      claimResults: { revision_id: revisionId, results },
      pending: null,
      observation: null,
      task: { state: moveTo(task.state, 'candidate_accepted'), ...headMove(task, revisionId) },
      ledger: [
        {
          event: 'accepted', action_id: candidate.action_id, working_head_before: task.working_head, revision_id: revisionId, actual_atomic_id: pending.proposal.atomic_id, intent: pending.proposal.intent,
          fragment_sha256: candidate.fragment_sha256, selector_snapshot_id: candidate.snapshot_id, candidate_id: candidate.candidate_id,
          review_path: `revisions/${revisionId}/reviews/candidate-review.json`, coverage, summary: pending.proposal.expected_change,
        },
      ],
      outbox: [{ type: 'revision_accepted', payload: { revision_id: revisionId, action_id: candidate.action_id } }],
    },
    `accepted ${revisionId}`,
  );
};
