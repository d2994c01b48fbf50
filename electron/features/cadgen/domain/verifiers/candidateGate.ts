import type { ClaimStatus } from './types';

/** One claim's server result, as the candidate gate and review check read it. */
export interface GatedClaim {
  id: string;
  status: ClaimStatus;
  message: string;
  deterministic: boolean;
  /** A global invariant (single body...): its failure blocks every candidate. */
  invariant?: boolean;
}

export type BlockReason = 'targeted_claim_failed' | 'claim_regressed' | 'invariant_failed' | 'verifier_unavailable';

export interface CandidateBlocker {
  id: string;
  reason: BlockReason;
  message: string;
}

/**
 * Why a built candidate must be rejected whatever the reviewer says (seed §6.4): a deterministic
 * claim of a requirement the action targets fails; a claim that passed at the parent revision no
 * longer passes; a global invariant fails; or a verifier the decision needs is unavailable.
 * Pending claims (geometry still to come) never block.
 */
export function candidateBlockers(current: readonly GatedClaim[], parent: readonly GatedClaim[], targetedClaimIds: ReadonlySet<string>): CandidateBlocker[] {
  const passedBefore = new Set(parent.filter((c) => c.status === 'pass').map((c) => c.id));
  const blockers: CandidateBlocker[] = [];
  for (const claim of current) {
    if (!claim.deterministic) continue;
    const relevant = targetedClaimIds.has(claim.id) || claim.invariant === true;
    if (claim.status === 'unavailable' && relevant) blockers.push({ id: claim.id, reason: 'verifier_unavailable', message: claim.message });
    else if (claim.status === 'fail' && claim.invariant) blockers.push({ id: claim.id, reason: 'invariant_failed', message: claim.message });
    else if (claim.status === 'fail' && targetedClaimIds.has(claim.id)) blockers.push({ id: claim.id, reason: 'targeted_claim_failed', message: claim.message });
    else if (claim.status !== 'pass' && passedBefore.has(claim.id)) blockers.push({ id: claim.id, reason: 'claim_regressed', message: `passed at the parent revision, now ${claim.status}: ${claim.message}` });
  }
  return blockers;
}

/** A reviewer's claim row that disagrees with the server's result. */
export interface ReviewContradiction {
  claim_id: string;
  reviewer: string;
  server: ClaimStatus;
}

/**
 * Rows where the reviewer states a deterministic claim's status differently from the server
 * (seed §6.4: the reviewer may reject or give evidence for visual claims, never overrule a verifier).
 * `unverified` states nothing and never contradicts; `pending` is accepted for a claim the server
 * could not evaluate (unavailable).
 */
export function reviewContradictions(rows: readonly { claim_id: string; status: string }[], results: readonly GatedClaim[]): ReviewContradiction[] {
  const out: ReviewContradiction[] = [];
  for (const row of rows) {
    const result = results.find((r) => r.id === row.claim_id);
    if (!result || !result.deterministic || row.status === 'unverified') continue;
    if (result.status === 'unavailable' ? row.status !== 'pending' : row.status !== result.status) out.push({ claim_id: row.claim_id, reviewer: row.status, server: result.status });
  }
  return out;
}
