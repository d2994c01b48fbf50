/**
 * Dead-loop limits of the candidate cycle (issue 24, seed §6.1): a checkpoint that keeps
 * producing rejected or unbuildable candidates is no progress, whatever the author proposes.
 */

/** Rejected or failed candidates on one working head before the task stops with NO_PROGRESS_LIMIT. */
export const MAX_REJECTIONS_PER_HEAD = 3;

/** The fields of a candidate these rules read. */
export interface CandidateTrace {
  candidate_id: string;
  base_head: string;
  fragment_sha256: string;
  status: string;
}

const isRejected = (c: CandidateTrace): boolean => c.status === 'rejected' || c.status === 'build_failed';

/** A candidate with the same fragment on the same head that was already rejected or failed to build (rebuilding it cannot help). */
export function rejectedTwin(candidates: readonly CandidateTrace[], head: string, fragmentSha: string): CandidateTrace | undefined {
  return candidates.find((c) => c.base_head === head && c.fragment_sha256 === fragmentSha && isRejected(c));
}

/** Rejections on `head` counting the one being decided now (`current`, not yet stored as rejected). */
export function rejectionsOnHead(candidates: readonly CandidateTrace[], head: string, current: string): number {
  return candidates.filter((c) => c.base_head === head && c.candidate_id !== current && isRejected(c)).length + 1;
}
