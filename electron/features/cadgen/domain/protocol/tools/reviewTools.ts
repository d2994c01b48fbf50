import { z } from 'zod';
import type { FieldIssue } from '../errors';
import { idEnum, shortText, zodTool } from './toolKit';

export const REVIEW_FINDING_CODES = ['wrong_geometry', 'wrong_dimension', 'wrong_location', 'missing_feature', 'claim_failed', 'visual_defect', 'other'] as const;
export const CLAIM_REVIEW_STATUSES = ['pass', 'fail', 'pending', 'unverified'] as const;

export interface ReviewValue {
  verdict: 'accept' | 'reject' | 'repair';
  claim_coverage: { claim_id: string; status: (typeof CLAIM_REVIEW_STATUSES)[number] }[];
  evidence: string[];
  issues: { code: (typeof REVIEW_FINDING_CODES)[number]; message: string }[];
}

function exactClaimSet(claimIds: readonly string[]) {
  return (v: { claim_coverage: { claim_id: string }[] }): FieldIssue[] => {
    const ids = v.claim_coverage.map((c) => c.claim_id);
    return new Set(ids).size === ids.length && ids.length === claimIds.length ? [] : [{ path: '/claim_coverage', message: `exactly one row per claim is required: ${claimIds.join(', ')}` }];
  };
}

function reviewShape(claimIds: readonly string[]) {
  return {
    claim_coverage: z.array(z.object({ claim_id: idEnum(claimIds), status: z.enum(CLAIM_REVIEW_STATUSES) }).strict()).min(1).max(128),
    evidence: z.array(shortText(300)).max(8),
    issues: z.array(z.object({ code: z.enum(REVIEW_FINDING_CODES), message: shortText(300) }).strict()).max(8),
  };
}

/** review_candidate: the independent reviewer's verdict on one staged candidate. */
export function reviewCandidateTool(facts: { candidateId: string; head: string; claimIds: readonly string[] }) {
  const schema = z.object({ candidate_id: z.literal(facts.candidateId), working_head: z.literal(facts.head), verdict: z.enum(['accept', 'reject']), ...reviewShape(facts.claimIds) }).strict();
  return zodTool('review_candidate', 'reviewer', 'Independently review the candidate: verdict plus one status row per claim.', schema, { extraChecks: exactClaimSet(facts.claimIds) });
}

/** review_final: the independent reviewer's verdict on the final rebuild. */
export function reviewFinalTool(facts: { revisionId: string; claimIds: readonly string[] }) {
  const schema = z.object({ revision_id: z.literal(facts.revisionId), verdict: z.enum(['accept', 'repair']), ...reviewShape(facts.claimIds) }).strict();
  return zodTool('review_final', 'reviewer', 'Final independent review of the rebuilt revision against every claim and the source request.', schema, { extraChecks: exactClaimSet(facts.claimIds) });
}
