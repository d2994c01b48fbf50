import { Worker } from 'node:worker_threads';
import type { ResourceLimits } from 'node:worker_threads';
import { AppError } from '../../../../../shared/errors';
import type { AppErrorData } from '../../../../../shared/errors';
import type { CdslDocument } from '../../domain/document';
import { cdslError, CdslErrorCode } from '../../domain/errors';
import type { BuildOutcome, BuildOutputs, CadRuntime, RuntimeStats, StepInspection } from '../../ports/cadRuntime';
import type { WorkerMessage, WorkerRequest } from './workerProtocol';

export interface OcctRuntimeOptions {
  /** The bundled worker (dist/node/occtWorker.js); composition roots resolve it next to their bundle. */
  workerScript: string | URL;
  /** Longest time one operation may run (reset by each per-feature heartbeat). */
  operationTimeoutMs?: number;
  /** Longest time the kernel may take to load. */
  startTimeoutMs?: number;
  resourceLimits?: ResourceLimits;
  /**
   * Replace the worker once its WASM heap exceeds this many bytes (checked after each build).
   * Every kernel object is deleted after a build, but OpenCascade's boolean operations still leave
   * the heap growing slowly (≈0.1 MB per boolean, measured with raw BRepAlgoAPI_Cut) and a WASM heap
   * never shrinks, so a long-lived kernel is recycled. Default 512 MiB.
   */
  recycleHeapBytes?: number;
}

interface Pending {
  id: number;
  resolve(value: unknown): void;
  reject(error: AppError): void;
  timeoutMs: number;
  timer?: NodeJS.Timeout;
}

interface Live {
  worker: Worker;
  ready: Promise<void>;
}

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

const fromData = (error: AppErrorData): AppError => new AppError(error.code, error.message, { retryable: error.retryable, ...(error.data ? { data: error.data } : {}) });

/**
 * CadRuntime on a worker thread running OpenCascade. One request at a time per worker (the
 * kernel is single-threaded); a timed-out or crashed worker is terminated and the next call
 * starts a fresh one, so a bad operation never poisons later builds.
 */
export function createOcctRuntime(options: OcctRuntimeOptions): CadRuntime {
  const operationTimeoutMs = options.operationTimeoutMs ?? 30_000;
  const startTimeoutMs = options.startTimeoutMs ?? 30_000;
  const recycleHeapBytes = options.recycleHeapBytes ?? 512 * 2 ** 20;
  const stats: RuntimeStats = { workers_started: 0, timeouts: 0, crashes: 0, recycles: 0, kernel_start_ms: null };
  let live: Live | null = null;
  let pending: Pending | null = null;
  let queue: Promise<unknown> = Promise.resolve();
  let nextId = 1;
  let disposed = false;

  function discard(worker: Worker): void {
    if (live?.worker === worker) live = null;
    void worker.terminate();
  }

  function fail(worker: Worker, error: AppError): void {
    const current = pending;
    pending = null;
    if (current?.timer) clearTimeout(current.timer);
    discard(worker);
    current?.reject(error);
  }

  function arm(worker: Worker, request: Pending): void {
    if (request.timer) clearTimeout(request.timer);
    request.timer = setTimeout(() => {
      stats.timeouts += 1;
      fail(worker, cdslError(CdslErrorCode.runtimeTimeout, `a CDSL operation exceeded ${request.timeoutMs} ms; the kernel worker was replaced`, { timeout_ms: request.timeoutMs }));
    }, request.timeoutMs);
  }

  function spawn(): Live {
    const worker = new Worker(options.workerScript, options.resourceLimits ? { resourceLimits: options.resourceLimits } : {});
    stats.workers_started += 1;
    const ready = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        discard(worker);
        reject(cdslError(CdslErrorCode.runtimeUnavailable, `the kernel did not start within ${startTimeoutMs} ms`));
      }, startTimeoutMs);
      worker.on('message', (message: WorkerMessage) => {
        if (message.type === 'ready') {
          clearTimeout(timer);
          stats.kernel_start_ms = message.kernel_start_ms;
          resolve();
        } else if (message.type === 'start_failed') {
          clearTimeout(timer);
          discard(worker);
          reject(fromData(message.error));
        } else if (pending && message.id === pending.id) {
          if (message.type === 'progress') arm(worker, pending);
          else {
            const current = pending;
            pending = null;
            if (current.timer) clearTimeout(current.timer);
            if (message.ok) current.resolve(message.value);
            else current.reject(fromData(message.error));
          }
        }
      });
      const crashed = (): void => {
        clearTimeout(timer);
        if (live?.worker !== worker) return;
        stats.crashes += 1;
        const error = cdslError(CdslErrorCode.runtimeCrashed, 'the kernel worker stopped unexpectedly; it will be restarted on the next call');
        if (pending) fail(worker, error);
        else discard(worker);
        reject(error);
      };
      worker.on('error', crashed);
      worker.on('exit', crashed);
    });
    ready.catch(() => undefined);
    return { worker, ready };
  }

  async function call<T>(request: DistributiveOmit<WorkerRequest, 'id'>, timeoutMs: number): Promise<T> {
    if (disposed) throw cdslError(CdslErrorCode.runtimeUnavailable, 'the CAD runtime was disposed');
    live ??= spawn();
    const current = live;
    await current.ready;
    const id = nextId;
    nextId += 1;
    return new Promise<T>((resolve, reject) => {
      pending = { id, resolve: resolve as (value: unknown) => void, reject, timeoutMs };
      arm(current.worker, pending);
      current.worker.postMessage({ ...request, id } as WorkerRequest);
    });
  }

  /** Requests run one after another; a failure does not block the queue. */
  function enqueue<T>(run: () => Promise<T>): Promise<T> {
    const result = queue.then(run, run);
    queue = result.catch(() => undefined);
    return result;
  }

  async function buildAndMaybeRecycle(document: CdslDocument, outputs: BuildOutputs): Promise<BuildOutcome> {
    const outcome = await call<BuildOutcome>({ type: 'build', document, outputs }, operationTimeoutMs);
    if (outcome.memory.wasm_heap_bytes > recycleHeapBytes && live) {
      stats.recycles += 1;
      discard(live.worker);
    }
    return outcome;
  }

  return {
    build: (document: CdslDocument, outputs: BuildOutputs) => enqueue(() => buildAndMaybeRecycle(document, outputs)),
    inspectStep: (step: string) => enqueue(() => call<StepInspection>({ type: 'inspect_step', step }, operationTimeoutMs)),
    warmUp: () =>
      enqueue(async () => {
        if (disposed) throw cdslError(CdslErrorCode.runtimeUnavailable, 'the CAD runtime was disposed');
        live ??= spawn();
        await live.ready;
        return stats.kernel_start_ms ?? 0;
      }),
    stats: () => ({ ...stats }),
    async dispose() {
      disposed = true;
      const worker = live?.worker;
      live = null;
      if (worker) await worker.terminate();
    },
  };
}
