import type { AppErrorData } from '../../../../../shared/errors';
import type { CdslDocument } from '../../domain/document';
import type { BuildOutputs } from '../../ports/cadRuntime';

/** Messages from the supervisor to the kernel worker. */
export type WorkerRequest =
  | { id: number; type: 'build'; document: CdslDocument; outputs: BuildOutputs }
  | { id: number; type: 'inspect_step'; step: string };

/** Messages from the kernel worker: readiness, per-feature heartbeats (reset the timeout), results. */
export type WorkerMessage =
  | { type: 'ready'; kernel_start_ms: number }
  | { type: 'start_failed'; error: AppErrorData }
  | { id: number; type: 'progress'; feature_index: number }
  | { id: number; type: 'result'; ok: true; value: unknown }
  | { id: number; type: 'result'; ok: false; error: AppErrorData };
