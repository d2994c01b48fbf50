import type { z } from 'zod';
import type { AppErrorData } from '../../shared/errors';
import type { generationChannels, generationEvents, GenModelConformance, GenTaskDetail, GenTaskSummary } from '../../shared/ipc/contracts/generation';
import { base64Bytes } from '../shell/saveFile';
import { parseDraftReview, type DraftReview } from './generationFacts';
import type { ShellSlice } from './shellSlice';
import type { SliceContext } from './types';

export type GenTaskState = GenTaskSummary['state'];
export type GenStartInput = z.input<(typeof generationChannels)['genStart']['input']>;
/** Budget limits a resume raises (genResume's `budget`). */
export type GenBudget = NonNullable<z.input<(typeof generationChannels)['genResume']['input']>['budget']>;
/** What genMakeDrawing returns: the sheet, the self-review counts and the task-folder names of its files. */
export type GenDrawing = z.output<(typeof generationChannels)['genMakeDrawing']['output']>;
export type GenDrawingInput = z.input<(typeof generationChannels)['genMakeDrawing']['input']>;
export type GenTaskEvent = z.output<(typeof generationEvents)['genTaskEvent']>;
/** One cad.action-ledger.v1 event as the host returns it (fields vary by `event`). */
export type GenLedgerEvent = Record<string, unknown>;

/** A conformance check running now, or the typed error of the last one that could not run. */
export type GenCheckState = { status: 'running' } | { status: 'failed'; error: AppErrorData };

/** The open task: its detail for the shown revision, its ledger and the latest event seen for it. */
export interface GenOpenTask {
  taskId: string;
  detail: GenTaskDetail | null;
  ledger: GenLedgerEvent[];
  /** The revision picked with the slider; null = follow the head. */
  revision: string | null;
  lastEvent: GenTaskEvent | null;
  error: AppErrorData | null;
  /** The reviewer's verdict per draft (documents/requirements-review-v1.json, written when the contract froze). */
  review: DraftReview | null;
}

/** Generate → "Describe a part": tasks of the CDSL v3 protocol, followed live through genTaskEvent. */
export interface GenerationSlice {
  /** Which Generate tab is shown (kept here so it survives leaving the area). */
  genTab: 'words' | 'document';
  setGenTab(tab: 'words' | 'document'): void;
  genTasks: GenTaskSummary[] | null;
  /** '' = every state. */
  genFilter: GenTaskState | '';
  setGenFilter(filter: GenTaskState | ''): Promise<void>;
  loadGenTasks(): Promise<void>;
  genOpen: GenOpenTask | null;
  openGenTask(taskId: string | null): Promise<void>;
  /** Shows a revision's claim statuses and model (null = the head). */
  showGenRevision(revision: string | null): Promise<void>;
  /** Starts a task and opens it; returns the typed error for the form instead of the banner. */
  startGenTask(input: GenStartInput): Promise<AppErrorData | null>;
  answerGenTask(text: string): Promise<AppErrorData | null>;
  resumeGenTask(taskId: string): Promise<void>;
  /** Continues a task FAILED as BUDGET_EXHAUSTED with a larger budget; returns the typed refusal (e.g. CDSL_BUDGET_INVALID) or null. */
  raiseGenBudget(taskId: string, budget: GenBudget): Promise<AppErrorData | null>;
  cancelGenTask(taskId: string): Promise<void>;
  genModels: Record<string, GenModelConformance>;
  genChecks: Record<string, GenCheckState>;
  loadGenModelStatus(models: string[]): Promise<void>;
  checkGenModel(model: string): Promise<void>;
  /** One task-folder file's bytes, or null after reporting the typed error. */
  fetchGenFile(taskId: string, name: string): Promise<Uint8Array | null>;
  /** The task folder + a revision as one zip, or null after reporting the typed error. */
  exportGenZip(taskId: string, revision: string | null): Promise<{ fileName: string; bytes: Uint8Array } | null>;
  /** Makes the GB drawing of a task's revision (host: OCCT worker + self-review), or null after reporting the typed error in the banner. */
  makeGenDrawing(input: GenDrawingInput): Promise<GenDrawing | null>;
  /** Subscribes to genTaskEvent; returns the unsubscribe function (the Generate view owns the lifetime). */
  followGenEvents(): () => void;
}

/** Events arriving this close together cause one refetch (a build emits several in a burst). */
const REFRESH_DEBOUNCE_MS = 150;
/** How many event sequence numbers are remembered for de-duplication (delivery is at least once). */
const SEEN_LIMIT = 2000;

