import { readFileSync, renameSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GenTaskDetail, GenTaskSummary } from '../../../shared/ipc/contracts/generation';
import { createFixturePlayer, requestFacts } from '../../testSupport/cadgenPlayer/player';
import { startScriptedProvider, type ScriptedProvider } from '../../testSupport/scriptedProvider/index';
import { openGenerationHarness, readFixture, scriptedConfig, type GenerationHarness } from './generationHandlers.testSupport';

const fixture = readFixture('flange');
type Zip = { taskId: string; fileName: string; size: number; entries: string[]; base64: string };

let provider: ScriptedProvider;
let h: GenerationHarness;
/** When set, the scripted models wait on it before answering (lets a test cancel at a known point). */
let hold: ((facts: Record<string, unknown>) => Promise<void>) | null = null;

beforeAll(async () => {
  const player = createFixturePlayer(fixture, {});
  provider = await startScriptedProvider({
    script: async (request) => {
      const facts = requestFacts(request);
      if (hold && facts) await hold(facts);
      return player(request);
    },
  });
  const config = scriptedConfig(provider);
  h = await openGenerationHarness({ resolveModel: () => config });
}, 60_000);

afterAll(async () => {
  hold = null;
  await h?.close();
  await provider?.close();
});

const unzip = (zip: Zip): Record<string, Uint8Array> => unzipSync(Buffer.from(zip.base64, 'base64'));
const onDisk = (taskId: string, name: string): Buffer => readFileSync(path.join(h.tasksRoot, taskId, name));

/** Starts a task and cancels it when the scripted model is first asked something `at` accepts. */
async function cancelledAt(at: (facts: Record<string, unknown>) => boolean): Promise<string> {
  let reached!: () => void;
  const reachedPoint = new Promise<void>((resolve) => (reached = resolve));
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  hold = async (facts) => {
    if (!at(facts)) return;
    hold = null;
    reached();
    await released;
  };
  const { taskId } = await h.call<GenTaskSummary>('genStart', { request: fixture.request, budgets: fixture.budget });
  await reachedPoint;
  const cancelled = await h.call<GenTaskSummary>('genCancel', { taskId });
  expect(cancelled).toMatchObject({ state: 'FAILED', failureReason: 'CANCELLED' });
  // The renderer learns of the cancel from the event, dispatched before genCancel returns.
  expect(h.received.filter((e) => e.taskId === taskId && e.type === 'failed').map((e) => e.state)).toEqual(['FAILED']);
  release();
  await h.generation.idle();
  return taskId;
}

