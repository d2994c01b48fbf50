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
  /** Final review only, one per visual claim: the reviewer's verdict and what in the renders shows it. */
  visual_verdicts?: VisualVerdict[];
}

export interface VisualVerdict {
  claim_id: string;
  verdict: 'pass' | 'fail';
  evidence: string;
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

/** One verdict per visual claim, each with the evidence seen in the renders. */
function visualVerdicts(ids: readonly string[]) {
  return z
    .array(z.object({ claim_id: idEnum(ids), verdict: z.enum(['pass', 'fail']), evidence: shortText(300).describe('what in the renders shows the verdict') }).strict())
    .min(ids.length)
    .max(ids.length);
}

/**
 * review_final: the independent reviewer's verdict on the final rebuild. With visual claims it
 * also carries `visual_verdicts`, one per visual claim (seed §6.4: publication needs a reviewer pass for each).
 */
export function reviewFinalTool(facts: { revisionId: string; claimIds: readonly string[]; visualClaimIds: readonly string[] }) {
  const visual = facts.visualClaimIds.length > 0 ? { visual_verdicts: visualVerdicts(facts.visualClaimIds) } : {};
  const schema = z.object({ revision_id: z.literal(facts.revisionId), verdict: z.enum(['accept', 'repair']), ...reviewShape(facts.claimIds), ...visual }).strict();
  const oneVerdictEach = (v: { visual_verdicts?: unknown }) => {
    const ids = ((v.visual_verdicts as { claim_id: string }[] | undefined) ?? []).map((x) => x.claim_id);
    return new Set(ids).size === facts.visualClaimIds.length ? [] : [{ path: '/visual_verdicts', message: `exactly one verdict per visual claim is required: ${facts.visualClaimIds.join(', ')}` }];
  };
  return zodTool('review_final', 'reviewer', 'Final independent review of the rebuilt revision against every claim and the source request; judge every visual claim from the renders.', schema, {
    extraChecks: (v: { claim_coverage: { claim_id: string }[]; visual_verdicts?: unknown }) => [...exactClaimSet(facts.claimIds)(v), ...oneVerdictEach(v)],
  });
}
