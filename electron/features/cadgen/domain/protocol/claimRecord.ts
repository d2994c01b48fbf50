import type { ClaimOutcome } from '../verifiers/types';
import type { RequirementsContract } from './task';

/** One claim's result as the server (or, for a visual claim, the independent reviewer) judged it. */
export interface JudgedClaim extends ClaimOutcome {
  id: string;
  kind: string;
  deterministic: boolean;
}

/** One row of claims.json: what was claimed, how it came out, what was measured and why. */
export interface ClaimRecordRow {
  claim_id: string;
  /** Null for server invariants that no requirement owns (e.g. the STEP re-import check). */
  requirement_id: string | null;
  kind: string;
  deterministic: boolean;
  status: ClaimOutcome['status'] | 'not_evaluated';
  expected: Record<string, unknown> | null;
  /** The verifier's evidence without its bookkeeping keys (what the geometry measured as). */
  measured: Record<string, unknown>;
  message: string;
  evidence: Record<string, unknown>;
}

/** claims.json: the machine-readable claim results of one revision (exports carry it beside completion.md). */
export interface ClaimsDocument {
  schema_version: 'cad.claim-results.v1';
  task_id: string;
  revision_id: string | null;
  /** candidate: results at acceptance; final: the final rebuild with the reviewer's visual verdicts. */
  stage: 'contract' | 'candidate' | 'final';
  passed: number;
  total: number;
  claims: ClaimRecordRow[];
}

const BOOKKEEPING = new Set(['code', 'expected', 'description']);
const measuredOf = (evidence: Record<string, unknown>): Record<string, unknown> => Object.fromEntries(Object.entries(evidence).filter(([key]) => !BOOKKEEPING.has(key)));

/**
 * Every contract claim in contract order (a claim without a result is `not_evaluated`), then the
 * results no contract claim owns (server invariants). Pure: the same inputs give the same bytes.
 */
export function claimsDocument(contract: RequirementsContract, revisionId: string | null, stage: ClaimsDocument['stage'], results: readonly JudgedClaim[]): ClaimsDocument {
  const rows: ClaimRecordRow[] = contract.claims.map((claim) => {
    const result = results.find((r) => r.id === claim.claim_id);
    return {
      claim_id: claim.claim_id, requirement_id: claim.requirement_id, kind: claim.claim_kind, deterministic: claim.deterministic, status: result?.status ?? 'not_evaluated', expected: claim.expected,
      measured: result ? measuredOf(result.evidence) : {}, message: result?.message ?? 'not evaluated yet', evidence: result?.evidence ?? {},
    };
  });
  for (const result of results) {
    if (contract.claims.some((c) => c.claim_id === result.id)) continue;
    rows.push({ claim_id: result.id, requirement_id: null, kind: result.kind, deterministic: result.deterministic, status: result.status, expected: null, measured: measuredOf(result.evidence), message: result.message, evidence: result.evidence });
  }
  return { schema_version: 'cad.claim-results.v1', task_id: contract.task_id, revision_id: revisionId, stage, passed: rows.filter((r) => r.status === 'pass').length, total: rows.length, claims: rows };
}

const compact = (value: unknown, max = 240): string => {
  const text = JSON.stringify(value);
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
};

/** completion.md: the acceptance checklist, one box per claim, checked only for a pass, with what was measured. */
export function completionMarkdown(document: ClaimsDocument): string {
  const heading = document.revision_id ? `# Completion checklist — ${document.revision_id} (${document.stage}: ${document.passed}/${document.total} pass)` : '# Completion checklist';
  const lines = [heading, ''];
  for (const row of document.claims) {
    const owner = row.requirement_id ? ` (${row.requirement_id})` : ' (server invariant)';
    const expected = row.expected ? ` ${compact(row.expected)}` : '';
    const judge = row.deterministic ? '' : ' — visual, reviewer judgement';
    lines.push(`- [${row.status === 'pass' ? 'x' : ' '}] ${row.claim_id}${owner} ${row.kind}${expected}${judge}`);
    if (row.status !== 'not_evaluated') {
      lines.push(`  - status: **${row.status}** — ${row.message}`);
      if (Object.keys(row.measured).length > 0) lines.push(`  - measured: \`${compact(row.measured)}\``);
    }
  }
  return `${lines.join('\n')}\n`;
}
