import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createCdslCatalog } from '../../application/cdslCatalog';
import { OCCT_OPERATION_IDS } from './operationIds';
import { builtWorker, example } from './testSupport';
import { createOcctRuntime } from './workerRuntime';

const catalog = createCdslCatalog(OCCT_OPERATION_IDS);
const flange = catalog.validateDocument(example('flange').document);
const NO_OUTPUTS = { step: false, meshes: false, projections: false };
const exitingWorker = path.join(path.dirname(fileURLToPath(import.meta.url)), 'testdata/exitingWorker.mjs');

describe('OCCT worker supervision', () => {
  it('terminates an operation that exceeds its time, fails it with CDSL_RUNTIME_TIMEOUT and starts a fresh worker', async () => {
    const runtime = createOcctRuntime({ workerScript: builtWorker, operationTimeoutMs: 1 });
    try {
      await runtime.warmUp();
      await expect(runtime.build(flange, NO_OUTPUTS)).rejects.toMatchObject({ code: 'CDSL_RUNTIME_TIMEOUT', retryable: true });
      await runtime.warmUp();
      expect(runtime.stats()).toMatchObject({ workers_started: 2, timeouts: 1, crashes: 0 });
    } finally {
      await runtime.dispose();
    }
  });

  it('fails the call of a crashed worker with CDSL_RUNTIME_CRASHED and replaces the worker', async () => {
    const runtime = createOcctRuntime({ workerScript: exitingWorker });
    try {
      await expect(runtime.build(flange, NO_OUTPUTS)).rejects.toMatchObject({ code: 'CDSL_RUNTIME_CRASHED' });
      await expect(runtime.build(flange, NO_OUTPUTS)).rejects.toMatchObject({ code: 'CDSL_RUNTIME_CRASHED' });
      expect(runtime.stats()).toMatchObject({ workers_started: 2, crashes: 2 });
    } finally {
      await runtime.dispose();
    }
  });

  it('replaces a worker whose WASM heap passed the recycle threshold after delivering its result', async () => {
    const runtime = createOcctRuntime({ workerScript: builtWorker, recycleHeapBytes: 1 });
    try {
      const outcome = await runtime.build(flange, NO_OUTPUTS);
      expect(outcome.ok).toBe(true);
      await runtime.warmUp();
      expect(runtime.stats()).toMatchObject({ workers_started: 2, recycles: 1, crashes: 0 });
    } finally {
      await runtime.dispose();
    }
  });

  it('refuses calls after disposal with CDSL_RUNTIME_UNAVAILABLE', async () => {
    const runtime = createOcctRuntime({ workerScript: exitingWorker });
    await runtime.dispose();
    await expect(runtime.build(flange, NO_OUTPUTS)).rejects.toMatchObject({ code: 'CDSL_RUNTIME_UNAVAILABLE' });
  });
});
