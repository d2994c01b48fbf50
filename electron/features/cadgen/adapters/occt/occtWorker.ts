import v8 from 'node:v8';
import vm from 'node:vm';
import { parentPort } from 'node:worker_threads';
import { AppError, toAppErrorData } from '../../../../../shared/errors';
import { cdslError, CdslErrorCode } from '../../domain/errors';
import type { BuildOutcome, StepInspection } from '../../ports/cadRuntime';
import { Arena } from './arena';
import { buildOnKernel } from './documentBuilder';
import { isValidShape, volumeOf } from './geometryProbes';
import { loadKernel } from './kernel';
import type { Kernel } from './kernel';
import { countSolids } from './topologyReader';
import type { WorkerMessage, WorkerRequest } from './workerProtocol';

async function inspectStep(kernel: Kernel, step: string): Promise<StepInspection> {
  const arena = new Arena();
  try {
    const shape = arena.track(await kernel.r.importSTEP(new Blob([step])));
    return { solid_count: countSolids(kernel, shape), volume_mm3: volumeOf(kernel, shape), valid: isValidShape(kernel, shape) };
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw cdslError(CdslErrorCode.buildFailed, 'the STEP text could not be read by OpenCascade');
  } finally {
    arena.dispose();
  }
}

/**
 * replicad registers its own short-lived OCCT temporaries with a FinalizationRegistry; without
 * memory pressure on the JS heap, V8 may never collect them and the WASM heap keeps growing.
 * Worker threads cannot take --expose-gc in execArgv, so the flag is set at runtime and the gc
 * function taken from a fresh context; after each request we collect and let finalizers run.
 */
function kernelGarbageCollector(): () => Promise<void> {
  v8.setFlagsFromString('--expose-gc');
  const gc = vm.runInNewContext('gc') as () => void;
  return async () => {
    gc();
    await new Promise((resolve) => setImmediate(resolve));
  };
}

/** Worker thread entry: loads the kernel once (warm), then serves requests one at a time. */
async function serve(): Promise<void> {
  const port = parentPort;
  if (!port) throw new Error('occtWorker must run in a worker thread');
  const post = (message: WorkerMessage): void => port.postMessage(message);
  const started = performance.now();
  let kernel: Kernel;
  try {
    kernel = await loadKernel();
  } catch (error) {
    const reason = error instanceof Error ? error.message : 'unknown';
    post({ type: 'start_failed', error: toAppErrorData(cdslError(CdslErrorCode.runtimeUnavailable, 'the OpenCascade kernel failed to load', { reason })) });
    return;
  }
  const collectGarbage = kernelGarbageCollector();
  post({ type: 'ready', kernel_start_ms: performance.now() - started });
  port.on('message', (request: WorkerRequest) => {
    const run = async (): Promise<unknown> =>
      request.type === 'build'
        ? buildOnKernel(kernel, request.document, request.outputs, (index) => post({ id: request.id, type: 'progress', feature_index: index }))
        : inspectStep(kernel, request.step);
    run().then(
      async (value) => {
        await collectGarbage();
        if (request.type === 'build') (value as BuildOutcome).memory.wasm_heap_bytes = kernel.wasmHeapBytes();
        post({ id: request.id, type: 'result', ok: true, value });
      },
      (error: unknown) => post({ id: request.id, type: 'result', ok: false, error: toAppErrorData(error instanceof AppError ? error : cdslError(CdslErrorCode.buildFailed, 'the kernel failed unexpectedly')) }),
    );
  });
}

void serve();
