import { AppError } from '../../../../../shared/errors';

/**
 * Typed errors of the generation protocol (seed §6.1), as stable `CDSL_*` codes.
 * Categories fix what each error may do to a task:
 * - format: side-effect free, counted per tool against the format limit → FAILED_AUTHOR_FORMAT.
 * - decision / stale / runtime: side-effect free, the author must observe or decide again.
 * - candidate: a built candidate failed (consumes the candidate budget, no revision).
 * - infrastructure: retried by the service with the same idempotency key; exhaustion → WAITING_RETRY.
 * - internal: an unexpected exception; the run fails once as FAILED_INTERNAL.
 * - user: ambiguity only the user can resolve → WAITING_FOR_USER (not a failure).
 * - contract: deployment defect; never blamed on the author.
 * - refused: the request itself is refused before anything starts.
 * - busy: another driver holds the task; retry later (nothing changed).
 */
export const ProtocolErrorCode = {
  authorFormatInvalid: 'CDSL_AUTHOR_FORMAT_INVALID',
  authorDecisionRejected: 'CDSL_AUTHOR_DECISION_REJECTED',
  staleWorkingHead: 'CDSL_STALE_WORKING_HEAD',
  failedAuthorFormat: 'CDSL_FAILED_AUTHOR_FORMAT',
  runtimePreconditionFailed: 'CDSL_RUNTIME_PRECONDITION_FAILED',
  runtimeContractInvalid: 'CDSL_RUNTIME_CONTRACT_INVALID',
  candidateBuildFailed: 'CDSL_CANDIDATE_BUILD_FAILED',
  candidateReviewRejected: 'CDSL_CANDIDATE_REVIEW_REJECTED',
  /** A review's claim rows contradict the server's verifier results: the review is refused (format, re-asked), never stored. */
  reviewContradictsVerifier: 'CDSL_REVIEW_CONTRADICTS_VERIFIER',
  verifierUnavailable: 'CDSL_VERIFIER_UNAVAILABLE',
  claimVerificationFailed: 'CDSL_CLAIM_VERIFICATION_FAILED',
  /** A visual claim has no reviewer verdict with evidence: completion is blocked (seed §6.4). */
  visualVerdictMissing: 'CDSL_VISUAL_VERDICT_MISSING',
  modelStructuredOutputUnsupported: 'CDSL_MODEL_STRUCTURED_OUTPUT_UNSUPPORTED',
  authorTransportUnavailable: 'CDSL_AUTHOR_TRANSPORT_UNAVAILABLE',
  reviewServiceUnavailable: 'CDSL_REVIEW_SERVICE_UNAVAILABLE',
  renderServiceUnavailable: 'CDSL_RENDER_SERVICE_UNAVAILABLE',
  storageFailure: 'CDSL_STORAGE_FAILURE',
  failedInternal: 'CDSL_FAILED_INTERNAL',
  /** A task-folder file no longer matches the sha256 its manifest records (data names the file): never served or exported. */
  artifactCorrupt: 'CDSL_ARTIFACT_CORRUPT',
  waitingForUser: 'CDSL_WAITING_FOR_USER',
  noProgressLimit: 'CDSL_NO_PROGRESS_LIMIT',
  /** The fragment is identical to one already rejected or failed on this checkpoint: no build is spent on it again. */
  fragmentAlreadyRejected: 'CDSL_FRAGMENT_ALREADY_REJECTED',
  requirementsCoverageIncomplete: 'CDSL_REQUIREMENTS_COVERAGE_INCOMPLETE',
  budgetExhausted: 'CDSL_BUDGET_EXHAUSTED',
  illegalTransition: 'CDSL_ILLEGAL_TRANSITION',
  taskNotFound: 'CDSL_TASK_NOT_FOUND',
  /** Another process or window drives the task (its lease has not expired): try again later. */
  taskBusy: 'CDSL_TASK_BUSY',
  /** The task is terminal (COMPLETED or FAILED): resume does not apply. */
  taskNotResumable: 'CDSL_TASK_NOT_RESUMABLE',
  /** A budget raise was refused: unknown limit, not a whole number in range, not above what was spent, or a limit still exhausted. */
  budgetInvalid: 'CDSL_BUDGET_INVALID',
  /** The user cancelled the task (not an author error: nothing to answer). */
  taskCancelled: 'CDSL_TASK_CANCELLED',
  requestInvalid: 'CDSL_REQUEST_INVALID',
} as const;
export type ProtocolErrorCodeValue = (typeof ProtocolErrorCode)[keyof typeof ProtocolErrorCode];