export function createGenerationSlice<S extends ShellSlice & GenerationSlice>({ set, get, bridge }: SliceContext<S>): GenerationSlice {
  const patch = (partial: Partial<GenerationSlice>): void => set(partial as Partial<S>);
  const patchOpen = (taskId: string, partial: Partial<GenOpenTask>): void => {
    const open = get().genOpen;
    // A reply for a task that is no longer open is dropped.
    if (open?.taskId === taskId) patch({ genOpen: { ...open, ...partial } });
  };
  const seen = new Set<number>();
  let refreshTimer: ReturnType<typeof setTimeout> | null = null;
  let refreshTasks = false;
  let refreshOpen = false;

  const refetchOpen = async (): Promise<void> => {
    const open = get().genOpen;
    if (!open) return;
    const [shown, ledger] = await Promise.all([
      bridge.genShow({ taskId: open.taskId, ...(open.revision ? { revision: open.revision } : {}) }),
      bridge.genLedger({ taskId: open.taskId }),
    ]);
    // A newer revision pick has its own request in flight: this answer is stale.
    if (get().genOpen?.revision !== open.revision) return;
    if (!shown.ok) return patchOpen(open.taskId, { error: shown.error });
    patchOpen(open.taskId, { detail: shown.value, ledger: ledger.ok ? ledger.value : get().genOpen?.ledger ?? [], error: ledger.ok ? null : ledger.error });
    // A host that predates genShow's requirementsReview: the review document exists once the
    // contract is frozen and never changes afterwards.
    if (shown.value.requirementsReview === undefined && shown.value.contract && !get().genOpen?.review) {
      const review = await bridge.genGetArtifact({ taskId: open.taskId, name: 'documents/requirements-review-v1.json' });
      if (review.ok) patchOpen(open.taskId, { review: parseDraftReview(base64Bytes(review.value.base64)) });
      else patchOpen(open.taskId, { error: review.error });
    }
  };

  const scheduleRefresh = (tasks: boolean, openTask: boolean): void => {
    refreshTasks ||= tasks;
    refreshOpen ||= openTask;
    if (refreshTimer) return;
    refreshTimer = setTimeout(() => {
      refreshTimer = null;
      const [t, o] = [refreshTasks, refreshOpen];
      refreshTasks = refreshOpen = false;
      if (t) void get().loadGenTasks();
      if (o) void refetchOpen();
    }, REFRESH_DEBOUNCE_MS);
  };

  const afterCommand = async (taskId: string, result: { ok: true; value: GenTaskSummary } | { ok: false; error: AppErrorData }): Promise<AppErrorData | null> => {
    if (!result.ok) return result.error;
    if (get().genOpen?.taskId === taskId) await refetchOpen();
    await get().loadGenTasks();
    return null;
  };

  return {
    genTab: 'words',
    setGenTab(tab) {
      patch({ genTab: tab });
    },
    genTasks: null,
    genFilter: '',
    async setGenFilter(filter) {
      patch({ genFilter: filter });
      await get().loadGenTasks();
    },
    async loadGenTasks() {
      const filter = get().genFilter;
      const tasks = get().unwrap(await bridge.genList(filter ? { state: filter } : {}));
      // A newer filter may have been chosen while this list was on its way.
      if (tasks && get().genFilter === filter) patch({ genTasks: tasks });
    },
    genOpen: null,
    async openGenTask(taskId) {
      if (taskId === null) return patch({ genOpen: null });
      patch({ genOpen: { taskId, detail: null, ledger: [], revision: null, lastEvent: null, error: null, review: null } });
      await refetchOpen();
    },
    async showGenRevision(revision) {
      const open = get().genOpen;
      if (!open) return;
      patch({ genOpen: { ...open, revision } });
      await refetchOpen();
    },
    async startGenTask(input) {
      const result = await bridge.genStart(input);
      if (!result.ok) return result.error;
      await get().openGenTask(result.value.taskId);
      await get().loadGenTasks();
      return null;
    },
    async answerGenTask(text) {
      const open = get().genOpen;
      if (!open) return null;
      return afterCommand(open.taskId, await bridge.genAnswer({ taskId: open.taskId, text }));
    },
    async resumeGenTask(taskId) {
      const error = await afterCommand(taskId, await bridge.genResume({ taskId }));
      if (error) get().reportError(error);
    },
    async raiseGenBudget(taskId, budget) {
      return afterCommand(taskId, await bridge.genResume({ taskId, budget }));
    },
    async cancelGenTask(taskId) {
      const error = await afterCommand(taskId, await bridge.genCancel({ taskId }));
      if (error) get().reportError(error);
    },
    genModels: {},
    genChecks: {},
    async loadGenModelStatus(models) {
      const rows = get().unwrap(await bridge.genModelStatus(models.length > 0 ? { models } : {}));
      if (rows) set((s) => ({ genModels: { ...s.genModels, ...Object.fromEntries(rows.map((r) => [r.model, r])) } }) as Partial<S>);
    },
    async checkGenModel(model) {
      set((s) => ({ genChecks: { ...s.genChecks, [model]: { status: 'running' } } }) as Partial<S>);
      const result = await bridge.genCheckModel({ model });
      set((s) => {
        const { [model]: _done, ...checks } = s.genChecks;
        return (result.ok
          ? { genChecks: checks, genModels: { ...s.genModels, [model]: result.value } }
          : { genChecks: { ...checks, [model]: { status: 'failed', error: result.error } } }) as Partial<S>;
      });
    },
    async fetchGenFile(taskId, name) {
      const file = get().unwrap(await bridge.genGetArtifact({ taskId, name }));
      return file ? base64Bytes(file.base64) : null;
    },
    async exportGenZip(taskId, revision) {
      const zip = get().unwrap(await bridge.genExportZip({ taskId, ...(revision ? { revision } : {}) }));
      return zip ? { fileName: zip.fileName, bytes: base64Bytes(zip.base64) } : null;
    },
    async makeGenDrawing(input) {
      return get().unwrap(await bridge.genMakeDrawing(input)) ?? null;
    },
    followGenEvents() {
      // Events dispatched while nobody listened are caught up by one refetch.
      scheduleRefresh(false, true);
      const unsubscribe = bridge.on('genTaskEvent', (event) => {
        if (seen.has(event.seq)) return;
        seen.add(event.seq);
        if (seen.size > SEEN_LIMIT) seen.delete(seen.values().next().value as number);
        const open = get().genOpen;
        const forOpen = open?.taskId === event.taskId;
        if (forOpen) patch({ genOpen: { ...open, lastEvent: event } });
        scheduleRefresh(true, forOpen);
      });
      return () => {
        unsubscribe();
        if (refreshTimer) clearTimeout(refreshTimer);
        refreshTimer = null;
      };
    },
  };
}
