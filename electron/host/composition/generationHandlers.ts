import { readFile, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { AppError } from '../../../shared/errors';
import type { IpcEvents } from '../../../shared/ipc/channels';
import { generationChannels, MAX_GEN_ARTIFACT_BYTES, type GenClaimView, type GenModelConformance, type GenTaskDetail, type GenTaskSummary } from '../../../shared/ipc/contracts/generation';
import { createCanvasDxfRenderer, type DxfScreenshotRenderer } from '../../features/drawing/index';
import { createSqliteReviewStore } from '../../features/review/index';
import { checkModel, exhaustedLimit, LATEST_CONFORMANCE, publishedDigests, requireConformantModel, resumeChange, verifyArtifactBytes, type CadRuntime, type GenerationConformance, type ClaimResult, type EventSink, type ManifestDigest, type TaskRecord, type TaskSnapshot } from '../../features/cadgen/index';
import type { SqliteDatabase } from '../../platform/db/types';
import type { EventBus } from '../../platform/events/eventBus';
import type { HandlerTable } from '../../platform/ipc/router';
import type { LlmProviderConfig } from '../../platform/llm/types';
import type { Logger } from '../../platform/log/types';
import { createGenerationRuntime, type GenerationRuntime } from './cadgenGeneration';
import { makeTaskDrawing } from './generationDrawing';
import { EXPORT_FILES } from './generationExportFolder';
import { filesUnder, sizedExportFiles, zipExportFiles } from './generationZip';

export interface GenerationHandlerOptions {
  db: SqliteDatabase;
  tasksRoot: string;
  events: EventBus<IpcEvents>;
  /** The shared OCCT runtime (owned and disposed by the caller). */
  runtime: CadRuntime;
  workerScript: URL;
  log: Logger;
  /** The author/reviewer model: `override` is "provider/model" (input or the task's stored model), else the role's model. */
  resolveModel(role: 'author' | 'reviewer', override?: string): LlmProviderConfig;
  /** Cap on genGetArtifact (tests lower it); default MAX_GEN_ARTIFACT_BYTES. */
  maxTransferBytes?: number;
  /** Renders the drawing previews of genMakeDrawing; default the drawing slice's canvas renderer over the installed CJK fonts (made on first use). */
  drawingRenderer?: DxfScreenshotRenderer;
}

export interface GenerationHandlers {
  handlers: HandlerTable<typeof generationChannels>;
  /** Resolves when no background run is in progress (used at shutdown and by tests). */
  idle(): Promise<void>;
  /**
   * App shutdown: asks every background run to stop at its next step boundary (a model call in
   * flight is cancelled) and waits at most `waitMs` for them. Stopped tasks stay in their active
   * state and are resumable after a restart. Resolves false when a run was still busy at the deadline.
   */
  shutdown(waitMs: number): Promise<boolean>;
}

const MEDIA_TYPES: [string, string][] = [['.step', 'model/step'], ['.glb', 'model/gltf-binary'], ['.png', 'image/png'], ['.svg', 'image/svg+xml'], ['.json', 'application/json'], ['.jsonl', 'application/x-ndjson'], ['.md', 'text/markdown'], ['.dxf', 'image/vnd.dxf'], ['.pdf', 'application/pdf']];
const mediaTypeOf = (name: string): string => MEDIA_TYPES.find(([ext]) => name.endsWith(ext))?.[1] ?? 'application/octet-stream';

/**
 * Who asked the open question. The record keeps no asker, but the two engine paths that ask differ
 * in where they resume: the requirements reviewer's question returns to DRAFTING_REQUIREMENTS, the
 * author's geometry conclusion to AWAITING_ACTION.
 */
const askerOf = (task: TaskRecord): 'author' | 'reviewer' => (task.resume_state === 'DRAFTING_REQUIREMENTS' ? 'reviewer' : 'author');

type RequirementsReview = NonNullable<GenTaskDetail['requirementsReview']>;

/** The latest requirements review in cdsl_reviews (the snapshot carries none); body fields of the wrong type are left out. */
function latestRequirementsReview(db: SqliteDatabase, taskId: string): RequirementsReview | null {
  const row = db.prepare("SELECT verdict, body_json, at FROM cdsl_reviews WHERE task_id = ? AND kind = 'requirements' ORDER BY review_id DESC LIMIT 1").get(taskId) as { verdict: string; body_json: string; at: string } | undefined;
  if (!row) return null;
  const body = JSON.parse(row.body_json) as { items?: unknown };
  const items = (Array.isArray(body.items) ? body.items : []).flatMap((item): RequirementsReview['items'] => {
    const r = (item ?? {}) as Record<string, unknown>;
    return typeof r.draft_id === 'string' && typeof r.verdict === 'string' ? [{ draftId: r.draft_id, verdict: r.verdict, note: typeof r.note === 'string' ? r.note : '' }] : [];
  });
  return { verdict: row.verdict, items, at: row.at };
}

/** The built candidate the reviewer has not judged yet, with the claim results of its build report. */
function awaitingReview(snapshot: TaskSnapshot): GenTaskDetail['candidate'] {
  const built = snapshot.candidates.filter((c) => c.status === 'built').at(-1);
  if (!built) return null;
  const report = built.report_json ? (JSON.parse(built.report_json) as { claims?: { id?: unknown; status?: unknown }[] }) : {};
  const claims = (report.claims ?? []).flatMap((c) => (typeof c.id === 'string' && typeof c.status === 'string' ? [{ claimId: c.id, status: c.status }] : []));
  return { candidateId: built.candidate_id, actionId: built.action_id, revisionId: built.revision_id, claims };
}

function summary(task: TaskRecord, revisionCount: number): GenTaskSummary {
  return {
    taskId: task.task_id, state: task.state, request: task.request, authorModel: task.author_model, reviewerModel: task.reviewer_model,
    headRevision: task.head_revision, revisionCount, failureReason: task.failure_reason, lastError: task.last_error,
    question: task.question ? { reasonCode: task.question.reason_code, text: task.question.text, askedBy: askerOf(task) } : null,
    usage: { ...task.usage }, fromTask: task.from_task, fromRevision: task.from_revision, createdAt: task.created_at, updatedAt: task.updated_at,
  };
}

function manifestFiles(manifestJson: string): string[] {
  const manifest = JSON.parse(manifestJson) as { files?: { name: string }[] };
  return (manifest.files ?? []).map((f) => f.name);
}

function detail(snapshot: TaskSnapshot, revision: string | undefined, requirementsReview: RequirementsReview | null, usage: { role: 'author' | 'reviewer'; usage: { promptTokens?: number; cachedPromptTokens?: number; completionTokens?: number; contextBytes: number; latencyMs: number; retries?: number } }[]): GenTaskDetail {
  const { task } = snapshot;
  const shown = revision ?? task.head_revision;
  if (revision && !snapshot.revisions.some((r) => r.revision_id === revision)) throw new AppError('CDSL_REQUEST_INVALID', `task ${task.task_id} has no revision ${revision}`, { data: { taskId: task.task_id, revision } });
  // Final validation results supersede the candidate's for the same revision.
  const results = new Map<string, ClaimResult>((shown ? (snapshot.claimResults.get(`${shown}@final`) ?? snapshot.claimResults.get(shown) ?? []) : []).map((r) => [r.id, r]));
  const claimView = (claim: NonNullable<TaskSnapshot['contract']>['contract']['claims'][number]): GenClaimView => {
    const result = results.get(claim.claim_id);
    return { claimId: claim.claim_id, kind: claim.claim_kind, expected: claim.expected, deterministic: claim.deterministic, status: result?.status ?? 'pending', message: result?.message ?? null, evidence: result?.evidence ?? null };
  };
  const contract = snapshot.contract;
  const role = (name: 'author' | 'reviewer') => {
    const rows = usage.filter((u) => u.role === name);
    const sum = (pick: (u: (typeof rows)[number]['usage']) => number | undefined) => rows.reduce((n, r) => n + (pick(r.usage) ?? 0), 0);
    return { calls: rows.reduce((n, r) => n + 1 + (r.usage.retries ?? 0), 0), promptTokens: sum((u) => u.promptTokens), cachedPromptTokens: sum((u) => u.cachedPromptTokens), completionTokens: sum((u) => u.completionTokens), contextBytes: sum((u) => u.contextBytes), latencyMs: Math.round(sum((u) => u.latencyMs)) };
  };
  return {
    task: summary(task, snapshot.revisions.length),
    budget: { ...task.budget },
    sources: snapshot.sources.map((s) => ({ sourceId: s.source_id, text: s.text })),
    drafts: snapshot.drafts.map((d) => ({ draftId: d.draft_id, item: { ...d.item } })),
    contract: contract
      ? {
          hash: contract.hash,
          requirements: contract.contract.requirements.map((r) => ({
            requirementId: r.requirement_id, statement: r.statement, sourceIds: r.source_ids, assumptions: r.assumptions,
            claims: contract.contract.claims.filter((c) => c.requirement_id === r.requirement_id).map(claimView),
          })),
        }
      : null,
    pending: snapshot.pending
      ? { actionId: snapshot.pending.action_id, intent: snapshot.pending.proposal.intent, requirementIds: snapshot.pending.proposal.requirement_ids, operation: snapshot.pending.proposal.atomic_id, expectedChange: snapshot.pending.proposal.expected_change }
      : null,
    revisions: snapshot.revisions.map((r) => ({ revisionId: r.revision_id, parentRevision: r.parent_revision, actionId: r.action_id, dir: r.dir, files: manifestFiles(r.manifest_json) })),
    shownRevision: shown,
    requirementsReview,
    candidate: awaitingReview(snapshot),
    usageByRole: { author: role('author'), reviewer: role('reviewer') },
    budgetExhausted: exhaustedLimit(task),
    budgetBasis: task.budget_basis ?? null,
  };
}

function conformanceView(model: string, stored: { passed: boolean; report: unknown; checked_at: string } | undefined): GenModelConformance {
  if (!stored) return { model, status: 'unchecked', checkedAt: null, passedChecks: 0, totalChecks: 0, failures: [] };
  const checks = (stored.report as Partial<GenerationConformance> | null)?.checks ?? [];
  return {
    model,
    status: stored.passed ? 'passed' : 'failed',
    checkedAt: stored.checked_at,
    passedChecks: checks.filter((c) => c.passed).length,
    totalChecks: checks.length,
    failures: checks.filter((c) => !c.passed).slice(0, 500).map((c) => ({ name: c.name, detail: c.detail })),
  };
}

/** Resolves `name` inside the task folder, refusing anything that could leave it (CDSL_ARTIFACT_PATH_INVALID). */
async function confinedFile(taskDir: string, name: string): Promise<string> {
  const refuse = (): never => {
    throw new AppError('CDSL_ARTIFACT_PATH_INVALID', `"${name}" is not a file name inside the task folder`, { data: { name } });
  };
  if (name.includes('\0') || name.includes('\\') || path.isAbsolute(name) || name.split('/').some((part) => part === '..' || part === '.' || part === '')) refuse();
  const root = await realpath(taskDir);
  let real: string;
  try {
    real = await realpath(path.join(root, name));
  } catch {
    throw new AppError('STORE_ARTIFACT_NOT_FOUND', `the task folder has no ${name}`, { data: { name } });
  }
  // A symbolic link inside the folder must not lead out of it.
  if (!real.startsWith(`${root}${path.sep}`)) refuse();
  return real;
}

/**
 * Handlers of the generation protocol. Runs go to the background (one per task at a time); the
 * renderer follows them through `genTaskEvent`, which is emitted only by the engine's outbox
 * dispatcher (the generation runtime's sink), never by a handler.
 */
export function createGenerationHandlers(options: GenerationHandlerOptions): GenerationHandlers {
  const log = options.log.child({ slice: 'generation' });
  const maxTransferBytes = options.maxTransferBytes ?? MAX_GEN_ARTIFACT_BYTES;
  const running = new Map<string, Promise<void>>();
  const stopping = new AbortController();
  const run = { signal: stopping.signal };
  const sink: EventSink = (event) => {
    const state = reader.deps.repo.load(event.task_id).task.state;
    options.events.emit('genTaskEvent', { seq: event.seq, taskId: event.task_id, type: event.type, state, payload: event.payload });
  };
  const runtimeWith = (models: { author?: LlmProviderConfig; reviewer?: LlmProviderConfig }): GenerationRuntime =>
    createGenerationRuntime({ db: options.db, tasksRoot: options.tasksRoot, workerScript: options.workerScript, runtime: options.runtime, log, sink, ...models });
  const reader = runtimeWith({});
  // Recovery (staging clean-up, outbox re-dispatch) runs once, before the first command.
  let recovered: Promise<unknown> | null = null;
  const ready = async (): Promise<void> => {
    recovered ??= reader.recover().then((report) => {
      if (report.interrupted.length > 0) log.info('interrupted generation tasks (resume them)', { tasks: report.interrupted });
    });
    await recovered;
  };
  const load = async (taskId: string): Promise<TaskSnapshot> => {
    await ready();
    return reader.service.show(taskId);
  };
  const modelsOf = (task: Pick<TaskRecord, 'author_model' | 'reviewer_model'> | null, input?: { author?: string | undefined; reviewer?: string | undefined }) => ({
    author: options.resolveModel('author', input?.author ?? task?.author_model),
    reviewer: options.resolveModel('reviewer', input?.reviewer ?? task?.reviewer_model),
  });
  const notBusy = (taskId: string): void => {
    if (running.has(taskId)) throw new AppError('CDSL_TASK_BUSY', `task ${taskId} is already running`, { retryable: true, data: { taskId } });
  };
  /** Starts `work` in the background; its outcome reaches the renderer through the outbox events. */
  const background = (taskId: string, gen: GenerationRuntime, work: () => Promise<unknown>): void => {
    const done = work()
      .catch((error: unknown) => log.error('generation run ended with an error', { taskId, error: error instanceof AppError ? `${error.code}: ${error.message}` : String(error) }))
      .finally(() => running.delete(taskId))
      .then(() => gen.dispose());
    running.set(taskId, done);
  };
  const revisionCount = (taskId: string): number => reader.service.show(taskId).revisions.length;
  const drawing = new Set<string>();
  let drawingRenderer = options.drawingRenderer;

  const handlers: HandlerTable<typeof generationChannels> = {
    async genStart({ request, author, reviewer, fromTask, revision, budgets }) {
      await ready();
      const gen = runtimeWith(modelsOf(null, { author, reviewer }));
      await requireConformantModel(gen.deps, gen.deps.author);
      await requireConformantModel(gen.deps, gen.deps.reviewer);
      const created = await gen.service.create({ request, ...(budgets ? { budget: budgets } : {}), ...(fromTask && revision ? { from: { taskId: fromTask, revisionId: revision } } : {}) });
      background(created.task_id, gen, () => gen.service.run(created.task_id, run));
      return summary(created, revisionCount(created.task_id));
    },
    async genList({ state }) {
      await ready();
      return reader.service.list().filter((t) => !state || t.state === state).sort((a, b) => b.created_at.localeCompare(a.created_at)).map((t) => summary(t, revisionCount(t.task_id)));
    },
    async genShow({ taskId, revision }) {
      const snapshot = await load(taskId);
      return detail(snapshot, revision, latestRequirementsReview(options.db, taskId), reader.deps.repo.usage(taskId));
    },
    async genLedger({ taskId }) {
      await load(taskId);
      return reader.service.ledger(taskId);
    },
    async genResume({ taskId, budget }) {
      const { task } = await load(taskId);
      notBusy(taskId);
      // Refused here, before the background run: a finished task, one waiting for an answer, a bad raise.
      resumeChange(task, budget);
      const gen = runtimeWith(modelsOf(task));
      background(taskId, gen, () => gen.service.resume(taskId, run, budget));
      return summary(task, revisionCount(taskId));
    },
    async genAnswer({ taskId, text }) {
      const { task } = await load(taskId);
      notBusy(taskId);
      if (task.state !== 'WAITING_FOR_USER') throw new AppError('CDSL_AUTHOR_DECISION_REJECTED', `task ${taskId} is not waiting for an answer`, { data: { taskId, state: task.state } });
      const gen = runtimeWith(modelsOf(task));
      background(taskId, gen, () => gen.service.answer(taskId, text, run));
      return summary(task, revisionCount(taskId));
    },
    async genCancel({ taskId }) {
      await load(taskId);
      const task = await reader.service.cancel(taskId);
      return summary(task, revisionCount(taskId));
    },
    async genGetArtifact({ taskId, name }) {
      const snapshot = await load(taskId);
      const file = await confinedFile(reader.deps.artifacts.taskDir(taskId), name);
      const info = await stat(file);
      if (!info.isFile()) throw new AppError('STORE_ARTIFACT_NOT_FOUND', `${name} is not a file`, { data: { name } });
      if (info.size > maxTransferBytes) throw new AppError('CDSL_ARTIFACT_TOO_LARGE', `${name} is ${info.size} bytes; at most ${maxTransferBytes} bytes can be transferred`, { data: { size: info.size, max: maxTransferBytes } });
      const bytes = await readFile(file);
      verifyArtifactBytes(name, bytes, publishedDigests(snapshot.revisions).get(name));
      return { taskId, name, mediaType: mediaTypeOf(name), size: bytes.length, base64: bytes.toString('base64') };
    },
    async genExportZip({ taskId, revision }) {
      const snapshot = await load(taskId);
      const wanted = revision ?? snapshot.task.head_revision;
      const published = snapshot.revisions.find((r) => r.revision_id === wanted);
      if (!published) throw new AppError('CDSL_REQUEST_INVALID', wanted ? `task ${taskId} has no revision ${wanted}` : `task ${taskId} has no published revision yet`, { data: { taskId, revision: wanted } });
      const taskDir = reader.deps.artifacts.taskDir(taskId);
      const names = [...EXPORT_FILES, ...(await filesUnder(taskDir, published.dir)).sort()];
      const digests = publishedDigests(snapshot.revisions);
      const chosen: { name: string; path: string; expected?: ManifestDigest }[] = [];
      for (const name of names) {
        const file = await confinedFile(taskDir, name).catch((error: unknown) => {
          if (error instanceof AppError && error.code === 'STORE_ARTIFACT_NOT_FOUND') return null;
          throw error;
        });
        const expected = digests.get(name);
        if (file) chosen.push({ name, path: file, ...(expected ? { expected } : {}) });
      }
      const what = `the export of ${taskId}`;
      const files = await sizedExportFiles(chosen, maxTransferBytes, what);
      const zip = await zipExportFiles(files, maxTransferBytes, what);
      return { taskId, fileName: `${taskId}-${published.revision_id}.zip`, size: zip.length, entries: files.map((f) => f.name), base64: Buffer.from(zip).toString('base64') };
    },
    async genMakeDrawing(input) {
      await load(input.taskId);
      notBusy(input.taskId);
      if (drawing.has(input.taskId)) throw new AppError('CDSL_TASK_BUSY', `a drawing of task ${input.taskId} is being made`, { retryable: true, data: { taskId: input.taskId } });
      drawing.add(input.taskId);
      try {
        drawingRenderer ??= createCanvasDxfRenderer();
        return await makeTaskDrawing({ gen: reader, store: createSqliteReviewStore(options.db, () => new Date()), renderer: drawingRenderer, now: () => new Date() }, input);
      } finally {
        drawing.delete(input.taskId);
      }
    },
    async genModelStatus({ models }) {
      await ready();
      const wanted = models ?? (['author', 'reviewer'] as const).flatMap((role) => {
        try {
          const config = options.resolveModel(role);
          return [`${config.id}/${config.model}`];
        } catch (error) {
          // A role without a model has no status to show; any other failure is the caller's to see.
          if (error instanceof AppError && error.code === 'LLM_NOT_CONFIGURED') return [];
          throw error;
        }
      });
      return [...new Set(wanted)].map((model) => conformanceView(model, reader.deps.repo.capabilities(model, LATEST_CONFORMANCE)));
    },
    async genCheckModel({ model }) {
      await ready();
      const gen = runtimeWith({ author: options.resolveModel('author', model) });
      try {
        const report = await checkModel(gen.deps, gen.deps.author);
        return conformanceView(report.model, reader.deps.repo.capabilities(report.model, LATEST_CONFORMANCE));
      } finally {
        await gen.dispose();
      }
    },
  };
  const idle = async (): Promise<void> => void (await Promise.all([...running.values()]));
  const shutdown = async (waitMs: number): Promise<boolean> => {
    stopping.abort();
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), waitMs)));
    try {
      return await Promise.race([idle().then(() => true), deadline]);
    } finally {
      clearTimeout(timer);
    }
  };
  return { handlers, idle, shutdown };
}
