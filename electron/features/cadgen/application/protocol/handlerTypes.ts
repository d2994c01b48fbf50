import type { AppError } from '../../../../../shared/errors';
import type { TopologySnapshot } from '../../domain/topology';
import type { GenerationDeps } from './deps';
import type { TaskChange, TaskSnapshot } from './ports';

/**
 * What a command handler returns (seed §6.6): Accepted (with the change to commit), Rejected
 * (a typed, side-effect-free error), or Waiting (the task now waits for the user or a retry).
 * FailedInternal is produced by the coordinator when a handler throws anything else.
 */
export type HandlerResult =
  | { kind: 'accepted'; change: TaskChange; message: string; advanced: boolean }
  | { kind: 'rejected'; error: AppError }
  | { kind: 'waiting'; change: TaskChange; message: string };

export interface HandlerInput<T> {
  snapshot: TaskSnapshot;
  value: T;
  deps: GenerationDeps;
  /** Topology of the head revision (null before the first accepted revision). */
  topology: TopologySnapshot | null;
}

export type Handler<T> = (input: HandlerInput<T>) => Promise<HandlerResult>;

export const accepted = (change: TaskChange, message: string, advanced = true): HandlerResult => ({ kind: 'accepted', change, message, advanced });
export const rejected = (error: AppError): HandlerResult => ({ kind: 'rejected', error });
