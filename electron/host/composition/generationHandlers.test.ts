import { symlinkSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GenTaskDetail, GenTaskSummary } from '../../../shared/ipc/contracts/generation';
import { createFixturePlayer } from '../../testSupport/cadgenPlayer/player';
import { startScriptedProvider, type ScriptedProvider } from '../../testSupport/scriptedProvider/index';
import { openGenerationHarness, readFixture, scriptedConfig, type GenerationHarness } from './generationHandlers.testSupport';

const fixture = readFixture('flange');

/** What the reviewer asks in the question scenario (the request below leaves the thickness out). */
const QUESTION = 'The request gives no thickness: is the flange 12 mm thick?';

let provider: ScriptedProvider;
let asking: ScriptedProvider;
let h: GenerationHarness;

beforeAll(async () => {
  provider = await startScriptedProvider({ script: createFixturePlayer(fixture, {}) });
  asking = await startScriptedProvider({ script: createFixturePlayer(fixture, { askUserOnce: { reason_code: 'missing_dimension', text: QUESTION, draftIndex: 0 } }) });
  const config = scriptedConfig(provider);
  const askingConfig = scriptedConfig(asking, 'asking');
  h = await openGenerationHarness({ resolveModel: (_role, override) => (override?.startsWith('asking/') ? askingConfig : config) });
}, 60_000);

afterAll(async () => {
  await h?.close();
  await provider?.close();
  await asking?.close();
});

const call = <T>(channel: string, input: unknown): Promise<T> => h.call<T>(channel, input);
const refusal = (channel: string, input: unknown): Promise<string> => h.refusal(channel, input);

