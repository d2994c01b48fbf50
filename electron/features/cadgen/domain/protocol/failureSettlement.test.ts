import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { settleThrown } from './failureSettlement';

describe('settling an exception out of a step', () => {
  it('waits for a resume only on what heals by itself: a restarted kernel or the storage', () => {
    for (const code of ['CDSL_RUNTIME_TIMEOUT', 'CDSL_RUNTIME_CRASHED', 'CDSL_RUNTIME_UNAVAILABLE']) expect(settleThrown(code)).toEqual({ kind: 'wait_retry', code: 'CDSL_RENDER_SERVICE_UNAVAILABLE' });
    for (const code of ['CDSL_STORAGE_FAILURE', 'CDSL_ARTIFACT_WRITE_FAILED']) expect(settleThrown(code)).toEqual({ kind: 'wait_retry', code: 'CDSL_STORAGE_FAILURE' });
  });

  it('fails a runtime contract defect once as FAILED_INTERNAL under CDSL_RUNTIME_CONTRACT_INVALID, never as an unavailable render service', () => {
    for (const code of ['CDSL_RUNTIME_CONTRACT_INVALID', 'CDSL_CONTRACT_UNKNOWN', 'CDSL_VERIFIER_UNAVAILABLE', 'CDSL_RUNTIME_PRECONDITION_FAILED']) {
      expect(settleThrown(code)).toEqual({ kind: 'failed_internal', code: 'CDSL_RUNTIME_CONTRACT_INVALID' });
    }
    expect(settleThrown('CDSL_ARTIFACT_CORRUPT')).toEqual({ kind: 'failed_internal', code: 'CDSL_ARTIFACT_CORRUPT' });
    expect(settleThrown(undefined)).toEqual({ kind: 'failed_internal', code: 'CDSL_FAILED_INTERNAL' });
  });

  it('never lets an unknown runtime code wait for a resume (property)', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[A-Z_]{1,20}$/), (suffix) => {
        const code = `CDSL_RUNTIME_${suffix}`;
        if (['TIMEOUT', 'CRASHED', 'UNAVAILABLE'].includes(suffix)) return;
        expect(settleThrown(code).kind).toBe('failed_internal');
      }),
    );
  });
});
