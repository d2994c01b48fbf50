import { ProtocolErrorCode } from './errors';
import type { ProtocolErrorCodeValue } from './errors';

/**
 * How an exception out of a step settles a task. Only what may heal by itself waits for a
 * resume (the kernel worker restarted, the disk came back); a runtime answer that breaks its own
 * contract, a missing contract or verifier, or a tampered artifact will fail the same way again,
 * so the task fails once as FAILED_INTERNAL under that typed code instead of looking like an
 * unavailable render service.
 */
export type FailureSettlement = { kind: 'wait_retry'; code: ProtocolErrorCodeValue } | { kind: 'failed_internal'; code: ProtocolErrorCodeValue };

/** Worker supervision: the runtime replaced or could not (yet) start its kernel. */
const RUNTIME_SUPERVISION = new Set(['CDSL_RUNTIME_TIMEOUT', 'CDSL_RUNTIME_CRASHED', 'CDSL_RUNTIME_UNAVAILABLE']);
/** Deployment defects of the runtime side: the same input fails the same way on every retry. */
const CONTRACT_DEFECTS = new Set(['CDSL_RUNTIME_CONTRACT_INVALID', 'CDSL_CONTRACT_UNKNOWN', 'CDSL_VERIFIER_UNAVAILABLE']);

/** Settles an error code thrown out of a step (undefined: not a typed error). */
export function settleThrown(code: string | undefined): FailureSettlement {
  if (code === undefined) return { kind: 'failed_internal', code: ProtocolErrorCode.failedInternal };
  if (code === ProtocolErrorCode.storageFailure || code === 'CDSL_ARTIFACT_WRITE_FAILED') return { kind: 'wait_retry', code: ProtocolErrorCode.storageFailure };
  if (RUNTIME_SUPERVISION.has(code)) return { kind: 'wait_retry', code: ProtocolErrorCode.renderServiceUnavailable };
  if (CONTRACT_DEFECTS.has(code) || code.startsWith('CDSL_RUNTIME_')) return { kind: 'failed_internal', code: ProtocolErrorCode.runtimeContractInvalid };
  if (code === ProtocolErrorCode.artifactCorrupt) return { kind: 'failed_internal', code: ProtocolErrorCode.artifactCorrupt };
  return { kind: 'failed_internal', code: ProtocolErrorCode.failedInternal };
}