export type ErrorCategory = 'format' | 'decision' | 'stale' | 'runtime' | 'candidate' | 'infrastructure' | 'internal' | 'user' | 'contract' | 'terminal' | 'refused' | 'busy';

export const ERROR_CATEGORY: Record<ProtocolErrorCodeValue, ErrorCategory> = {
  CDSL_AUTHOR_FORMAT_INVALID: 'format',
  CDSL_AUTHOR_DECISION_REJECTED: 'decision',
  CDSL_STALE_WORKING_HEAD: 'stale',
  CDSL_FAILED_AUTHOR_FORMAT: 'terminal',
  CDSL_RUNTIME_PRECONDITION_FAILED: 'runtime',
  CDSL_RUNTIME_CONTRACT_INVALID: 'contract',
  CDSL_CANDIDATE_BUILD_FAILED: 'candidate',
  CDSL_CANDIDATE_REVIEW_REJECTED: 'candidate',
  CDSL_REVIEW_CONTRADICTS_VERIFIER: 'format',
  CDSL_VERIFIER_UNAVAILABLE: 'contract',
  CDSL_CLAIM_VERIFICATION_FAILED: 'candidate',
  CDSL_VISUAL_VERDICT_MISSING: 'candidate',
  CDSL_MODEL_STRUCTURED_OUTPUT_UNSUPPORTED: 'refused',
  CDSL_AUTHOR_TRANSPORT_UNAVAILABLE: 'infrastructure',
  CDSL_REVIEW_SERVICE_UNAVAILABLE: 'infrastructure',
  CDSL_RENDER_SERVICE_UNAVAILABLE: 'infrastructure',
  CDSL_STORAGE_FAILURE: 'infrastructure',
  CDSL_FAILED_INTERNAL: 'internal',
  CDSL_ARTIFACT_CORRUPT: 'internal',
  CDSL_WAITING_FOR_USER: 'user',
  CDSL_NO_PROGRESS_LIMIT: 'terminal',
  CDSL_FRAGMENT_ALREADY_REJECTED: 'decision',
  CDSL_REQUIREMENTS_COVERAGE_INCOMPLETE: 'decision',
  CDSL_BUDGET_EXHAUSTED: 'terminal',
  CDSL_ILLEGAL_TRANSITION: 'internal',
  CDSL_TASK_NOT_FOUND: 'refused',
  CDSL_TASK_BUSY: 'busy',
  CDSL_TASK_NOT_RESUMABLE: 'refused',
  CDSL_BUDGET_INVALID: 'refused',
  CDSL_TASK_CANCELLED: 'terminal',
  CDSL_REQUEST_INVALID: 'refused',
};

/** True for errors that leave every CAD artifact, revision and candidate budget untouched. */
export const isSideEffectFree = (code: ProtocolErrorCodeValue): boolean => ['format', 'decision', 'stale', 'runtime'].includes(ERROR_CATEGORY[code]);

/** Only format errors count against the per-tool format limit. */
export const countsTowardFormatLimit = (code: ProtocolErrorCodeValue): boolean => ERROR_CATEGORY[code] === 'format';

/** Infrastructure errors are retried by the service and never charged to the author. */
export const isInfrastructure = (code: ProtocolErrorCodeValue): boolean => ERROR_CATEGORY[code] === 'infrastructure';

/** Builds a protocol AppError; infrastructure failures and a busy task are retryable. */
export function protocolError(code: ProtocolErrorCodeValue, message: string, data?: Record<string, unknown>): AppError {
  const retryable = isInfrastructure(code) || ERROR_CATEGORY[code] === 'busy';
  return new AppError(code, message, data === undefined ? { retryable } : { retryable, data });
}

/** A field-level issue from canonical validation (path in JSON Pointer form). */
export interface FieldIssue {
  path: string;
  message: string;
}
