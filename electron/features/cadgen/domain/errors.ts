import { AppError } from '../../../../shared/errors';

/**
 * CDSL error codes. Each is a stable string crossing IPC/CLI/MCP boundaries.
 * - CDSL_SCHEMA_INVALID: the document, a fragment or a claim does not match its closed schema.
 * - CDSL_PRECONDITION_FAILED: a semantic preflight rejected the feature before any geometry was built.
 * - CDSL_SELECTOR_NOT_FOUND / CDSL_SELECTOR_AMBIGUOUS / CDSL_STALE_SNAPSHOT: token resolution failures.
 * - CDSL_BUILD_FAILED: the kernel could not execute an operation.
 * - CDSL_CANDIDATE_INVALID: the operation ran but OpenCascade's checker rejects the solid.
 * - CDSL_FEATURE_NO_EFFECT: a removing feature removes no volume (or an adding one adds none, or a
 *   dress-up changes nothing) — found before the kernel when the tool misses the body's bbox, and
 *   always after the build from the volume change.
 * - CDSL_FEATURE_DISJOINT: a joining feature's material does not touch the body (it would make a
 *   separate solid although the contract joins).
 * - CDSL_FILLET_FAILED / CDSL_CHAMFER_FAILED: the kernel refused a fillet/chamfer; data names the
 *   failing edge tokens, the kernel status and, when found, the largest workable size.
 * - CDSL_RUNTIME_TIMEOUT / CDSL_RUNTIME_CRASHED / CDSL_RUNTIME_UNAVAILABLE: worker supervision.
 * - CDSL_RUNTIME_CONTRACT_INVALID: the runtime answered something its own contract rules out
 *   (e.g. ok without a topology, or a requested STEP missing): a deployment defect, not retried.
 * - CDSL_CONTRACT_UNKNOWN: an atomic_id that the registry does not offer.
 * - CDSL_VERIFIER_UNAVAILABLE: a claim kind without a registered verifier.
 * - CDSL_ARTIFACT_WRITE_FAILED: staging or publishing artifacts failed.
 */
export const CdslErrorCode = {
  schemaInvalid: 'CDSL_SCHEMA_INVALID',
  preconditionFailed: 'CDSL_PRECONDITION_FAILED',
  selectorNotFound: 'CDSL_SELECTOR_NOT_FOUND',
  selectorAmbiguous: 'CDSL_SELECTOR_AMBIGUOUS',
  staleSnapshot: 'CDSL_STALE_SNAPSHOT',
  buildFailed: 'CDSL_BUILD_FAILED',
  candidateInvalid: 'CDSL_CANDIDATE_INVALID',
  featureNoEffect: 'CDSL_FEATURE_NO_EFFECT',
  featureDisjoint: 'CDSL_FEATURE_DISJOINT',
  filletFailed: 'CDSL_FILLET_FAILED',
  chamferFailed: 'CDSL_CHAMFER_FAILED',
  runtimeTimeout: 'CDSL_RUNTIME_TIMEOUT',
  runtimeCrashed: 'CDSL_RUNTIME_CRASHED',
  runtimeUnavailable: 'CDSL_RUNTIME_UNAVAILABLE',
  runtimeContractInvalid: 'CDSL_RUNTIME_CONTRACT_INVALID',
  contractUnknown: 'CDSL_CONTRACT_UNKNOWN',
  verifierUnavailable: 'CDSL_VERIFIER_UNAVAILABLE',
  artifactWriteFailed: 'CDSL_ARTIFACT_WRITE_FAILED',
} as const;

export type CdslErrorCodeValue = (typeof CdslErrorCode)[keyof typeof CdslErrorCode];

/** Builds a non-retryable CDSL AppError; only runtime supervision errors are retryable. */
export function cdslError(code: CdslErrorCodeValue, message: string, data?: Record<string, unknown>): AppError {
  const retryable = code === CdslErrorCode.runtimeTimeout || code === CdslErrorCode.runtimeCrashed;
  return new AppError(code, message, data === undefined ? { retryable } : { retryable, data });
}
