import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOcctRuntime, type CadRuntime, type TaskBudget } from '../../features/cadgen/index';
import { openDatabase } from '../../platform/db/openDatabase';
import type { LlmProviderConfig } from '../../platform/llm/types';
import { createFixturePlayer, type GenFixture, type PlayerFaults } from '../../testSupport/cadgenPlayer/player';
import { startScriptedProvider } from '../../testSupport/scriptedProvider/server';
import type { CapturedRequest, ScriptStep } from '../../testSupport/scriptedProvider/types';
import { createGenerationRuntime, tasksRootOf, type GenerationRuntime } from './cadgenGeneration';
import { allMigrations } from './migrations';

// Issue 24 items 4 and 6: budgets a task can be continued with, and every model call charged —
// over the scripted provider (real HTTP) and the real kernel.

const repoRoot = path.resolve(__dirname, '../../..');
const workerScript = pathToFileURL(path.join(repoRoot, 'dist/node/occtWorker.js'));
const plate = JSON.parse(readFileSync(path.join(repoRoot, 'resources/evals/cadgen/v1/plate_with_holes.json'), 'utf8')) as GenFixture;

let runtime: CadRuntime;
const dirs: string[] = [];
beforeAll(async () => {
  runtime = createOcctRuntime({ workerScript });
  await runtime.warmUp();
}, 60_000);
afterAll(async () => {
  await runtime.dispose();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

async function open(script: (request: CapturedRequest) => ScriptStep) {
  const provider = await startScriptedProvider({ script });
  const dir = mkdtempSync(path.join(tmpdir(), 'cadgen-budget-'));
  dirs.push(dir);
  const config: LlmProviderConfig = { id: 'chat', protocol: 'chat-completions', baseUrl: provider.apiBaseUrl, model: 'scripted-model', getApiKey: () => undefined };
  const { db } = openDatabase({ file: path.join(dir, 'cadsight.db'), migrations: allMigrations });
  const gen = createGenerationRuntime({ db, tasksRoot: tasksRootOf(dir), author: config, reviewer: config, workerScript, runtime });
  return { gen, provider, close: async () => { await provider.close(); db.close(); } };
}

const player = (faults: PlayerFaults = {}) => createFixturePlayer(plate, faults);

/** Every call is charged exactly once: the task's call counters equal its usage rows (with their retries), and none is left `started`. */
function expectEveryCallCharged(gen: GenerationRuntime, taskId: string): void {
  const rows = gen.deps.repo.usage(taskId);
  const { usage } = gen.service.show(taskId).task;
  expect(usage.authorTurns + usage.reviewerCalls).toBe(rows.reduce((n, r) => n + 1 + (r.usage.retries ?? 0), 0));
  expect(rows.filter((r) => r.status === 'started')).toEqual([]);
}

const refusal = async (promise: Promise<unknown>): Promise<unknown> => promise.then(() => 'resolved', (error: { code?: string; data?: unknown }) => ({ code: error.code, data: error.data }));

describe('budgets and charging over the real kernel', () => {
  it('stops a task out of author turns where it was, refuses a plain resume and a raise not above what it spent, and completes it with a larger budget', async () => {
    const run = await open(player());
    try {
      const created = await run.gen.service.create({ request: plate.request, budget: { maxAuthorTurns: 8 } });
      const stopped = await run.gen.service.run(created.task_id);
      expect(stopped.state).toBe('FAILED');
      expect(stopped.failure_reason).toBe('BUDGET_EXHAUSTED');
      expect(stopped.usage.authorTurns).toBe(8);
      expect(stopped.resume_state).not.toBeNull();
      // The contract was frozen before the stop: the budget was fitted, the user's limit kept.
      expect(stopped.budget_basis).toEqual({ requirements: 2, claims: 4, features: 4 });
      expect(stopped.budget.maxAuthorTurns).toBe(8);

      expect(await refusal(run.gen.service.resume(created.task_id))).toMatchObject({ code: 'CDSL_TASK_NOT_RESUMABLE', data: { limit: 'author_turns' } });
      expect(await refusal(run.gen.service.resume(created.task_id, {}, { maxAuthorTurns: 8 }))).toMatchObject({ code: 'CDSL_BUDGET_INVALID', data: { reason: 'below_spent', spent: 8 } });
      expect(await refusal(run.gen.service.resume(created.task_id, {}, { maxReviewerCalls: 80 }))).toMatchObject({ code: 'CDSL_BUDGET_INVALID', data: { reason: 'still_exhausted', limit: 'author_turns' } });
      expect(run.gen.service.show(created.task_id).task.state).toBe('FAILED');

      const done = await run.gen.service.resume(created.task_id, {}, { maxAuthorTurns: 40 });
      expect(done.state).toBe('COMPLETED');
      expect(done.failure_reason).toBeNull();
      expect(done.budget.maxAuthorTurns).toBe(40);
      expect(done.budget_overrides).toEqual({ maxAuthorTurns: 40 });
      const ledger = run.gen.service.ledger(created.task_id);
      expect(ledger.filter((e) => e.event === 'failed' && e.reason === 'BUDGET_EXHAUSTED')).toHaveLength(1);
      expect(ledger.filter((e) => e.event === 'budget_raised')).toEqual([expect.objectContaining({ limits: { maxAuthorTurns: 40 } })]);
      // Nothing was redone: one revision per fixture action.
      expect(run.gen.service.show(created.task_id).revisions).toHaveLength(plate.actions.length);
      expectEveryCallCharged(run.gen, created.task_id);
      // A finished task stays finished, whatever budget it is given.
      expect(await refusal(run.gen.service.resume(created.task_id, {}, { maxAuthorTurns: 100 }))).toMatchObject({ code: 'CDSL_TASK_NOT_RESUMABLE' });
    } finally {
      await run.close();
    }
  }, 180_000);

  it('charges every transport attempt of a call that never got an answer', async () => {
    const run = await open(player({ authorDown: true }));
    try {
      const created = await run.gen.service.create({ request: plate.request });
      const task = await run.gen.service.run(created.task_id);
      expect(task.state).toBe('WAITING_RETRY');
      // Each attempt the provider received is an author call on the task's account.
      expect(task.usage.authorTurns).toBe(run.provider.requests.length);
      expect(task.usage.authorTurns).toBeGreaterThan(1);
      const rows = run.gen.deps.repo.usage(created.task_id);
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ role: 'author', status: 'failed', usage: { retries: task.usage.authorTurns - 1 } });
      expectEveryCallCharged(run.gen, created.task_id);
    } finally {
      await run.close();
    }
  }, 120_000);

  it('keeps a call cut off mid-flight charged, and the next driver marks it interrupted', async () => {
    const script = player();
    let slowed = false;
    const run = await open((request) => {
      const step = script(request);
      if (slowed) return step;
      slowed = true;
      return { ...step, delayMs: 3_000 };
    });
    try {
      const created = await run.gen.service.create({ request: plate.request, budget: plate.budget as Partial<TaskBudget> });
      const stop = new AbortController();
      const running = run.gen.service.run(created.task_id, { signal: stop.signal });
      while (run.provider.requests.length === 0) await new Promise((r) => setTimeout(r, 20));
      stop.abort();
      const cut = await running;
      expect(cut.state).toBe('DRAFTING_REQUIREMENTS');
      // Charged when it started, though no answer was read.
      expect(cut.usage.authorTurns).toBe(1);
      expect(run.gen.deps.repo.usage(created.task_id).map((r) => r.status)).toEqual(['started']);

      const done = await run.gen.service.resume(created.task_id);
      expect(done.state).toBe('COMPLETED');
      const rows = run.gen.deps.repo.usage(created.task_id);
      expect(rows[0]?.status).toBe('interrupted');
      expect(rows.slice(1).every((r) => r.status === 'completed')).toBe(true);
      expectEveryCallCharged(run.gen, created.task_id);
    } finally {
      await run.close();
    }
  }, 180_000);
});
