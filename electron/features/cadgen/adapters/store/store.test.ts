import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../../../platform/db/openDatabase';
import { DEFAULT_BUDGET, ZERO_USAGE } from '../../domain/protocol/budgets';
import { FRESH_COUNTERS } from '../../domain/protocol/progress';
import { headToken } from '../../domain/protocol/task';
import type { TaskRecord } from '../../domain/protocol/task';
import type { GenerationDeps } from '../../application/protocol/deps';
import { createGenerationService } from '../../application/protocol/service';
import { createFsTaskArtifacts } from './fsTaskArtifacts';
import { cadgenInvocationRecordMigration, cadgenLeaseMigration, cadgenMigrations, cadgenUsageAttemptsMigration } from './migrations';

const migrations = [...cadgenMigrations, cadgenLeaseMigration, cadgenUsageAttemptsMigration, cadgenInvocationRecordMigration];
import { createSqliteTaskRepository } from './sqliteTaskRepository';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
const clock = { now: () => new Date('2026-12-01T10:00:00Z') };

function task(id: string): TaskRecord {
  return {
    task_id: id, state: 'DRAFTING_REQUIREMENTS', state_version: 0, working_head: headToken(0, null), head_revision: null, head_counter: 0, resume_state: null, failure_reason: null,
    last_error: null, question: null, answer: null, request: 'plate', author_model: 'a/m', reviewer_model: 'r/m', budget: DEFAULT_BUDGET, usage: ZERO_USAGE, counters: FRESH_COUNTERS,
    from_task: null, from_revision: null, run_id: 'run_1', notes: { head: headToken(0, null) }, evidence: [], created_at: clock.now().toISOString(), updated_at: clock.now().toISOString(),
  };
}

function open() {
  const dir = mkdtempSync(path.join(tmpdir(), 'cadgen-store-'));
  dirs.push(dir);
  const file = path.join(dir, 'cadsight.db');
  return { dir, file, repo: createSqliteTaskRepository(openDatabase({ file, migrations }).db, clock) };
}

