import { createHash, randomUUID } from 'node:crypto';
import path from 'node:path';
import {
  createCdslCatalog,
  createFsPublisher,
  createFsTaskArtifacts,
  createGatewayModel,
  endpointOf,
  createGenerationService,
  createOcctRuntime,
  createSqliteTaskRepository,
  encodeGlb,
  OCCT_OPERATION_IDS,
  recoverGeneration,
  renderPng,
  renderReviewPng,
  type CadRuntime,
  type CrashPoint,
  type EventSink,
  type GenerationDeps,
  type GenerationService,
  type ModelPort,
  type RecoveryReport,
} from '../../features/cadgen/index';
import { AppError } from '../../../shared/errors';
import { createLlmGateway } from '../../platform/llm/gateway';
import type { LlmProviderConfig } from '../../platform/llm/types';
import type { SqliteDatabase } from '../../platform/db/types';
import type { Logger } from '../../platform/log/types';
import { createRedactor, type Redactor } from '../../platform/log/redact';
import { createProcessDriver } from './processDriver';

/** Retry policy of generation calls: bounded, then the task waits (WAITING_RETRY), never spins. */
export const GENERATION_RETRY = { maxAttempts: 3, baseDelayMs: 300, maxDelayMs: 4_000, totalBudgetMs: 30_000 };

export interface GenerationRuntimeOptions {
  db: SqliteDatabase;
  /** Folder holding one sub-folder per task (default <data>/cadgen-tasks). */
  tasksRoot: string;
  /** Absent for read-only uses (list/show/ledger): model calls then fail with LLM_NOT_CONFIGURED. */
  author?: LlmProviderConfig;
  reviewer?: LlmProviderConfig;
  workerScript: URL;
  log?: Logger;
  sink?: EventSink;
  /** Crash-recovery tests only: called at every crash point (see CrashPoint). */
  crashHook?: (point: CrashPoint, detail?: string) => void;
  runtime?: CadRuntime;
  /** Redacts the audit's copy of raw model arguments (default a fresh one; the CLI and app pass theirs, which knows the keys in use). */
  redactor?: Redactor;
  /** GLB/PNG encoders (default the real ones); the bench wraps them to time their share. */
  encoders?: GenerationDeps['encoders'];
}

export interface GenerationRuntime {
  service: GenerationService;
  deps: GenerationDeps;
  recover(): Promise<RecoveryReport>;
  dispose(): Promise<void>;
}

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

/** Wires the generation protocol: SQLite repository, task folders, OCCT worker, author/reviewer gateways. */
export function createGenerationRuntime(options: GenerationRuntimeOptions): GenerationRuntime {
  const clock = { now: () => new Date() };
  const { crashHook } = options;
  const runtime = options.runtime ?? createOcctRuntime({ workerScript: options.workerScript });
  const model = (config: LlmProviderConfig | undefined, role: string): ModelPort => {
    if (!config) {
      return { id: `(no ${role} model)`, turn: () => Promise.reject(new AppError('LLM_NOT_CONFIGURED', `no ${role} model is configured`)) };
    }
    return gatewayModel(config);
  };
  const gatewayModel = (config: LlmProviderConfig) => createGatewayModel(`${config.id}/${config.model}`, createLlmGateway({ provider: config, retry: GENERATION_RETRY, ...(options.log ? { log: options.log } : {}) }), endpointOf(config));
  const deps: GenerationDeps = {
    repo: createSqliteTaskRepository(options.db, clock),
    artifacts: createFsTaskArtifacts(options.tasksRoot),
    catalog: createCdslCatalog(OCCT_OPERATION_IDS),
    runtime,
    publisher: createFsPublisher(() => new Date(), crashHook ? { beforeRename: () => crashHook('artifact_stage') } : {}),
    encoders: options.encoders ?? { glb: encodeGlb, png: renderPng, reviewPng: renderReviewPng },
    author: model(options.author, 'author'),
    reviewer: model(options.reviewer, 'reviewer'),
    clock,
    newId: (prefix) => `${prefix}_${randomUUID().replace(/-/g, '').slice(0, 16)}`,
    driver: createProcessDriver(),
    sha256,
    redactor: options.redactor ?? createRedactor(),
    ...(options.sink ? { sink: options.sink } : {}),
    ...(crashHook ? { crashHook } : {}),
  };
  return {
    service: createGenerationService(deps),
    deps,
    recover: () => recoverGeneration(deps),
    dispose: () => (options.runtime ? Promise.resolve() : runtime.dispose()),
  };
}

/** Default task folder root under the data folder. */
export const tasksRootOf = (dataRoot: string): string => path.join(dataRoot, 'cadgen-tasks');
