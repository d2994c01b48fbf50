import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ipcEvents, type IpcEvents } from '../../../shared/ipc/channels';
import { AppError } from '../../../shared/errors';
import { createOcctRuntime, type CadRuntime } from '../../features/cadgen/index';
import { openDatabase } from '../../platform/db/openDatabase';
import { createEventBus } from '../../platform/events/eventBus';
import type { LlmProviderConfig } from '../../platform/llm/types';
import type { Logger } from '../../platform/log/types';
import { createFixturePlayer, type GenFixture } from '../../testSupport/cadgenPlayer/player';
import { startScriptedProvider } from '../../testSupport/scriptedProvider/server';
import type { ScriptedProvider } from '../../testSupport/scriptedProvider/types';
import { createGenerationRuntime, tasksRootOf } from './cadgenGeneration';
import { createGenerationHandlers } from './generationHandlers';
import { allMigrations } from './migrations';

const repoRoot = path.resolve(__dirname, '../../..');
const workerScript = pathToFileURL(path.join(repoRoot, 'dist/node/occtWorker.js'));
const fixture = JSON.parse(readFileSync(path.join(repoRoot, 'resources/evals/cadgen/v1/plate_with_holes.json'), 'utf8')) as GenFixture;
const silentLog: Logger = { debug() {}, info() {}, warn() {}, error() {}, child: () => silentLog };

let kernel: CadRuntime;
let provider: ScriptedProvider;
let config: LlmProviderConfig;
const dirs: string[] = [];

beforeAll(async () => {
  kernel = createOcctRuntime({ workerScript });
  await kernel.warmUp();
  // Every model answer takes 150 ms, so a shutdown reliably lands while a run is busy.
  const player = createFixturePlayer(fixture);
  provider = await startScriptedProvider({ script: (request) => ({ ...player(request), delayMs: 150 }) });
  config = { id: 'chat', protocol: 'chat-completions', baseUrl: provider.apiBaseUrl, model: 'scripted-model', getApiKey: () => undefined };
}, 60_000);

afterAll(async () => {
  await provider?.close();
  await kernel?.dispose();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function database() {
  const dir = mkdtempSync(path.join(tmpdir(), 'gen-shutdown-'));
  dirs.push(dir);
  return { dir, ...openDatabase({ file: path.join(dir, 'cadsight.db'), migrations: allMigrations }) };
}

describe('generation runs at app shutdown', () => {
  it('stops a background run at a step boundary within the bounded wait, and the interrupted task resumes to COMPLETED after a restart', async () => {
    const { dir, db } = database();
    const events = createEventBus<IpcEvents>(ipcEvents, (error) => {
      throw error;
    });
    const seen: string[] = [];
    events.subscribe((event, payload) => void (event === 'genTaskEvent' && seen.push((payload as { type: string }).type)));
    const generation = createGenerationHandlers({ db, tasksRoot: tasksRootOf(dir), events, runtime: kernel, workerScript, log: silentLog, resolveModel: () => config });
    const started = await generation.handlers.genStart({ request: fixture.request, budgets: fixture.budget } as never, { transport: 'test' } as never);
    while (!seen.includes('contract_frozen') && !seen.includes('action_proposed')) await new Promise((r) => setTimeout(r, 50));
    expect(await generation.shutdown(15_000)).toBe(true);
    const restarted = createGenerationRuntime({ db, tasksRoot: tasksRootOf(dir), author: config, reviewer: config, workerScript, runtime: kernel });
    const stopped = restarted.service.show(started.taskId).task;
    expect(['COMPLETED', 'FAILED', 'WAITING_RETRY']).not.toContain(stopped.state);
    expect((await restarted.recover()).interrupted).toEqual([started.taskId]);
    const resumed = await restarted.service.resume(started.taskId);
    expect(resumed.state).toBe('COMPLETED');
    expect(restarted.service.show(started.taskId).revisions.map((r) => r.action_id)).toEqual(['act_001', 'act_002']);
    db.close();
  }, 180_000);

  it('records a failure outside a step on the task as a typed error (WAITING_RETRY) instead of only throwing', async () => {
    const { dir, db } = database();
    const gen = createGenerationRuntime({ db, tasksRoot: tasksRootOf(dir), author: config, reviewer: config, workerScript, runtime: kernel });
    const created = await gen.service.create({ request: fixture.request, budget: fixture.budget });
    // The ledger file cannot be appended any more (disk full): the step's own failure commit fails in its dispatch too.
    gen.deps.artifacts = { ...gen.deps.artifacts, appendLedger: () => Promise.reject(new AppError('CDSL_STORAGE_FAILURE', 'Could not append to the action ledger in the task folder.', { retryable: true, data: { reason: 'ENOSPC' } })) };
    const task = await gen.service.run(created.task_id);
    expect(task.state).toBe('WAITING_RETRY');
    expect(task.last_error?.code).toBe('CDSL_STORAGE_FAILURE');
    expect(gen.service.show(created.task_id).task.state).toBe('WAITING_RETRY');
    db.close();
  }, 60_000);
});
