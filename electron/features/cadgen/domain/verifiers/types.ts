import type { JsonSchema } from '../contracts/schemaParts';
import type { TopologySnapshot } from '../topology';

export type ClaimStatus = 'pass' | 'pending' | 'fail' | 'unavailable';
export type RequiredArtifact = 'topology' | 'measurements' | 'renders';

/** What a verifier may look at: the rebuilt revision's topology and the renders when produced. */
export interface VerifierContext {
  /** null when the build failed before any solid existed. */
  snapshot: TopologySnapshot | null;
  /** candidate: a claim whose geometry does not exist yet may still be made by later actions (pending); final: absent = fail. */
  stage: 'candidate' | 'final';
  /** Relative paths of line-drawing renders, when the artifact step produced them. */
  renders?: string[];
}

export interface ClaimOutcome {
  status: ClaimStatus;
  message: string;
  /** Structured evidence: measured values, tolerances, entity tokens. */
  evidence: Record<string, unknown>;
}

/**
 * A registered claim kind. `expected_schema` is a closed JSON Schema of the claim's expected
 * value; `evaluate` receives an already schema-validated value and never throws for geometry
 * it does not find (that is `pending`/`fail` with evidence).
 */
export interface ClaimVerifier {
  kind: string;
  summary: string;
  deterministic: boolean;
  /**
   * How this verifier tells `pending` (the geometry the claim is about does not exist yet) from
   * `fail` (it exists and contradicts the claim). Shown to authors and reviewers; the registry
   * refuses a verifier without one.
   */
  pending_rule: string;
  /** A global invariant (seed §6.3): its failure rejects every candidate, whatever the action targets. */
  global_invariant?: boolean;
  expected_schema: JsonSchema;
  required_artifacts: RequiredArtifact[];
  evaluate(expected: Record<string, unknown>, context: VerifierContext): ClaimOutcome;
}

/**
 * The geometry the claim is about does not exist yet: `pending` at a candidate (a later action may
 * make it), `fail` at the final rebuild (nothing will).
 */
export const absent = (context: VerifierContext, message: string, evidence: Record<string, unknown>): ClaimOutcome => ({
  status: context.stage === 'final' ? 'fail' : 'pending',
  message,
  evidence: { ...evidence, subject: 'absent' },
});

/** The geometry the claim is about exists and contradicts it: `fail` at every stage. */
export const contradicted = (message: string, evidence: Record<string, unknown>): ClaimOutcome => ({ status: 'fail', message, evidence: { ...evidence, subject: 'contradicted' } });
