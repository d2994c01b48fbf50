import { canonicalJson } from '../../domain/canonicalJson';
import { budgetBasis, fitBudget } from '../../domain/protocol/budgetFit';
import { protocolError, ProtocolErrorCode } from '../../domain/protocol/errors';
import { seqId } from '../../domain/protocol/task';
import type { ContractClaim, ContractRequirement, DraftItem, RequirementsContract } from '../../domain/protocol/task';
import type { RequirementItem, RequirementPatch, ReviewRequirementsValue } from '../../domain/protocol/tools/requirementTools';
import { transition } from '../../domain/protocol/states';
import { accepted, rejected } from './handlerTypes';
import type { Handler, HandlerResult } from './handlerTypes';
import type { TaskSnapshot } from './ports';
import { writeClaimRecord } from './claimRecordFiles';
import { renderRequirementsMd } from './renderMarkdown';

function nextDraftNumber(snapshot: TaskSnapshot): number {
  return snapshot.drafts.reduce((m, d) => Math.max(m, Number(d.draft_id.slice(2))), 0) + 1;
}

const moveTo = (snapshot: TaskSnapshot, event: Parameters<typeof transition>[1], to?: Parameters<typeof transition>[2]) => {
  const result = transition(snapshot.task.state, event, to);
  if (!result.ok) throw protocolError(ProtocolErrorCode.illegalTransition, `${snapshot.task.state} --${event}--> is not a legal edge`, { from: result.from, event, allowed: result.allowed });
  return result.to;
};

/** submit_requirements_draft_batch: stores validated items under server-assigned draft ids. */
export const handleDraftBatch: Handler<{ items: RequirementItem[] }> = async ({ snapshot, value }) => {
  const duplicate = value.items.find((item) => snapshot.drafts.some((d) => d.item.statement === item.statement));
  if (duplicate) return rejected(protocolError(ProtocolErrorCode.authorDecisionRejected, 'a draft item with the same statement exists; patch it instead', { statement: duplicate.statement }));
  const first = nextDraftNumber(snapshot);
  const drafts: DraftItem[] = value.items.map((item, i) => ({ draft_id: seqId('d', first + i), item }));
  return accepted({ drafts, task: { last_error: null } }, `stored ${drafts.map((d) => d.draft_id).join(', ')}`);
};

/** patch_requirements_draft: replace or remove items by id. */
export const handlePatchDraft: Handler<{ patches: RequirementPatch[] }> = async ({ value }) => {
  const drafts = value.patches.flatMap((p) => (p.op === 'replace' ? [{ draft_id: p.target_draft_id, item: p.item }] : []));
  const removeDrafts = value.patches.flatMap((p) => (p.op === 'remove' ? [p.target_draft_id] : []));
  return accepted({ drafts, removeDrafts, task: { last_error: null } }, `patched ${value.patches.length} item(s)`);
};

/** Source ids no draft item cites (the finalize gate). */
export const uncoveredSources = (snapshot: TaskSnapshot): string[] => snapshot.sources.map((s) => s.source_id).filter((id) => !snapshot.drafts.some((d) => d.item.source_ids.includes(id)));

/** finalize_requirements_draft: refused while a source is uncovered (REQUIREMENTS_COVERAGE_INCOMPLETE). */
export const handleFinalizeDraft: Handler<Record<string, never>> = async ({ snapshot }) => {
  const missing = uncoveredSources(snapshot);
  if (snapshot.drafts.length === 0 || missing.length > 0) return rejected(protocolError(ProtocolErrorCode.requirementsCoverageIncomplete, `sources without a requirement: ${missing.join(', ') || '(no drafts)'}`, { uncovered: missing }));
  return accepted({ task: { state: moveTo(snapshot, 'requirements_finalized'), last_error: null }, ledger: [], outbox: [{ type: 'state', payload: { state: 'REVIEWING_REQUIREMENTS' } }] }, 'submitted for independent review');
};

