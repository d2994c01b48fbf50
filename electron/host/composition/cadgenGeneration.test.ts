import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../../shared/errors';
import { createOcctRuntime, type CadRuntime } from '../../features/cadgen/index';
import { openDatabase } from '../../platform/db/openDatabase';
import type { LlmProviderConfig } from '../../platform/llm/types';
import { createFixturePlayer, type GenFixture, type PlayerFaults } from '../../testSupport/cadgenPlayer/player';
import { startScriptedProvider } from '../../testSupport/scriptedProvider/server';
import { createGenerationRuntime, tasksRootOf } from './cadgenGeneration';
import { allMigrations } from './migrations';

const repoRoot = path.resolve(__dirname, '../../..');
const workerScript = pathToFileURL(path.join(repoRoot, 'dist/node/occtWorker.js'));
const fixture = (name: string): GenFixture => JSON.parse(readFileSync(path.join(repoRoot, 'resources/evals/cadgen/v1', `${name}.json`), 'utf8')) as GenFixture;

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

async function play(name: string, faults: PlayerFaults = {}, kernel?: CadRuntime) {
  const fx = fixture(name);
  const provider = await startScriptedProvider({ script: createFixturePlayer(fx, faults) });
  const dir = mkdtempSync(path.join(tmpdir(), 'cadgen-gen-'));
  dirs.push(dir);
  const config: LlmProviderConfig = { id: 'chat', protocol: 'chat-completions', baseUrl: provider.apiBaseUrl, model: 'scripted-model', getApiKey: () => undefined };
  const { db } = openDatabase({ file: path.join(dir, 'cadsight.db'), migrations: allMigrations });
  const gen = createGenerationRuntime({ db, tasksRoot: tasksRootOf(dir), author: config, reviewer: config, workerScript, runtime: kernel ?? runtime });
  const created = await gen.service.create({ request: fx.request, budget: fx.budget });
  const task = await gen.service.run(created.task_id);
  return { gen, task, provider, dir, close: async () => { await provider.close(); db.close(); } };
}

