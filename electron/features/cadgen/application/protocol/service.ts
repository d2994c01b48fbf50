import { drawingLanguageOf } from '../../domain/drawingSvg';
import { DEFAULT_BUDGET, ZERO_USAGE } from '../../domain/protocol/budgets';
import type { TaskBudget } from '../../domain/protocol/budgets';
import { protocolError, ProtocolErrorCode } from '../../domain/protocol/errors';
import { FRESH_COUNTERS } from '../../domain/protocol/progress';
import { isTerminal } from '../../domain/protocol/states';
import { headToken, seqId } from '../../domain/protocol/task';
import type { SourceEntry, TaskRecord } from '../../domain/protocol/task';
import { buildDocument } from '../buildDocument';
import { runTask } from './coordinator';
import type { RunOptions } from './coordinator';
import type { GenerationDeps } from './deps';
import { dispatchOutbox } from './outbox';
import { fullRecord } from './fullRecord';
import type { TaskSnapshot } from './ports';
import { resumeChange } from './resumeTask';
import { moveTo } from './transitions';

export const MAX_REQUEST_CHARS = 8000;

/** How long a driver's lease lasts without a heartbeat (a crashed driver's task is free after this). */
export const LEASE_TTL_MS = 60_000;
const HEARTBEAT_MS = LEASE_TTL_MS / 4;

/** Splits the request into stable source paragraphs (blank lines or ';'), never interpreting them. */
export function sourceEntries(request: string): SourceEntry[] {
  const parts = request.split(/\n\s*\n|;\s*/).map((p) => p.trim()).filter(Boolean);
  return parts.slice(0, 32).map((text, i) => ({ source_id: seqId('src', i + 1), text }));
}

export interface NewTaskInput {
  request: string;
  budget?: Partial<TaskBudget>;
  /** Start from an accepted revision of another task ("edit an existing part"). */
  from?: { taskId: string; revisionId: string };
}