describe('generation IPC handlers over the scripted provider and the real kernel', () => {
  let taskId = '';

  it('starts a flange task in the background and follows it through outbox events to COMPLETED', async () => {
    const started = await call<GenTaskSummary>('genStart', { request: fixture.request, budgets: fixture.budget });
    taskId = started.taskId;
    expect(['DRAFTING_REQUIREMENTS', 'REVIEWING_REQUIREMENTS']).toContain(started.state);
    const end = await h.eventually(taskId, (e) => e.type === 'completed' || e.type === 'failed');
    await h.generation.idle();
    expect(end).toMatchObject({ type: 'completed', state: 'COMPLETED' });
    const types = h.received.filter((e) => e.taskId === taskId).map((e) => e.type);
    expect(types[0]).toBe('task_created');
    for (const t of ['contract_frozen', 'action_proposed', 'revision_accepted', 'final_validation']) expect(types).toContain(t);
    const seqs = h.received.filter((e) => e.taskId === taskId).map((e) => e.seq);
    expect([...seqs].sort((a, b) => a - b)).toEqual(seqs);
  }, 180_000);

  it('shows the frozen contract with every claim passing on the head revision, the revisions and usage per role', async () => {
    const shown = await call<GenTaskDetail>('genShow', { taskId });
    expect(shown.task.state).toBe('COMPLETED');
    expect(shown.revisions.map((r) => r.revisionId)).toEqual(['rev_001', 'rev_002', 'rev_003']);
    expect(shown.shownRevision).toBe('rev_003');
    const claims = shown.contract?.requirements.flatMap((r) => r.claims) ?? [];
    expect(claims.length).toBeGreaterThan(0);
    expect(claims.filter((c) => c.deterministic).every((c) => c.status === 'pass')).toBe(true);
    expect(shown.pending).toBeNull();
    expect(shown.usageByRole.author.calls).toBeGreaterThan(0);
    expect(shown.usageByRole.reviewer.calls).toBeGreaterThan(0);
    expect(shown.revisions[2]?.files).toContain('model.step');
    // An earlier revision shows its own claim statuses: the bolt holes are not there yet.
    const first = await call<GenTaskDetail>('genShow', { taskId, revision: 'rev_001' });
    expect(first.contract?.requirements.flatMap((r) => r.claims).some((c) => c.status !== 'pass')).toBe(true);
    expect((await call<GenTaskSummary[]>('genList', { state: 'COMPLETED' })).map((t) => t.taskId)).toEqual([taskId]);
    expect(await call<GenTaskSummary[]>('genList', { state: 'FAILED' })).toEqual([]);
  });

  it('returns the ledger in sequence with three accepted actions', async () => {
    const ledger = await call<{ sequence: number; event: string }[]>('genLedger', { taskId });
    ledger.forEach((e, i) => expect(e.sequence).toBe(i + 1));
    expect(ledger.filter((e) => e.event === 'accepted')).toHaveLength(3);
  });

  it('serves task-folder files by name: the head STEP starts with ISO-10303-21 and requirements.md is text', async () => {
    const step = await call<{ mediaType: string; size: number; base64: string }>('genGetArtifact', { taskId, name: 'revisions/rev_003/model.step' });
    expect(step.mediaType).toBe('model/step');
    const text = Buffer.from(step.base64, 'base64').toString('utf8');
    expect(text.startsWith('ISO-10303-21')).toBe(true);
    expect(step.size).toBe(Buffer.byteLength(text));
    const requirements = await call<{ mediaType: string; base64: string }>('genGetArtifact', { taskId, name: 'requirements.md' });
    expect(requirements.mediaType).toBe('text/markdown');
  });

  it('refuses names that leave the task folder with a typed error, including through a symbolic link', async () => {
    for (const name of ['../../cadsight.db', '/etc/hostname', 'revisions/../../x', 'revisions\\rev_003\\model.step', './requirements.md']) {
      expect(await refusal('genGetArtifact', { taskId, name }), name).toBe('CDSL_ARTIFACT_PATH_INVALID');
    }
    symlinkSync(path.join(h.dir, 'cadsight.db'), path.join(h.tasksRoot, taskId, 'escape.db'));
    expect(await refusal('genGetArtifact', { taskId, name: 'escape.db' })).toBe('CDSL_ARTIFACT_PATH_INVALID');
    expect(await refusal('genGetArtifact', { taskId, name: 'revisions/rev_003/missing.step' })).toBe('STORE_ARTIFACT_NOT_FOUND');
  });

  it('answers an unknown task id with CDSL_TASK_NOT_FOUND on every task channel and a malformed one with IPC_INVALID_INPUT', async () => {
    for (const [channel, input] of [
      ['genShow', { taskId: 'task_unknown0001' }],
      ['genLedger', { taskId: 'task_unknown0001' }],
      ['genResume', { taskId: 'task_unknown0001' }],
      ['genAnswer', { taskId: 'task_unknown0001', text: 'yes' }],
      ['genCancel', { taskId: 'task_unknown0001' }],
      ['genGetArtifact', { taskId: 'task_unknown0001', name: 'requirements.md' }],
    ] as const) {
      expect(await refusal(channel, input), channel).toBe('CDSL_TASK_NOT_FOUND');
    }
    expect(await refusal('genShow', { taskId: '../etc' })).toBe('IPC_INVALID_INPUT');
  });

  it('refuses to resume or answer a completed task and leaves cancel of a terminal task unchanged', async () => {
    expect(await refusal('genResume', { taskId })).toBe('CDSL_TASK_NOT_RESUMABLE');
    expect(await refusal('genAnswer', { taskId, text: 'make it 45' })).toBe('CDSL_AUTHOR_DECISION_REJECTED');
    expect((await call<GenTaskSummary>('genCancel', { taskId })).state).toBe('COMPLETED');
  });
});

