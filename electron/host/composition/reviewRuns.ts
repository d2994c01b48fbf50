import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { z } from 'zod';
import type { reviewChannels, runDetailSchema, writePlanSchema, writeResultSchema } from '../../../shared/ipc/contracts/review';
import { AppError, toAppErrorData, type AppErrorData } from '../../../shared/errors';
import {
  createFolderOutput,
  decideAnnotation,
  promoteHypothesis,
  listAnnotatedFindings,
  parseChecklist,
  resumeReview,
  SEVERITIES,
  startReview,
  writeApprovedAnnotations,
  type Checklist,
  type LlmReviewSettings,
  type ReviewProgress,
  type ReviewRunResult,
  type ReviewRunnerDeps,
  type ReviewSession,
  type ReviewStore,
  type RunStatus,
  type Severity,
} from '../../features/review/index';
import { readConfinedFileSync } from '../../platform/dataDir/confinedFile';
import { writeFileAtomicSync } from '../../platform/dataDir/fileSafety';
import type { Logger } from '../../platform/log/types';
import { annotatedCopyOf, type DrawingDescriptor, type DrawingManager } from './reviewDrawings';
import { DXF_CAPABILITIES } from './reviewSources';
import { findingView, frameRunView, isApprovedForWrite, plannedWrite, runSummaryView } from './reviewViews';
import { pngSize } from './reviewOverview';

type Input<K extends keyof typeof reviewChannels> = z.output<(typeof reviewChannels)[K]['input']>;

export interface RunManagerOptions {
  store: ReviewStore;
  drawings: DrawingManager;
  /** `<data>/reviews`: one folder per run (report, screenshots, drawing.json, written.json). */
  runsDir: string;
  defaultChecklist: string;
  /** Folders a custom checklist may come from (Settings → allowed folders). */
  allowedRoots(): readonly string[];
  locale(): 'zh-CN' | 'en';
  generatorVersion: string;
  now(): Date;
  /** Frames reviewed in parallel. */
  concurrency: number;
  onProgress(event: ReviewProgress): void;
  onStatus(event: { runId: string; status: RunStatus | 'interrupted'; error: AppErrorData | null }): void;
  /**
   * The LLM sub-loop settings for a model (null = the reviewer role from Settings). Errors:
   * LLM_NOT_CONFIGURED, SETTINGS_NOT_FOUND.
   */
  reviewer(model: ReviewerModel | null): LlmReviewSettings;
  /**
   * The folder of a run that reviewed a file of a drawing set (its report folder in the set's
   * output), or null for a run of the open drawing (`<runsDir>/<runId>`). Set runs are listed
   * with their set, not among the runs.
   */
  setRunFolder?(runId: string): string | null;
  log: Logger;
}

export type ReviewerModel = { providerId: string; model: string };

/** SEVERITIES lists the most severe first. */
const SEVERITY_RANK = Object.fromEntries(SEVERITIES.map((severity, index) => [severity, index])) as Record<Severity, number>;

/** A checklist is a small JSON file; anything bigger is not one. */
export const MAX_CHECKLIST_BYTES = 1024 * 1024;

/**
 * Loads a checklist file: a regular file of at most MAX_CHECKLIST_BYTES under `allowedRoots`
 * (null = any folder, for the CLI user's own argument). Errors: REVIEW_CHECKLIST_INVALID
 * (data.reason says why it was not read; never quotes the file).
 */
export function loadChecklistFile(file: string, allowedRoots: readonly string[] | null): Checklist {
  // The CLI resolves its argument against the working folder; an IPC caller must be explicit.
  const bytes = readConfinedFileSync(allowedRoots === null ? path.resolve(file) : file, { allowedRoots, maxBytes: MAX_CHECKLIST_BYTES, errorCode: 'REVIEW_CHECKLIST_INVALID', what: 'checklist' });
  return parseChecklist(bytes.toString('utf8'), file);
}