/** The generation use cases (CLI and IPC call these; runs go to a terminal or waiting state). */
export function createGenerationService(deps: GenerationDeps) {
  const load = (taskId: string): TaskSnapshot => deps.repo.load(taskId);

  /**
   * Runs `drive` as the task's only driver (issue 24): takes the SQLite lease or throws
   * CDSL_TASK_BUSY (retryable) while another process holds an unexpired one; renews it by
   * heartbeat while driving and releases it after. A crashed driver's lease expires, or is taken
   * over at once when `deps.driver` knows its process is gone (a resume right after a crash).
   */
  async function asDriver<T>(taskId: string, drive: () => Promise<T>): Promise<T> {
    load(taskId); // CDSL_TASK_NOT_FOUND before any lease row
    const owner = deps.driver?.newOwner() ?? deps.newId('lease');
    let held = deps.repo.acquireLease(taskId, owner, LEASE_TTL_MS);
    if (held && deps.driver?.isGone(held.owner)) held = deps.repo.acquireLease(taskId, owner, LEASE_TTL_MS, held.owner);
    if (held) throw protocolError(ProtocolErrorCode.taskBusy, `task ${taskId} is being driven by another process or window until ${new Date(held.expires_at).toISOString()}; try again later`, { holder: held.owner, expires_at: held.expires_at });
    const heartbeat = setInterval(() => {
      try {
        deps.repo.acquireLease(taskId, owner, LEASE_TTL_MS);
      } catch {
        // A failed heartbeat lets the lease expire; the commit path reports storage failures itself.
      }
    }, HEARTBEAT_MS);
    heartbeat.unref?.();
    try {
      return await drive();
    } finally {
      clearInterval(heartbeat);
      deps.repo.releaseLease(taskId, owner);
    }
  }

  async function create(input: NewTaskInput): Promise<TaskRecord> {
    const request = input.request.trim();
    if (!request || request.length > MAX_REQUEST_CHARS) throw protocolError(ProtocolErrorCode.requestInvalid, `the request must be 1..${MAX_REQUEST_CHARS} characters`);
    const from = input.from ? load(input.from.taskId) : null;
    const base = from?.revisions.find((r) => r.revision_id === input.from?.revisionId);
    if (input.from && !base) throw protocolError(ProtocolErrorCode.requestInvalid, `task ${input.from.taskId} has no revision ${input.from.revisionId}`);
    const id = `task_${deps.newId('t').slice(2, 14).toLowerCase()}`;
    const now = deps.clock.now().toISOString();
    const sources = sourceEntries(request);
    const task: TaskRecord = {
      task_id: id, state: 'DRAFTING_REQUIREMENTS', state_version: 0, working_head: headToken(0, null), head_revision: null, head_counter: 0, resume_state: null, failure_reason: null,
      last_error: null, question: null, answer: null, request, author_model: deps.author.id, reviewer_model: deps.reviewer.id, budget: { ...DEFAULT_BUDGET, ...(input.budget ?? {}) }, budget_overrides: { ...(input.budget ?? {}) }, budget_basis: null, usage: ZERO_USAGE,
      counters: FRESH_COUNTERS, from_task: input.from?.taskId ?? null, from_revision: input.from?.revisionId ?? null, run_id: deps.newId('run'), notes: { head: headToken(0, null) }, evidence: [], created_at: now, updated_at: now,
    };
    await deps.artifacts.writeOnce(id, 'source-requirements.md', `${request}\n`);
    await deps.artifacts.writeOnce(id, 'documents/source-index.json', JSON.stringify(sources, null, 2));
    deps.repo.create(task, sources, { type: 'task_created', payload: { request: request.slice(0, 200) } });
    if (base) await importBase(id, base);
    await dispatchOutbox(deps, id);
    return load(id).task;
  }

  /** Rebuilds the base revision into this task as its rev_001 (same CDSL, fresh artifacts). */
  async function importBase(id: string, base: TaskSnapshot['revisions'][number]): Promise<void> {
    const snapshot = load(id);
    const document = JSON.parse(base.document_json);
    const built = await buildDocument({ catalog: deps.catalog, runtime: deps.runtime, publisher: deps.publisher, encoders: deps.encoders }, { document, claims: [], outDir: deps.artifacts.revisionDir(id, 'rev_001'), stage: 'candidate', labelLanguage: drawingLanguageOf(snapshot.task.request) });
    if (!built.artifacts) throw protocolError(ProtocolErrorCode.requestInvalid, 'the base revision does not rebuild');
    const topology = JSON.parse((await deps.artifacts.readText(id, 'revisions/rev_001/topology.json')) ?? '{}') as { snapshot_id: string };
    const head = headToken(1, 'rev_001');
    deps.repo.commit(id, snapshot.task.state_version, {
      revision: { revision_id: 'rev_001', parent_revision: null, action_id: 'act_000', candidate_id: 'imported', document_json: base.document_json, snapshot_id: topology.snapshot_id, dir: 'revisions/rev_001', manifest_json: JSON.stringify(built.artifacts) },
      task: { head_revision: 'rev_001', head_counter: 1, working_head: head, notes: { head } },
      ledger: [{ event: 'accepted', action_id: 'act_000', revision_id: 'rev_001', actual_atomic_id: 'import', summary: `imported ${base.revision_id} of ${snapshot.task.from_task}` }],
    });
  }

  return {
    create,
    /** Drives the task (CDSL_TASK_BUSY while another driver holds it). */
    run: (taskId: string, options?: RunOptions) => asDriver(taskId, () => runTask(deps, taskId, options)),
    /**
     * Resumes WAITING_RETRY into the state it left, or re-enters an active task after a crash;
     * `raise` (an explicit larger budget) also continues a task FAILED as BUDGET_EXHAUSTED.
     * Errors: CDSL_TASK_BUSY (another driver), CDSL_TASK_NOT_RESUMABLE (terminal), CDSL_AUTHOR_DECISION_REJECTED (waits for an answer),
     * CDSL_BUDGET_INVALID (a raise not above what was spent, or leaving a limit exhausted).
     */
    resume: (taskId: string, options?: RunOptions, raise?: Partial<TaskBudget>): Promise<TaskRecord> =>
      asDriver(taskId, async () => {
        const { task } = load(taskId);
        const change = resumeChange(task, raise);
        if (change) deps.repo.commit(taskId, task.state_version, change);
        return runTask(deps, taskId, options);
      }),
    /** Answers a WAITING_FOR_USER question: the answer becomes a new source paragraph (CDSL_TASK_BUSY while another driver holds it). */
    answer: (taskId: string, text: string, options?: RunOptions): Promise<TaskRecord> => asDriver(taskId, () => answerTask(taskId, text, options)),
    /** Cancels a task (FAILED, reason CANCELLED); its ledger line and `failed` event are dispatched before it returns, even when no run is going. */
    cancel,
    list: () => deps.repo.list(),
    show: load,
    ledger: (taskId: string) => deps.repo.ledger(taskId),
    /** The ledger merged with the audit row of every model output (redacted raw arguments, field errors; format errors marked). */
    fullRecord: (taskId: string) => {
      load(taskId);
      return fullRecord(deps.repo.ledger(taskId), deps.repo.invocations(taskId));
    },
  };

  async function answerTask(taskId: string, text: string, options?: RunOptions): Promise<TaskRecord> {
    const { task, sources } = load(taskId);
      if (task.state !== 'WAITING_FOR_USER') throw protocolError(ProtocolErrorCode.authorDecisionRejected, `task ${taskId} is not waiting for an answer`);
      const answer = text.trim().slice(0, 2000);
      if (!answer) throw protocolError(ProtocolErrorCode.requestInvalid, 'the answer is empty');
      const to = task.resume_state === 'AWAITING_ACTION' ? 'AWAITING_ACTION' : 'DRAFTING_REQUIREMENTS';
      const source = { source_id: seqId('src', sources.length + 1), text: answer };
      deps.repo.commit(taskId, task.state_version, {
        sources: to === 'DRAFTING_REQUIREMENTS' ? [source] : [],
        task: { state: moveTo(task.state, 'user_answered', to), answer, question: null, resume_state: null, usage: { ...task.usage, requirementRevisions: 0 } },
        outbox: [{ type: 'answered', payload: { state: to } }],
      });
      return runTask(deps, taskId, options);
  }

  async function cancel(taskId: string): Promise<TaskRecord> {
    const { task } = load(taskId);
      if (isTerminal(task.state)) return task;
      deps.repo.commit(taskId, task.state_version, {
        task: { state: moveTo(task.state, 'failed'), failure_reason: 'CANCELLED', last_error: protocolError(ProtocolErrorCode.taskCancelled, 'cancelled by the user').toData() },
        pending: null,
        ledger: [{ event: 'failed', reason: 'CANCELLED' }],
        outbox: [{ type: 'failed', payload: { reason: 'CANCELLED' } }],
      });
      await dispatchOutbox(deps, taskId);
      return load(taskId).task;
  }
}

export type GenerationService = ReturnType<typeof createGenerationService>;