describe('a reviewer question answered through genAnswer', () => {
  it('waits for the user with the question, takes the answer as a new source and continues to COMPLETED', async () => {
    const models = { author: 'asking/scripted-model', reviewer: 'asking/scripted-model' };
    const { taskId } = await call<GenTaskSummary>('genStart', { request: 'flange OD 120 mm, Ø40 centre bore, 4×Ø10 through holes on PCD 90', budgets: fixture.budget, ...models });
    const asked = await h.eventually(taskId, (e) => e.type === 'question');
    expect(asked).toMatchObject({ state: 'WAITING_FOR_USER', payload: { reason_code: 'missing_dimension', text: QUESTION } });
    await h.generation.idle();
    const waiting = await call<GenTaskDetail>('genShow', { taskId });
    expect(waiting.task).toMatchObject({ state: 'WAITING_FOR_USER', question: { reasonCode: 'missing_dimension', text: QUESTION, askedBy: 'reviewer' }, authorModel: models.author });
    expect(waiting.contract).toBeNull();
    // The reviewer's verdicts are visible before any contract exists: one per draft.
    expect(waiting.requirementsReview?.verdict).toBe('waiting_for_user');
    expect(waiting.requirementsReview?.items.map((i) => i.draftId).sort()).toEqual(waiting.drafts.map((d) => d.draftId).sort());

    expect((await call<GenTaskSummary>('genAnswer', { taskId, text: 'Yes, 12 mm thick.' })).taskId).toBe(taskId);
    const end = await h.eventually(taskId, (e) => e.type === 'completed' || e.type === 'failed');
    await h.generation.idle();
    expect(end.type).toBe('completed');
    const done = await call<GenTaskDetail>('genShow', { taskId });
    expect(done.task.question).toBeNull();
    expect(done.requirementsReview?.verdict).toBe('approve');
    // Every candidate was judged: none waits for the reviewer.
    expect(done.candidate).toBeNull();
    expect(done.sources).toEqual([expect.objectContaining({ sourceId: 'src_001' }), { sourceId: 'src_002', text: 'Yes, 12 mm thick.' }]);
    // The answered requirement cites the answer; every deterministic claim passes on the head.
    expect(done.contract?.requirements[0]?.sourceIds).toEqual(['src_001', 'src_002']);
    expect(done.contract?.requirements.flatMap((r) => r.claims).filter((c) => c.deterministic).every((c) => c.status === 'pass')).toBe(true);
    const ledger = await call<{ event: string; reason?: string }[]>('genLedger', { taskId });
    expect(ledger.find((e) => e.event === 'waiting')?.reason).toBe('missing_dimension');
  }, 180_000);
});

describe('a task out of budget continued through genResume', () => {
  it('shows the exhausted limit, refuses a plain resume and a raise not above what was spent, and completes with a larger budget', async () => {
    const { taskId } = await call<GenTaskSummary>('genStart', { request: fixture.request, budgets: { maxAuthorTurns: 8 } });
    const stopped = await h.eventually(taskId, (e) => e.type === 'failed');
    expect(stopped.payload).toMatchObject({ reason: 'BUDGET_EXHAUSTED' });
    await h.generation.idle();
    const detail = await call<GenTaskDetail>('genShow', { taskId });
    expect(detail.budgetExhausted).toEqual({ limit: 'author_turns', field: 'maxAuthorTurns', spent: 8, max: 8 });
    expect(detail.budgetBasis?.features).toBeGreaterThan(0);
    expect(await refusal('genResume', { taskId })).toBe('CDSL_TASK_NOT_RESUMABLE');
    expect(await refusal('genResume', { taskId, budget: { maxAuthorTurns: 8 } })).toBe('CDSL_BUDGET_INVALID');
    expect(await refusal('genResume', { taskId, budget: { maxAuthorTurns: 0 } })).toBe('IPC_INVALID_INPUT');

    expect((await call<GenTaskSummary>('genResume', { taskId, budget: { maxAuthorTurns: 60 } })).taskId).toBe(taskId);
    const end = await h.eventually(taskId, (e) => e.type === 'completed' || (e.type === 'failed' && e.seq > stopped.seq));
    await h.generation.idle();
    expect(end.type).toBe('completed');
    const done = await call<GenTaskDetail>('genShow', { taskId });
    expect(done.budget.maxAuthorTurns).toBe(60);
    expect(done.budgetExhausted).toBeNull();
  }, 180_000);
});
