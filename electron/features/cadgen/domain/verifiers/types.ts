import type { JsonSchema } from '../contracts/schemaParts';
import type { TopologySnapshot } from '../topology';

export type ClaimStatus = 'pass' | 'pending' | 'fail' | 'unavailable';
export type RequiredArtifact = 'topology' | 'measurements' | 'renders';

/** What a verifier may look at: the rebuilt revision's topology and the renders when produced. */
export interface VerifierContext {
  /** null when the build failed before any solid existed. */
  snapshot: TopologySnapshot | null;
  /** candidate: unmet claims may still be satisfied by later actions (pending); final: unmet = fail. */
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
  expected_schema: JsonSchema;
  required_artifacts: RequiredArtifact[];
  evaluate(expected: Record<string, unknown>, context: VerifierContext): ClaimOutcome;
}

/** Outcome for geometry that does not (yet) satisfy the claim. */
export const unmet = (context: VerifierContext, message: string, evidence: Record<string, unknown>): ClaimOutcome => ({
  status: context.stage === 'final' ? 'fail' : 'pending',
  message,
  evidence,
});