/** Review runs of the app: background work with progress, cancel, resume and approval-bound writes. */
export function createRunManager(options: RunManagerOptions) {
  const { store, drawings } = options;
  const active = new Map<string, AbortController>();
  const folderOf = (runId: string): string => options.setRunFolder?.(runId) ?? path.join(options.runsDir, runId);

  const requireRun = (runId: string) => {
    const run = store.getRun(runId);
    if (!run) throw new AppError('REVIEW_RUN_NOT_FOUND', `Review run ${runId} does not exist.`, { data: { runId } });
    return run;
  };

  const descriptorOf = (runId: string): DrawingDescriptor => {
    const file = path.join(folderOf(runId), 'drawing.json');
    if (!existsSync(file)) {
      throw new AppError('REVIEW_RUN_NOT_RESUMABLE', `Run ${runId} was not started in the app (no drawing record); resume it with \`cadsight review --resume ${runId}\`.`, { data: { runId } });
    }
    return JSON.parse(readFileSync(file, 'utf8')) as DrawingDescriptor;
  };

  /**
   * Runs `body` in the background. Resolves once the run row exists (first frames progress) or
   * the body finished; a failure before the row exists is thrown to the caller, a later one is
   * recorded on the run and pushed as a status event.
   */
  function launch(
    runId: string,
    source: ReviewSession['source'],
    llm: LlmReviewSettings | undefined,
    body: (deps: ReviewRunnerDeps, session: ReviewSession) => Promise<ReviewRunResult>,
  ): Promise<{ runId: string }> {
    const controller = new AbortController();
    active.set(runId, controller);
    let registered = false;
    return new Promise((resolve, reject) => {
      const deps: ReviewRunnerDeps = {
        store,
        now: options.now,
        newRunId: () => runId,
        generatorVersion: options.generatorVersion,
        ...(llm ? { llm } : {}),
        onProgress(event) {
          options.onProgress(event);
          if (!registered && event.phase === 'frames') {
            registered = true;
            options.onStatus({ runId, status: 'running', error: null });
            resolve({ runId });
          }
        },
      };
      const session: ReviewSession = { source, output: createFolderOutput(folderOf(runId)), concurrency: options.concurrency, signal: controller.signal };
      body(deps, session)
        .then((result) => {
          options.onStatus({ runId, status: result.status, error: null });
          resolve({ runId });
        })
        .catch((error: unknown) => {
          const data = toAppErrorData(error);
          if (!(error instanceof AppError)) options.log.error('review run crashed', { runId, error: String(error) });
          if (!registered) return reject(error instanceof AppError ? error : new AppError(data.code, data.message));
          store.setRunStatus(runId, 'failed', data, options.now().toISOString());
          options.onStatus({ runId, status: 'failed', error: data });
        })
        .finally(() => active.delete(runId));
    });
  }

  /**
   * Findings in report order (drawing-level first, then frame order, severity, checklist item):
   * frames finish in any order, and the marker numbers must not change between two looks.
   */
  const annotated = (runId: string) => {
    const frameOrder = new Map(store.listFrames(runId).map((f, i) => [f.frame.id, i]));
    const rank = (frameId: string | null): number => (frameId === null ? -1 : (frameOrder.get(frameId) ?? frameOrder.size));
    return listAnnotatedFindings(store, runId).sort(
      (a, b) =>
        rank(a.finding.frameId) - rank(b.finding.frameId) ||
        SEVERITY_RANK[a.finding.severity] - SEVERITY_RANK[b.finding.severity] ||
        a.finding.checklistItemId.localeCompare(b.finding.checklistItemId) ||
        a.finding.id.localeCompare(b.finding.id),
    );
  };

  function writePlan(runId: string): z.input<typeof writePlanSchema> {
    const run = requireRun(runId);
    const descriptor = descriptorOf(runId);
    const tool = DXF_CAPABILITIES.leaderWrite!;
    const items = annotated(runId).filter(isApprovedForWrite).map((item) => plannedWrite(item, tool));
    return { target: run.source, items, saveTo: descriptor.kind === 'cad' ? null : annotatedCopyOf(descriptor) };
  }

  return {
    /** Errors: REVIEW_NO_DRAWING, REVIEW_CHECKLIST_INVALID, LLM_NOT_CONFIGURED, SETTINGS_NOT_FOUND, REVIEW_*, CAD_* (plan phase). */
    async start(input: Input<'reviewStart'>): Promise<{ runId: string }> {
      const drawing = drawings.current();
      if (!drawing) throw new AppError('REVIEW_NO_DRAWING', 'Open a drawing first: the sample, a DXF file, or AutoCAD.');
      // A custom checklist named over IPC must sit in a folder the user allowed in Settings.
      const checklist = input.checklistPath === null ? loadChecklistFile(options.defaultChecklist, null) : loadChecklistFile(input.checklistPath, options.allowedRoots());
      // Resolved before any work so a missing key fails the start, not every frame.
      const llm = input.llm ? options.reviewer(input.model) : undefined;
      const runId = `review-${randomUUID()}`;
      mkdirSync(folderOf(runId), { recursive: true });
      writeFileAtomicSync(path.join(folderOf(runId), 'drawing.json'), JSON.stringify(drawing.descriptor));
      if (input.llm) writeFileAtomicSync(path.join(folderOf(runId), 'model.json'), JSON.stringify({ model: input.model }));
      return launch(runId, drawing.source, llm, (deps, session) => startReview(deps, session, checklist, { llm: input.llm, locale: options.locale(), frames: null }));
    },
    cancel(runId: string): { cancelled: boolean } {
      const controller = active.get(runId);
      controller?.abort();
      return { cancelled: controller !== undefined };
    },
    /** Errors: REVIEW_RUN_NOT_FOUND, REVIEW_RUN_BUSY, REVIEW_RUN_NOT_RESUMABLE, REVIEW_DRAWING_CHANGED, LLM_NOT_CONFIGURED, CAD_*. */
    async resume(runId: string): Promise<{ runId: string }> {
      const run = requireRun(runId);
      if (active.has(runId)) throw new AppError('REVIEW_RUN_BUSY', `Run ${runId} is already running.`, { data: { runId } });
      const modelFile = path.join(folderOf(runId), 'model.json');
      const model = existsSync(modelFile) ? (JSON.parse(readFileSync(modelFile, 'utf8')) as { model: ReviewerModel | null }).model : null;
      const llm = run.options.llm ? options.reviewer(model) : undefined;
      const drawing = await drawings.ensure(descriptorOf(runId));
      return launch(runId, drawing.source, llm, (deps, session) => resumeReview(deps, session, runId));
    },
    list() {
      const own = store.listRuns(50 + (options.setRunFolder ? 200 : 0)).filter((run) => !options.setRunFolder?.(run.id));
      return { runs: own.slice(0, 50).map((run) => runSummaryView(store, run, active.has(run.id))) };
    },
    detail(runId: string): z.input<typeof runDetailSchema> {
      const run = requireRun(runId);
      const items = annotated(runId);
      const folder = folderOf(runId);
      const written = path.join(folder, 'written.json');
      const lang = options.locale() === 'zh-CN' ? 'zh' : 'en';
      return {
        run: runSummaryView(store, run, active.has(runId)),
        frames: store.listFrames(runId).map((record) => frameRunView(record, items.map((i) => i.finding))),
        findings: items.map((item) => findingView(item, store.getWrite(item.finding.id)?.writtenAt ?? null)),
        checklistItems: run.checklist.items.map((item) => ({ id: item.id, severity: item.severity, mode: item.mode, description: item.description[lang] })),
        report: run.status === 'completed' && existsSync(path.join(folder, 'report.json')) ? { folder, json: path.join(folder, 'report.json'), markdown: path.join(folder, 'report.md') } : null,
        savedDrawing: existsSync(written) ? (JSON.parse(readFileSync(written, 'utf8')) as { savedPath: string }).savedPath : null,
      };
    },
    /** Errors: REVIEW_RUN_NOT_FOUND, REVIEW_FILE_NOT_FOUND. */
    image(runId: string, file: string) {
      requireRun(runId);
      const root = folderOf(runId);
      const target = path.resolve(root, file);
      if (!target.startsWith(root + path.sep) || !target.endsWith('.png') || !existsSync(target)) {
        throw new AppError('REVIEW_FILE_NOT_FOUND', `Run ${runId} has no image ${file}.`, { data: { runId, file } });
      }
      const png = readFileSync(target);
      return { dataBase64: png.toString('base64'), mimeType: 'image/png' as const, ...pngSize(png) };
    },
    /** Errors: REVIEW_FINDING_NOT_FOUND, REVIEW_APPROVAL_STALE, REVIEW_ANNOTATION_WRITTEN, REVIEW_ANNOTATION_INVALID, REVIEW_HYPOTHESIS_NOT_PROMOTED. */
    decide(input: Input<'reviewDecide'>) {
      const item = annotated(input.runId).find((i) => i.finding.id === input.findingId);
      if (!item) throw new AppError('REVIEW_FINDING_NOT_FOUND', `Run ${input.runId} has no finding ${input.findingId}.`, { data: input });
      const { decision } = input;
      if (decision.kind === 'edit') {
        // Moving the arrow tip carries the text along, so the leader keeps its shape.
        const { anchor, textAt } = item.annotation;
        const moved = decision.anchor ? { anchor: decision.anchor, textAt: { x: textAt.x + decision.anchor.x - anchor.x, y: textAt.y + decision.anchor.y - anchor.y } } : {};
        decideAnnotation(store, input.findingId, { kind: 'edit', ...(decision.text !== undefined ? { text: decision.text } : {}), ...moved });
      } else if (decision.kind === 'promote') {
        promoteHypothesis(store, input.findingId);
      } else {
        decideAnnotation(store, input.findingId, decision);
      }
      const updated = annotated(input.runId).find((i) => i.finding.id === input.findingId)!;
      return findingView(updated, store.getWrite(input.findingId)?.writtenAt ?? null);
    },
    writePlan,
    /**
     * Writes exactly the plan the user confirmed. Errors: REVIEW_APPROVAL_STALE (the plan changed),
     * REVIEW_NOTHING_TO_WRITE, REVIEW_WRITE_UNSUPPORTED, REVIEW_WRITE_FAILED, CAD_*.
     */
    async write(runId: string, payloadHashes: readonly string[]): Promise<z.input<typeof writeResultSchema>> {
      const plan = writePlan(runId);
      const planned = plan.items.map((i) => i.payloadHash).sort();
      const confirmed = [...payloadHashes].sort();
      if (planned.length === 0) throw new AppError('REVIEW_NOTHING_TO_WRITE', 'No approved annotation is waiting to be written.');
      if (planned.length !== confirmed.length || planned.some((h, i) => h !== confirmed[i])) {
        throw new AppError('REVIEW_APPROVAL_STALE', 'The approved annotations changed after the confirmation was shown; review the list again.', { data: { runId } });
      }
      const drawing = await drawings.ensure(descriptorOf(runId));
      const endpoints = await drawing.writeEndpoints();
      try {
        const outcome = await writeApprovedAnnotations(store, endpoints.reader, endpoints.target, runId, options.now);
        const savedPath = outcome.saved ? ((JSON.parse(outcome.saved) as { path?: string }).path ?? endpoints.saveTo) : null;
        if (savedPath) writeFileAtomicSync(path.join(folderOf(runId), 'written.json'), JSON.stringify({ savedPath }));
        return { written: outcome.written, recognised: outcome.recognised, failed: outcome.failed, savedPath };
      } finally {
        endpoints.close();
      }
    },
    /** Cancels running reviews (app shutdown). */
    close() {
      for (const controller of active.values()) controller.abort();
    },
  };
}

export type RunManager = ReturnType<typeof createRunManager>;
