import { claimsDocument, completionMarkdown } from '../../domain/protocol/claimRecord';
import type { ClaimsDocument, JudgedClaim } from '../../domain/protocol/claimRecord';
import type { RequirementsContract } from '../../domain/protocol/task';
import type { TaskArtifacts } from './ports';

/** Task-folder names of the claim record (exports carry both). */
export const CLAIM_RECORD_FILES = { checklist: 'completion.md', results: 'claims.json' } as const;

/**
 * Rewrites completion.md and claims.json of a task from one revision's claim results: at the
 * freeze (every claim not evaluated yet), at each accepted revision, and at completion (the final
 * rebuild with the reviewer's visual verdicts). Errors: CDSL_STORAGE_FAILURE (retryable).
 */
export async function writeClaimRecord(artifacts: TaskArtifacts, contract: RequirementsContract, revisionId: string | null, stage: ClaimsDocument['stage'], results: readonly JudgedClaim[]): Promise<void> {
  const document = claimsDocument(contract, revisionId, stage, results);
  await artifacts.writeStep(contract.task_id, CLAIM_RECORD_FILES.checklist, completionMarkdown(document));
  await artifacts.writeStep(contract.task_id, CLAIM_RECORD_FILES.results, `${JSON.stringify(document, null, 2)}\n`);
}
