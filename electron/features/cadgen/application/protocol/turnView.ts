import type { TurnView } from '../../domain/protocol/tools/exposure';
import type { TaskSnapshot } from './ports';
import { uncoveredSources } from './requirementHandlers';
import { FINAL_SUFFIX } from './serverSteps';
import type { CdslCatalog } from '../cdslCatalog';
import type { TopologySnapshot } from '../../domain/topology';

/** Deterministic claims on the head revision all pass and nothing is pending: completion is allowed. */
export function completionGateOpen(snapshot: TaskSnapshot): boolean {
  const { task, contract, pending } = snapshot;
  if (!contract || pending || !task.head_revision) return false;
  // One final validation per revision (seed §6): after a final review asked for a repair, the
  // gate stays closed until a new revision exists, so complete_task cannot loop.
  if (snapshot.claimResults.has(`${task.head_revision}${FINAL_SUFFIX}`)) return false;
  const results = snapshot.claimResults.get(task.head_revision) ?? [];
  return contract.contract.claims.filter((c) => c.deterministic).every((c) => results.find((r) => r.id === c.claim_id)?.status === 'pass');
}

/** Evidence, an open error, a final review's repair card or a claim failing on the head (TurnView.repairing). */
export function offHappyPath(snapshot: TaskSnapshot): boolean {
  const { task } = snapshot;
  if (task.evidence.length > 0 || task.last_error !== null) return true;
  if (!task.head_revision) return false;
  if (snapshot.claimResults.has(`${task.head_revision}${FINAL_SUFFIX}`)) return true;
  return (snapshot.claimResults.get(task.head_revision) ?? []).some((r) => r.status === 'fail');
}

/** Accepted ancestors of the head (the rollback targets). */
export function ancestorRevisions(snapshot: TaskSnapshot): string[] {
  const byId = new Map(snapshot.revisions.map((r) => [r.revision_id, r]));
  const out: string[] = [];
  let current = snapshot.task.head_revision ? byId.get(snapshot.task.head_revision)?.parent_revision ?? null : null;
  while (current) {
    out.push(current);
    current = byId.get(current)?.parent_revision ?? null;
  }
  return out;
}

/** Projects the persisted task onto the facts one turn's tools are narrowed to. */
export function turnViewOf(snapshot: TaskSnapshot, catalog: CdslCatalog, topology: TopologySnapshot | null): TurnView {
  const { task, contract, pending, observation } = snapshot;
  const inspected = observation && observation.head === task.working_head ? observation.snapshot_id : null;
  const pendingContract = pending ? catalog.contracts.get(pending.proposal.atomic_id) : undefined;
  const candidate = snapshot.candidates.find((c) => c.status === 'built');
  const boundSnapshot = inspected && topology && topology.snapshot_id === inspected ? topology : null;
  return {
    state: task.state,
    head: task.working_head,
    hasRevision: task.head_revision !== null,
    sourceIds: snapshot.sources.map((s) => s.source_id),
    draftIds: snapshot.drafts.map((d) => d.draft_id),
    draftComplete: snapshot.drafts.length > 0 && uncoveredSources(snapshot).length === 0 && task.last_error === null,
    requirementIds: contract?.contract.requirements.map((r) => r.requirement_id) ?? [],
    claimIds: contract?.contract.claims.map((c) => c.claim_id) ?? [],
    visualClaimIds: contract?.contract.claims.filter((c) => !c.deterministic).map((c) => c.claim_id) ?? [],
    claimKinds: [...catalog.verifiers.values()].map((v) => ({ kind: v.kind, summary: v.summary, expected_schema: v.expected_schema })),
    claimSchemasRead: task.notes.head === task.working_head && task.notes.claim_schemas !== undefined,
    operations: [...catalog.contracts.keys()],
    pending: pending && pendingContract ? { atomicId: pending.proposal.atomic_id, contractHash: pending.contract_hash, needsSnapshot: pendingContract.selector_policy.length > 0 || pendingContract.reference_policy.mode !== 'none' } : null,
    inspectedSnapshotId: inspected,
    fragmentSchema: pendingContract && pending?.contract_hash ? catalog.fragmentSchema(pendingContract.atomic_id, boundSnapshot) : null,
    evidenceRefs: task.evidence.map((e) => e.ref),
    checkpointTokens: ancestorRevisions(snapshot),
    completable: completionGateOpen(snapshot),
    repairing: offHappyPath(snapshot),
    candidate: candidate ? { id: candidate.candidate_id, head: candidate.base_head } : null,
    revisionId: task.head_revision,
  };
}
