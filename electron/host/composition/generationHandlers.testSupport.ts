import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ipcChannels, ipcEvents, type IpcEvents } from '../../../shared/ipc/channels';
import { createOcctRuntime, type CadRuntime } from '../../features/cadgen/index';
import { openDatabase } from '../../platform/db/openDatabase';
import type { SqliteDatabase } from '../../platform/db/types';
import { createEventBus } from '../../platform/events/eventBus';
import { createIpcRouter, type IpcRouter } from '../../platform/ipc/router';
import type { LlmProviderConfig } from '../../platform/llm/types';
import type { Logger } from '../../platform/log/types';
import { createFixturePlayer, type GenFixture } from '../../testSupport/cadgenPlayer/player';
import { startScriptedProvider, type ScriptedProvider } from '../../testSupport/scriptedProvider/index';
import { tasksRootOf } from './cadgenGeneration';
import { createGenerationHandlers, type GenerationHandlerOptions, type GenerationHandlers } from './generationHandlers';
import { allMigrations } from './migrations';

// Test helper of the generation handlers: one real SQLite file, the real kernel and the real
// IPC router, with the task events the outbox dispatcher emits collected in order.

const repoRoot = path.resolve(__dirname, '../../..');
export const workerScript = pathToFileURL(path.join(repoRoot, 'dist/node/occtWorker.js'));
export const readFixture = (id: string): GenFixture => JSON.parse(readFileSync(path.join(repoRoot, `resources/evals/cadgen/v1/${id}.json`), 'utf8')) as GenFixture;
export const silentLog: Logger = { debug() {}, info() {}, warn() {}, error() {}, child: () => silentLog };

/** A provider config that talks to a scripted provider over HTTP (Chat Completions, no key). */
export const scriptedConfig = (provider: ScriptedProvider, id = 'chat', model = 'scripted-model'): LlmProviderConfig => ({ id, protocol: 'chat-completions', baseUrl: provider.apiBaseUrl, model, getApiKey: () => undefined });

export type TaskEvent = { seq: number; taskId: string; type: string; state: string; payload: Record<string, unknown> };

export interface GenerationHarness {
  dir: string;
  tasksRoot: string;
  db: SqliteDatabase;
  kernel: CadRuntime;
  generation: GenerationHandlers;
  received: TaskEvent[];
  /** Dispatches through the router and parses the output with the channel's schema (throws on a refusal). */
  call<T>(channel: string, input: unknown): Promise<T>;
  /** The error code of a call that must be refused. */
  refusal(channel: string, input: unknown): Promise<string>;
  /** Resolves once an event of `taskId` satisfies `done`. */
  eventually(taskId: string, done: (e: TaskEvent) => boolean): Promise<TaskEvent>;
  /** Another handler table over the same database and task folders (e.g. with a lower transfer cap). */
  handlersWith(overrides: Partial<GenerationHandlerOptions>): GenerationHandlers;
  close(): Promise<void>;
}

/** Opens a temp data folder with the migrated database, warms the kernel and wires the handlers. */
export async function openGenerationHarness(options: { resolveModel: GenerationHandlerOptions['resolveModel']; maxTransferBytes?: number }): Promise<GenerationHarness> {
  const kernel = createOcctRuntime({ workerScript });
  await kernel.warmUp();
  const dir = mkdtempSync(path.join(tmpdir(), 'gen-ipc-'));
  const { db } = openDatabase({ file: path.join(dir, 'cadsight.db'), migrations: allMigrations });
  const received: TaskEvent[] = [];
  const waiters: (() => void)[] = [];
  const events = createEventBus<IpcEvents>(ipcEvents, (error) => {
    throw error;
  });
  events.subscribe((event, payload) => {
    if (event !== 'genTaskEvent') return;
    received.push(payload as TaskEvent);
    for (const wake of waiters.splice(0)) wake();
  });
  const base: GenerationHandlerOptions = {
    db, tasksRoot: tasksRootOf(dir), events, runtime: kernel, workerScript, log: silentLog, resolveModel: options.resolveModel,
    ...(options.maxTransferBytes ? { maxTransferBytes: options.maxTransferBytes } : {}),
  };
  const generation = createGenerationHandlers(base);
  // Only this slice's channels are served here; the cast keeps the router's full-table type.
  const router: IpcRouter = createIpcRouter(ipcChannels, generation.handlers as never, (channel, error) => {
    throw new Error(`internal error in ${channel}: ${String(error)}`);
  });
  return {
    dir,
    tasksRoot: base.tasksRoot,
    db,
    kernel,
    generation,
    received,
    async call<T>(channel: string, input: unknown): Promise<T> {
      const result = await router.dispatch(channel, input, { transport: 'test' });
      if (!result.ok) throw new Error(`${channel} failed: ${result.error.code} ${result.error.message}`);
      return ipcChannels[channel as keyof typeof ipcChannels].output.parse(result.value) as T;
    },
    async refusal(channel, input) {
      const result = await router.dispatch(channel, input, { transport: 'test' });
      if (result.ok) throw new Error(`${channel} unexpectedly succeeded`);
      return result.error.code;
    },
    async eventually(taskId, done) {
      for (;;) {
        const hit = received.find((e) => e.taskId === taskId && done(e));
        if (hit) return hit;
        await new Promise<void>((resolve) => waiters.push(resolve));
      }
    },
    handlersWith: (overrides) => createGenerationHandlers({ ...base, ...overrides }),
    async close() {
      await generation.idle();
      db.close();
      await kernel.dispose();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * A harness holding one task of `fixture` that the scripted player (over real HTTP) took to
 * COMPLETED, idle; `close` stops the harness and the provider.
 */
export async function openCompletedTask(fixture: GenFixture): Promise<{ h: GenerationHarness; taskId: string; close(): Promise<void> }> {
  const provider = await startScriptedProvider({ script: createFixturePlayer(fixture, {}) });
  const config = scriptedConfig(provider);
  const h = await openGenerationHarness({ resolveModel: () => config });
  const { taskId } = await h.call<{ taskId: string }>('genStart', { request: fixture.request, budgets: fixture.budget });
  const ended = await h.eventually(taskId, (e) => e.type === 'completed' || e.type === 'failed');
  if (ended.type !== 'completed') throw new Error(`the ${fixture.id} task did not complete: ${JSON.stringify(ended)}`);
  await h.generation.idle();
  return {
    h,
    taskId,
    async close() {
      await h.close();
      await provider.close();
    },
  };
}

