import { claimsFileSchema } from '../domain/claims';
import type { Claim } from '../domain/claims';
import { cdslError, CdslErrorCode } from '../domain/errors';
import type { ClaimOutcome, VerifierContext } from '../domain/verifiers/types';
import type { CdslCatalog } from './cdslCatalog';
import type { SchemaIssue } from './schemaValidator';

export interface ClaimResult extends ClaimOutcome {
  id: string;
  kind: string;
  deterministic: boolean;
  /** Set for global invariants (seed §6.3): a failure blocks every candidate. */
  invariant?: boolean;
}

/**
 * Parses a claims file: the envelope (zod) and every claim's expected value against its
 * verifier's closed schema. Throws CDSL_SCHEMA_INVALID listing every issue. Unknown kinds are
 * kept: they evaluate to `unavailable` (never silently turned into visual claims).
 */
export function parseClaims(catalog: CdslCatalog, raw: unknown): Claim[] {
  const parsed = claimsFileSchema.safeParse(raw);
  if (!parsed.success) throw cdslError(CdslErrorCode.schemaInvalid, 'the claims file is invalid', { issues: parsed.error.issues.map((i) => ({ path: `/${i.path.join('/')}`, message: i.message })) });
  const issues: SchemaIssue[] = [];
  const ids = new Set<string>();
  parsed.data.claims.forEach((claim, index) => {
    if (ids.has(claim.id)) issues.push({ path: `/claims/${index}/id`, message: `duplicate claim id ${claim.id}` });
    ids.add(claim.id);
    const verifier = catalog.verifiers.get(claim.kind);
    if (verifier) issues.push(...catalog.validator.issues(verifier.expected_schema, claim.expected, `/claims/${index}/expected`));
  });
  if (issues.length > 0) throw cdslError(CdslErrorCode.schemaInvalid, `${issues.length} issue(s) in the claims file`, { issues: issues.slice(0, 50) });
  return parsed.data.claims;
}

/** Evaluates every claim against one revision; a throwing verifier is reported, not hidden. */
export function evaluateClaims(catalog: CdslCatalog, claims: Claim[], context: VerifierContext): ClaimResult[] {
  return claims.map((claim) => {
    const verifier = catalog.verifiers.get(claim.kind);
    if (!verifier) {
      return { id: claim.id, kind: claim.kind, deterministic: true, status: 'unavailable', message: `no verifier for claim kind ${claim.kind}`, evidence: { code: CdslErrorCode.verifierUnavailable } };
    }
    try {
      return { id: claim.id, kind: claim.kind, deterministic: verifier.deterministic, ...(verifier.global_invariant ? { invariant: true } : {}), ...verifier.evaluate(claim.expected, context) };
    } catch {
      return { id: claim.id, kind: claim.kind, deterministic: verifier.deterministic, status: 'unavailable', message: `verifier ${claim.kind} failed`, evidence: { code: CdslErrorCode.verifierUnavailable } };
    }
  });
}