describe('genExportZip: the task folder and one published revision as a zip', () => {
  let taskId = '';
  let raw = 0;

  it('exports a completed task: the entries unzip to the exact bytes of the task folder, head revision only', async () => {
    ({ taskId } = await h.call<GenTaskSummary>('genStart', { request: fixture.request, budgets: fixture.budget }));
    expect(await h.eventually(taskId, (e) => e.type === 'completed' || e.type === 'failed')).toMatchObject({ type: 'completed' });
    await h.generation.idle();
    const zip = await h.call<Zip>('genExportZip', { taskId });
    expect(zip.fileName).toBe(`${taskId}-rev_003.zip`);
    for (const name of ['requirements.md', 'requirements-contract.json', 'source-requirements.md', 'completion.md', 'actions/action-ledger.jsonl', 'revisions/rev_003/model.step', 'revisions/rev_003/model.glb']) {
      expect(zip.entries, name).toContain(name);
    }
    expect(zip.entries.filter((n) => n.startsWith('revisions/') && !n.startsWith('revisions/rev_003/'))).toEqual([]);
    const files = unzip(zip);
    expect(Object.keys(files).sort()).toEqual([...zip.entries].sort());
    expect(zip.size).toBe(Buffer.from(zip.base64, 'base64').length);
    for (const name of zip.entries) expect(Buffer.from(files[name]!).equals(onDisk(taskId, name)), name).toBe(true);
    expect(Buffer.from(files['revisions/rev_003/model.step']!).toString('latin1').startsWith('ISO-10303-21')).toBe(true);
    // The revision folder holds what its manifest lists.
    const shown = await h.call<GenTaskDetail>('genShow', { taskId });
    for (const file of shown.revisions[2]!.files) expect(zip.entries).toContain(`revisions/rev_003/${file}`);
    raw = zip.entries.reduce((n, name) => n + onDisk(taskId, name).length, 0);
  }, 180_000);

  it('exports an earlier revision when asked and refuses an unknown one with CDSL_REQUEST_INVALID', async () => {
    const zip = await h.call<Zip>('genExportZip', { taskId, revision: 'rev_001' });
    expect(zip.fileName).toBe(`${taskId}-rev_001.zip`);
    const revisionEntries = zip.entries.filter((n) => n.startsWith('revisions/'));
    expect(revisionEntries.length).toBeGreaterThan(0);
    expect(revisionEntries.every((n) => n.startsWith('revisions/rev_001/'))).toBe(true);
    expect(Buffer.from(unzip(zip)['revisions/rev_001/model.step']!).equals(onDisk(taskId, 'revisions/rev_001/model.step'))).toBe(true);
    expect(await h.refusal('genExportZip', { taskId, revision: 'rev_099' })).toBe('CDSL_REQUEST_INVALID');
    expect(await h.refusal('genExportZip', { taskId: 'task_unknown0001' })).toBe('CDSL_TASK_NOT_FOUND');
    expect(await h.refusal('genExportZip', { taskId, revision: '../rev_001' })).toBe('IPC_INVALID_INPUT');
  });

  it('caps what it reads before zipping: exactly the files total is allowed, one byte less is CDSL_ARTIFACT_TOO_LARGE', async () => {
    expect(raw).toBeGreaterThan(0);
    const atCap = h.handlersWith({ maxTransferBytes: raw }).handlers;
    expect((await atCap.genExportZip({ taskId }, { transport: 'test' })).entries.length).toBeGreaterThan(5);
    const below = h.handlersWith({ maxTransferBytes: raw - 1 }).handlers;
    await expect(below.genExportZip({ taskId }, { transport: 'test' })).rejects.toMatchObject({ code: 'CDSL_ARTIFACT_TOO_LARGE', data: { max: raw - 1 } });
  });

  it('sizes the files with stat before reading any: a 3 GiB (sparse) file in the revision is CDSL_ARTIFACT_TOO_LARGE, not a read', async () => {
    const huge = path.join(h.tasksRoot, taskId, 'revisions', 'rev_003', 'huge.bin');
    writeFileSync(huge, '');
    // Sparse: no disk used. Read whole, it would fail (over 2 GiB) or take 3 GiB of memory.
    truncateSync(huge, 3 * 1024 ** 3);
    try {
      await expect(h.generation.handlers.genExportZip({ taskId }, { transport: 'test' })).rejects.toMatchObject({ code: 'CDSL_ARTIFACT_TOO_LARGE', data: { max: expect.any(Number) } });
    } finally {
      rmSync(huge);
    }
  });

  it('answers CDSL_ARTIFACT_MISSING when the published revision folder is gone, and exports again once it is back', async () => {
    const folder = path.join(h.tasksRoot, taskId, 'revisions', 'rev_002');
    renameSync(folder, `${folder}.away`);
    try {
      expect(await h.refusal('genExportZip', { taskId, revision: 'rev_002' })).toBe('CDSL_ARTIFACT_MISSING');
    } finally {
      renameSync(`${folder}.away`, folder);
    }
    expect((await h.call<Zip>('genExportZip', { taskId, revision: 'rev_002' })).fileName).toBe(`${taskId}-rev_002.zip`);
  });

  it('exports the last good revision of a task that failed after its first accepted action', async () => {
    const failed = await cancelledAt((facts) => facts.state === 'AWAITING_ACTION' && facts.head_revision === 'rev_001');
    const shown = await h.call<GenTaskDetail>('genShow', { taskId: failed });
    expect(shown.task).toMatchObject({ state: 'FAILED', failureReason: 'CANCELLED', headRevision: 'rev_001', revisionCount: 1 });
    const zip = await h.call<Zip>('genExportZip', { taskId: failed });
    expect(zip.fileName).toBe(`${failed}-rev_001.zip`);
    // The contract files exist from the freeze on (completion.md is the acceptance checklist, not a completion record).
    expect(zip.entries).toEqual(expect.arrayContaining(['requirements.md', 'requirements-contract.json', 'completion.md', 'actions/action-ledger.jsonl', 'revisions/rev_001/model.step']));
    expect(zip.entries.filter((n) => n.startsWith('revisions/') && !n.startsWith('revisions/rev_001/'))).toEqual([]);
    const files = unzip(zip);
    expect(Buffer.from(files['revisions/rev_001/model.step']!).toString('latin1').startsWith('ISO-10303-21')).toBe(true);
    const ledger = Buffer.from(files['actions/action-ledger.jsonl']!).toString('utf8').trim().split('\n').map((line) => JSON.parse(line) as { event: string });
    expect(ledger.filter((e) => e.event === 'accepted')).toHaveLength(1);
    expect(ledger.at(-1)?.event).toBe('failed');
  }, 180_000);

  it('refuses a task that has not published a revision yet with CDSL_REQUEST_INVALID', async () => {
    const early = await cancelledAt((facts) => facts.state === 'DRAFTING_REQUIREMENTS');
    expect((await h.call<GenTaskDetail>('genShow', { taskId: early })).task).toMatchObject({ state: 'FAILED', headRevision: null, revisionCount: 0 });
    expect(await h.refusal('genExportZip', { taskId: early })).toBe('CDSL_REQUEST_INVALID');
  }, 60_000);
});