/** Freezes the drafts into the contract: req_/claim_ ids in draft order. */
export function freezeContract(snapshot: TaskSnapshot, deterministic: (kind: string) => boolean | undefined): RequirementsContract | { unavailable: string[] } {
  const requirements: ContractRequirement[] = [];
  const claims: ContractClaim[] = [];
  const unavailable: string[] = [];
  snapshot.drafts.forEach((draft, i) => {
    const requirementId = seqId('req', i + 1);
    const claimIds = draft.item.acceptance_claims.map((claim) => {
      const claimId = seqId('claim', claims.length + 1);
      const det = deterministic(claim.claim_kind);
      if (det === undefined) unavailable.push(claim.claim_kind);
      claims.push({ claim_id: claimId, requirement_id: requirementId, claim_kind: claim.claim_kind, expected: claim.expected as Record<string, unknown>, deterministic: det ?? true });
      return claimId;
    });
    requirements.push({ requirement_id: requirementId, draft_id: draft.draft_id, statement: draft.item.statement, source_ids: draft.item.source_ids, assumptions: draft.item.assumptions, claim_ids: claimIds });
  });
  if (unavailable.length > 0) return { unavailable };
  return { schema_version: 'cad.requirements-contract.v1', task_id: snapshot.task.task_id, requirements, claims };
}

/** review_requirements: approve freezes and renders; revise returns to drafting; ambiguity waits for the user. */
export const handleReviewRequirements: Handler<ReviewRequirementsValue> = async ({ snapshot, value, deps }): Promise<HandlerResult> => {
  const { task } = snapshot;
  const review = { kind: 'requirements' as const, target: `drafts@${snapshot.drafts.map((d) => d.draft_id).join(',')}`, verdict: value.verdict, body: value };
  const uncovered = snapshot.sources.map((s) => s.source_id).filter((id) => !value.coverage.find((c) => c.source_id === id));
  if (value.verdict === 'waiting_for_user' || (value.verdict === 'revise' && task.usage.requirementRevisions + 1 >= task.budget.maxRequirementRevisions)) {
    const question = value.question ?? { reason_code: 'ambiguous_intent', text: `The requirements could not be agreed after ${task.budget.maxRequirementRevisions} review rounds: ${value.issues.map((i) => i.message).join('; ').slice(0, 240)}` };
    return { kind: 'waiting', change: { review, task: { state: moveTo(snapshot, 'user_question'), resume_state: 'DRAFTING_REQUIREMENTS', question }, outbox: [{ type: 'question', payload: question }], ledger: [{ event: 'waiting', reason: question.reason_code }] }, message: question.text };
  }
  if (value.verdict === 'revise' || uncovered.length > 0) {
    const feedback = value.issues.map((i) => `${i.draft_id ?? '-'}: [${i.code}] ${i.message}`).join('\n') || 'revise';
    return accepted(
      { review, task: { state: moveTo(snapshot, 'requirements_revise'), usage: { ...task.usage, requirementRevisions: task.usage.requirementRevisions + 1 }, last_error: protocolError(ProtocolErrorCode.authorDecisionRejected, `requirements review asked for changes:\n${feedback}`).toData() } },
      'the reviewer asked for revisions',
    );
  }
  const frozen = freezeContract(snapshot, (kind) => deps.catalog.verifiers.get(kind)?.deterministic);
  if ('unavailable' in frozen) return rejected(protocolError(ProtocolErrorCode.verifierUnavailable, `no verifier for: ${frozen.unavailable.join(', ')}`, { kinds: frozen.unavailable }));
  const text = canonicalJson(frozen);
  const hash = deps.sha256(text);
  const id = task.task_id;
  await deps.artifacts.writeStep(id, 'documents/requirements-review-v1.json', JSON.stringify(value, null, 2));
  await deps.artifacts.writeStep(id, 'requirements-contract.json', JSON.stringify(frozen, null, 2));
  await deps.artifacts.writeStep(id, 'requirements.md', renderRequirementsMd(frozen));
  await writeClaimRecord(deps.artifacts, frozen, null, 'contract', []);
  await deps.artifacts.writeStep(id, 'requirements-index.json', JSON.stringify({ requirements: frozen.requirements.map((r) => ({ id: r.requirement_id, claims: r.claim_ids })), claims: frozen.claims.map((c) => ({ id: c.claim_id, kind: c.claim_kind })) }, null, 2));
  // The budget fits the part from here on (issue 24): tasks older than fitted budgets keep theirs.
  const basis = budgetBasis(frozen);
  const fitted = task.budget_overrides ? { budget: fitBudget(basis, task.budget_overrides), budget_basis: basis } : {};
  return accepted(
    { review, contract: { contract: frozen, hash }, task: { state: moveTo(snapshot, 'requirements_approved'), last_error: null, ...fitted }, outbox: [{ type: 'contract_frozen', payload: { contract_hash: hash, requirements: frozen.requirements.length, claims: frozen.claims.length, ...(fitted.budget ? { features: basis.features, max_author_turns: fitted.budget.maxAuthorTurns } : {}) } }] },
    `contract frozen with ${frozen.requirements.length} requirement(s) and ${frozen.claims.length} claim(s)`,
  );
};