describe('SQLite task repository', () => {
  it('refuses a second driver with CDSL_TASK_BUSY (retryable) and a finished task with CDSL_TASK_NOT_RESUMABLE, releasing its lease', async () => {
    const { repo } = open();
    repo.create(task('task_aaaaaa01'), [{ source_id: 'src_001', text: 'plate' }], { type: 'task_created', payload: {} });
    repo.create({ ...task('task_aaaaaa02'), run_id: 'run_2', state: 'FAILED', failure_reason: 'BUDGET_EXHAUSTED' }, [{ source_id: 'src_001', text: 'plate' }], { type: 'task_created', payload: {} });
    let n = 0;
    // Only the repository and ids are reached before the lease decides; a model or kernel call would throw here.
    const service = createGenerationService({ repo, clock, newId: (p: string) => `${p}_${(n += 1)}` } as unknown as GenerationDeps);
    expect(repo.acquireLease('task_aaaaaa01', 'lease_app', 60_000)).toBeNull();
    await expect(service.resume('task_aaaaaa01')).rejects.toMatchObject({ code: 'CDSL_TASK_BUSY', retryable: true, data: { holder: 'lease_app' } });
    await expect(service.answer('task_aaaaaa01', 'yes')).rejects.toMatchObject({ code: 'CDSL_TASK_BUSY' });
    await expect(service.resume('task_aaaaaa02')).rejects.toMatchObject({ code: 'CDSL_TASK_NOT_RESUMABLE', retryable: false });
    expect(repo.acquireLease('task_aaaaaa02', 'lease_other', 60_000)).toBeNull();
  });

  it('gives the driver lease of a task to one of two connections on the same file until it expires or is released', () => {
    const { file, repo } = open();
    repo.create(task('task_aaaaaa01'), [{ source_id: 'src_001', text: 'plate' }], { type: 'task_created', payload: {} });
    let now = clock.now().getTime();
    const later = { now: () => new Date(now) };
    const first = createSqliteTaskRepository(openDatabase({ file, migrations }).db, later);
    const second = createSqliteTaskRepository(openDatabase({ file, migrations }).db, later);
    expect(first.acquireLease('task_aaaaaa01', 'lease_app', 60_000)).toBeNull();
    expect(second.acquireLease('task_aaaaaa01', 'lease_cli', 60_000)).toEqual({ owner: 'lease_app', expires_at: now + 60_000 });
    // The holder's heartbeat renews; a crashed holder's lease expires and the next driver takes over.
    now += 30_000;
    expect(first.acquireLease('task_aaaaaa01', 'lease_app', 60_000)).toBeNull();
    now += 59_000;
    expect(second.acquireLease('task_aaaaaa01', 'lease_cli', 60_000)).not.toBeNull();
    now += 2_000;
    expect(second.acquireLease('task_aaaaaa01', 'lease_cli', 60_000)).toBeNull();
    second.releaseLease('task_aaaaaa01', 'lease_app');
    expect(first.acquireLease('task_aaaaaa01', 'lease_app', 60_000)).not.toBeNull();
    second.releaseLease('task_aaaaaa01', 'lease_cli');
    expect(first.acquireLease('task_aaaaaa01', 'lease_app', 60_000)).toBeNull();
  });

  it('hands the lease of a driver whose process is gone to the next driver at once, and only that holder\'s', async () => {
    const { repo } = open();
    repo.create(task('task_aaaaaa01'), [{ source_id: 'src_001', text: 'plate' }], { type: 'task_created', payload: {} });
    expect(repo.acquireLease('task_aaaaaa01', 'lease_crashed', 60_000)).toBeNull();
    expect(repo.acquireLease('task_aaaaaa01', 'lease_next', 60_000, 'lease_someone_else')).toMatchObject({ owner: 'lease_crashed' });
    const gone = new Set(['lease_crashed']);
    let n = 0;
    const driver = { newOwner: () => `lease_next_${(n += 1)}`, isGone: (owner: string) => gone.has(owner) };
    const service = createGenerationService({ repo, clock, newId: (p: string) => `${p}_x`, driver } as unknown as GenerationDeps);
    // resume gets past the lease (the holder is gone); what it does after (no model here) is not this test's concern.
    const outcome = await service.resume('task_aaaaaa01').then(() => 'driven', (error: { code?: string }) => error.code);
    expect(outcome).not.toBe('CDSL_TASK_BUSY');
    expect(repo.acquireLease('task_aaaaaa01', 'lease_app', 60_000)).toBeNull();
    gone.clear();
    await expect(service.resume('task_aaaaaa01')).rejects.toMatchObject({ code: 'CDSL_TASK_BUSY', data: { holder: 'lease_app' } });
  });

  it('lets exactly one of two writers on the same file win a compare-and-swap on the state version', () => {
    const { file, repo } = open();
    repo.create(task('task_aaaaaa01'), [{ source_id: 'src_001', text: 'plate' }], { type: 'task_created', payload: {} });
    const other = createSqliteTaskRepository(openDatabase({ file, migrations }).db, clock);
    expect(repo.commit('task_aaaaaa01', 0, { task: { state: 'REVIEWING_REQUIREMENTS' } })).toBe(1);
    expect(() => other.commit('task_aaaaaa01', 0, { task: { state: 'WAITING_FOR_USER' } })).toThrow(expect.objectContaining({ code: 'CDSL_STALE_WORKING_HEAD' }));
    expect(other.load('task_aaaaaa01').task.state).toBe('REVIEWING_REQUIREMENTS');
  });

  it('rolls back every part of a change when one part fails', () => {
    const { repo } = open();
    repo.create(task('task_aaaaaa02'), [], { type: 'task_created', payload: {} });
    const candidate = { candidate_id: 'cand_1', action_id: 'act_001', idempotency_key: 'k1', base_head: 'h', fragment_sha256: 'f', snapshot_id: null, status: 'building' as const, document_json: '{}', revision_id: 'rev_001', report_json: null };
    repo.commit('task_aaaaaa02', 0, { candidate });
    expect(() => repo.commit('task_aaaaaa02', 1, { task: { state: 'CANDIDATE_REVIEW' }, ledger: [{ event: 'candidate_built' }], candidate: { ...candidate, candidate_id: 'cand_2' } })).toThrow(expect.objectContaining({ code: 'CDSL_STORAGE_FAILURE' }));
    const snapshot = repo.load('task_aaaaaa02');
    expect(snapshot.task.state).toBe('DRAFTING_REQUIREMENTS');
    expect(snapshot.task.state_version).toBe(1);
    expect(repo.ledger('task_aaaaaa02')).toEqual([]);
  });

  it('numbers ledger events strictly increasing and appends each sequence to the JSONL file once', async () => {
    const { dir, repo } = open();
    const artifacts = createFsTaskArtifacts(path.join(dir, 'tasks'));
    repo.create(task('task_aaaaaa03'), [], { type: 'task_created', payload: {} });
    await fc.assert(
      fc.asyncProperty(fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 1, maxLength: 8 }), async (batches) => {
        for (const size of batches) {
          const version = repo.load('task_aaaaaa03').task.state_version;
          repo.commit('task_aaaaaa03', version, { ledger: Array.from({ length: size }, () => ({ event: 'proposed' as const })) });
          const rows = repo.unappendedLedger('task_aaaaaa03');
          await artifacts.appendLedger('task_aaaaaa03', rows);
          // A crash between append and acknowledgement replays the same rows: still once in the file.
          await artifacts.appendLedger('task_aaaaaa03', rows);
          if (rows.length > 0) repo.markLedgerAppended('task_aaaaaa03', rows[rows.length - 1]?.sequence ?? 0);
        }
        // No event committed yet (e.g. only empty batches) means no ledger file yet, not an empty one.
        const file = path.join(dir, 'tasks', 'task_aaaaaa03', 'actions', 'action-ledger.jsonl');
        const text = existsSync(file) ? readFileSync(file, 'utf8') : '';
        const lines = text.trim().split('\n').filter(Boolean).map((l) => JSON.parse(l) as { sequence: number; schema_version: string });
        lines.forEach((line, i) => {
          expect(line.sequence).toBe(i + 1);
          expect(line.schema_version).toBe('cad.action-ledger.v1');
        });
        expect(lines.length).toBe(repo.ledger('task_aaaaaa03').length);
      }),
      { numRuns: 15 },
    );
  });

  it('refuses a second invocation with the same idempotency key and overwriting an immutable artifact, and replaces a step file left by an uncommitted attempt', async () => {
    const { dir, repo } = open();
    repo.create(task('task_aaaaaa04'), [], { type: 'task_created', payload: {} });
    const inv = { invocation_id: 'inv_1', tool: 'complete_task', role: 'author' as const, idempotency_key: 'complete:rev_001', raw_sha256: 'x', raw_redacted: '{"revision_id":"rev_001"}', field_errors: [{ path: '/revision_id', message: 'stale' }], status: 'processing' as const, result_json: null, state_version: 0 };
    repo.commit('task_aaaaaa04', 0, { invocation: inv });
    expect(repo.invocations('task_aaaaaa04')).toEqual([expect.objectContaining({ tool: 'complete_task', role: 'author', raw_redacted: '{"revision_id":"rev_001"}', field_errors: [{ path: '/revision_id', message: 'stale' }] })]);
    expect(() => repo.commit('task_aaaaaa04', 1, { invocation: { ...inv, invocation_id: 'inv_2' } })).toThrow(expect.objectContaining({ code: 'CDSL_STORAGE_FAILURE' }));
    expect(repo.invocationByKey('task_aaaaaa04', 'complete:rev_001')?.invocation_id).toBe('inv_1');
    const artifacts = createFsTaskArtifacts(path.join(dir, 'tasks'));
    await artifacts.writeOnce('task_aaaaaa04', 'requirements.md', 'a');
    await artifacts.writeOnce('task_aaaaaa04', 'requirements.md', 'a');
    await expect(artifacts.writeOnce('task_aaaaaa04', 'requirements.md', 'b')).rejects.toMatchObject({ code: 'CDSL_STORAGE_FAILURE' });
    await expect(artifacts.writeOnce('task_aaaaaa04', '../escape.md', 'b')).rejects.toMatchObject({ code: 'CDSL_REQUEST_INVALID' });
    // A step's own file (e.g. a review re-asked after a crash before its commit) is replaced whole.
    await artifacts.writeStep('task_aaaaaa04', 'documents/requirements-review-v1.json', '{"verdict":"approve","note":"first attempt"}');
    await artifacts.writeStep('task_aaaaaa04', 'documents/requirements-review-v1.json', '{"verdict":"approve","note":"second"}');
    expect(await artifacts.readText('task_aaaaaa04', 'documents/requirements-review-v1.json')).toBe('{"verdict":"approve","note":"second"}');
    await expect(artifacts.writeStep('task_aaaaaa04', '../escape.md', 'b')).rejects.toMatchObject({ code: 'CDSL_REQUEST_INVALID' });
  });
});