describe('CDSL v3 generation over the scripted provider and the real kernel', () => {
  it('builds the flange in three actions with the four bolt holes as one multi-position hole and proves the bores topologically', async () => {
    const run = await play('flange');
    try {
      expect(run.task.last_error).toBeNull();
      expect(run.task.state).toBe('COMPLETED');
      const snapshot = run.gen.service.show(run.task.task_id);
      expect(snapshot.revisions.map((r) => r.revision_id)).toEqual(['rev_001', 'rev_002', 'rev_003']);
      const last = JSON.parse(snapshot.revisions[2]?.document_json ?? '{}') as { features: { atomic_id: string; params: { positions_mm: unknown[] } }[] };
      expect(last.features[2]?.atomic_id).toBe('hole');
      expect(last.features[2]?.params.positions_mm).toHaveLength(4);
      const final = snapshot.claimResults.get('rev_003@final') ?? [];
      expect(final.length).toBeGreaterThan(0);
      expect(final.every((c) => c.status === 'pass')).toBe(true);
      const bore = final.find((c) => c.kind === 'through_cylindrical_bore');
      expect(bore?.evidence).toBeDefined();
      const folder = path.join(tasksRootOf(run.dir), run.task.task_id);
      for (const file of ['source-requirements.md', 'requirements-contract.json', 'requirements.md', 'completion.md', 'requirements-index.json', 'result.json', 'revisions/rev_003/model.step', 'revisions/rev_003/model.glb', 'revisions/rev_003/manifest.json']) {
        expect(existsSync(path.join(folder, file)), file).toBe(true);
      }
      const ledger = readFileSync(path.join(folder, 'actions/action-ledger.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { sequence: number; event: string; fragment_sha256?: string; selector_snapshot_id?: string | null; review_path?: string; coverage?: unknown[] });
      ledger.forEach((e, i) => expect(e.sequence).toBe(i + 1));
      const accepted = ledger.filter((e) => e.event === 'accepted');
      expect(accepted).toHaveLength(3);
      for (const e of accepted) expect(e.fragment_sha256 && e.review_path && e.coverage).toBeTruthy();
      // Happy path: one fragment call and one candidate review per checkpoint.
      const calls = run.provider.requests.map((r) => ((r.body as { messages: { role: string; content: { text?: string }[] }[] }).messages.at(-1)?.content?.[0]?.text ?? ''));
      expect(calls.filter((t) => t.includes('"state":"CANDIDATE_REVIEW"'))).toHaveLength(3);
      expect(run.gen.service.show(run.task.task_id).task.usage.candidateBuilds).toBe(3);
    } finally {
      await run.close();
    }
  }, 180_000);

  it('fails an unexpected exception exactly once as FAILED_INTERNAL and keeps the last checkpoint', async () => {
    const broken: CadRuntime = { ...runtime, build: () => Promise.reject(new TypeError('boom')) };
    const run = await play('plate_with_holes', {}, broken);
    try {
      expect(run.task.state).toBe('FAILED');
      expect(run.task.failure_reason).toBe('FAILED_INTERNAL');
      expect(run.task.last_error?.code).toBe('CDSL_FAILED_INTERNAL');
      const ledger = run.gen.service.ledger(run.task.task_id);
      expect(ledger.filter((e) => e.event === 'failed')).toHaveLength(1);
      expect(run.gen.service.show(run.task.task_id).revisions).toHaveLength(0);
    } finally {
      await run.close();
    }
  }, 120_000);

  it('fails a runtime answer that breaks its own contract (ok, but no STEP) as FAILED_INTERNAL with CDSL_RUNTIME_CONTRACT_INVALID, not WAITING_RETRY', async () => {
    const defective: CadRuntime = { ...runtime, build: async (document, outputs) => ({ ...(await runtime.build(document, outputs)), step: undefined }) };
    const run = await play('plate_with_holes', {}, defective);
    try {
      expect(run.task).toMatchObject({ state: 'FAILED', failure_reason: 'FAILED_INTERNAL' });
      expect(run.task.last_error).toMatchObject({ code: 'CDSL_RUNTIME_CONTRACT_INVALID', retryable: false, data: { violations: ['the STEP export that was asked for is missing'] } });
      expect(run.task.last_error?.message).not.toMatch(/render service/i);
      expect(run.gen.service.ledger(run.task.task_id).filter((e) => e.event === 'failed')).toEqual([expect.objectContaining({ reason: 'FAILED_INTERNAL', code: 'CDSL_RUNTIME_CONTRACT_INVALID' })]);
    } finally {
      await run.close();
    }
  }, 120_000);

  it('still waits for a resume when the kernel worker crashed (it is restarted on the next call)', async () => {
    const crashing: CadRuntime = { ...runtime, build: () => Promise.reject(new AppError('CDSL_RUNTIME_CRASHED', 'the kernel worker stopped unexpectedly', { retryable: true })) };
    const run = await play('plate_with_holes', {}, crashing);
    try {
      expect(run.task.state).toBe('WAITING_RETRY');
      expect(run.task.last_error).toMatchObject({ code: 'CDSL_RENDER_SERVICE_UNAVAILABLE', data: { cause: 'CDSL_RUNTIME_CRASHED' } });
    } finally {
      await run.close();
    }
  }, 120_000);

  it('ends in WAITING_RETRY, never an endless run, when the reviewer service keeps failing', async () => {
    const run = await play('plate_with_holes', { reviewerDown: true });
    try {
      expect(run.task.state).toBe('WAITING_RETRY');
      expect(run.task.last_error?.code).toBe('CDSL_REVIEW_SERVICE_UNAVAILABLE');
      expect(run.task.resume_state).toBe('REVIEWING_REQUIREMENTS');
    } finally {
      await run.close();
    }
  }, 120_000);
});
