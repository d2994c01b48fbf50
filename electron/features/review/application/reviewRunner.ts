import { AppError, toAppErrorData, type AppErrorData } from '../../../../shared/errors';
import type { DrawingSource } from '../ports/drawingSource';
import type { ReviewOutput } from '../ports/reviewOutput';
import type { FrameRecord, ReviewStore, RunOptions, RunRecord, RunStatus } from '../ports/reviewStore';
import { checklistHash, type Checklist } from '../domain/checklist';
import { drawingEvidence, drawingTexts, frameEvidenceFrom, type DrawingData } from '../domain/drawingData';
import { completeFinding, type Finding } from '../domain/finding';
import type { Frame } from '../domain/frame';
import { proposeAnnotation } from '../domain/annotation';
import { sheetOf } from '../domain/sheet';
import { placeFrameLeaders } from '../domain/leaderPlacement';
import { groupRuleDrafts } from '../domain/findingGroups';
import { drawingLocale, evaluateDrawingRules, evaluateFrameRules, frameUnitsPerPaperMm, type ReviewLocale } from '../domain/rules';
import { summariseEvidence, type FrameEvidence } from '../domain/evidence';
import type { ReviewReport } from '../domain/report';
import { renderReportMarkdown } from '../domain/markdown';
import { newMeter, type ToolCallMeter } from './toolCalls';
import { planReview, type ReviewPlan } from './plan';
import { readDrawingData } from './drawingReader';
import { captureFrameScreenshots, type CapturedScreenshot } from './screenshots';
import { reviewFrameWithLlm, type LlmFrameResult, type LlmReviewSettings } from './llmReview';
import { buildReport } from './reportBuilder';
import { runBounded } from './frameQueue';
import { preflightReviewer } from './llmPreflight';

/** Progress of a run, shaped like the platform `progress` event. */
export interface ReviewProgress {
  taskId: string;
  phase: 'plan' | 'evidence' | 'frames' | 'report';
  done: number;
  total: number;
  message?: string;
}

export interface ReviewRunnerDeps {
  store: ReviewStore;
  now: () => Date;
  newRunId: () => string;
  generatorVersion: string;
  onProgress?: (event: ReviewProgress) => void;
  /** The model and budgets for LLM checklist items; runs with `options.llm` need it. */
  llm?: LlmReviewSettings;
}

/** Per-invocation inputs (a resumed run gets a fresh connection and output). */
export interface ReviewSession {
  source: DrawingSource;
  output: ReviewOutput;
  /** Frames reviewed in parallel (1–16). */
  concurrency: number;
  signal?: AbortSignal;
}

export interface ReviewRunResult {
  runId: string;
  status: RunStatus;
  /** Present when the run completed. */
  report?: ReviewReport;
}

/** Paper sizes of the proposed leaders: GB/T 14691 3.5 mm text, 10 mm offset from the spot. */
const LEADER_TEXT_MM = 3.5;
const LEADER_OFFSET_MM = 10;

/**
 * Starts a review: plan, drawing-wide evidence, drawing-level rules, the run row with its pending
 * frames, then the frames. Errors before the run row exists are thrown (REVIEW_*, CAD_*);
 * afterwards they are recorded on the run/frame and the run's final status is returned.
 */
export async function startReview(deps: ReviewRunnerDeps, session: ReviewSession, checklist: Checklist, options: RunOptions): Promise<ReviewRunResult> {
  if (options.llm && !deps.llm) throw new AppError('REVIEW_LLM_NOT_CONFIGURED', 'An LLM review needs a configured reviewer model; configure one or run rules only (--no-llm).');
  const runId = deps.newRunId();
  const meter = newMeter();
  deps.onProgress?.({ taskId: runId, phase: 'plan', done: 0, total: 1, message: `Connecting to ${session.source.label}` });
  const plan = await planReview(session.source, meter, options.frames);
  // A model that cannot call tools is refused here, before a run exists (REVIEW_LLM_NOT_CONFORMANT).
  const preflight = options.llm && deps.llm ? await preflightReviewer(deps.llm, session.signal) : { ok: true as const };
  deps.onProgress?.({ taskId: runId, phase: 'evidence', done: 0, total: 1, message: `${plan.frames.length} frame(s); reading the drawing` });
  const data = await readDrawingData(session.source, plan, meter);
  const drawing = drawingEvidence(data, plan.frames, plan.allFrames);
  const leaderScale = plan.frames[0] ? frameUnitsPerPaperMm(plan.frames[0]) : 1;
  const annotationLocale = drawingLocale(drawingTexts(data));
  const drawingFindings = groupRuleDrafts(evaluateDrawingRules(checklist, { frames: plan.frames, drawing, locale: options.locale, annotationLocale }), options.locale, annotationLocale).map((draft) =>
    completeFinding(draft, drawing.fingerprint, LEADER_OFFSET_MM * leaderScale),
  );
  const reviewer = options.llm && deps.llm ? { model: deps.llm.model, maxToolCallsPerFrame: deps.llm.maxToolCalls, maxReasks: deps.llm.maxReasks } : undefined;
  deps.store.createRun(
    {
      id: runId,
      source: session.source.label,
      fingerprint: drawing.fingerprint,
      checklist,
      checklistHash: checklistHash(checklist),
      options: reviewer ? { ...options, reviewer } : options,
      missingCapabilities: plan.missing,
      status: 'running',
      createdAt: deps.now().toISOString(),
    },
    plan.frames,
    drawingFindings,
  );
  deps.store.proposeAnnotations(drawingFindings.map((f) => proposeAnnotation(f, LEADER_TEXT_MM * leaderScale)));
  if (preflight.ok && preflight.usage) deps.store.addUsage(runId, preflight.usage);
  return executeRun(deps, session, runId, plan, data, meter, preflight.ok ? null : preflight.unavailable);
}

/**
 * Resumes a run after a restart or cancel, or retries the failed frames of a completed run: frames
 * already done are not redone. The drawing must
 * be the one the run started on. Errors: REVIEW_RUN_NOT_FOUND, REVIEW_DRAWING_CHANGED.
 */
export async function resumeReview(deps: ReviewRunnerDeps, session: ReviewSession, runId: string): Promise<ReviewRunResult> {
  const run = requireRun(deps.store, runId);
  if (run.options.llm && !deps.llm) throw new AppError('REVIEW_LLM_NOT_CONFIGURED', `Run ${runId} uses the LLM; configure a reviewer model to resume it.`);
  const failed = deps.store.listFrames(runId).some((f) => f.status !== 'done');
  if ((run.status === 'completed' || run.status === 'completed_with_errors') && !failed) return { runId, status: run.status, ...reportOf(deps.store, runId) };
  const meter = newMeter();
  const plan = await planReview(session.source, meter, run.options.frames);
  const data = await readDrawingData(session.source, plan, meter);
  const frames = deps.store.listFrames(runId).map((f) => f.frame);
  if (drawingEvidence(data, frames).fingerprint !== run.fingerprint) {
    throw new AppError('REVIEW_DRAWING_CHANGED', `The drawing at ${session.source.label} is not the one run ${runId} started on; start a new review.`, { data: { runId } });
  }
  const preflight = run.options.llm && deps.llm ? await preflightReviewer(deps.llm, session.signal) : { ok: true as const };
  deps.store.setRunStatus(runId, 'running', null, deps.now().toISOString());
  if (preflight.ok && preflight.usage) deps.store.addUsage(runId, preflight.usage);
  return executeRun(deps, session, runId, { ...plan, frames }, data, meter, preflight.ok ? null : preflight.unavailable);
}

function requireRun(store: ReviewStore, runId: string): RunRecord {
  const run = store.getRun(runId);
  if (!run) throw new AppError('REVIEW_RUN_NOT_FOUND', `Review run ${runId} does not exist.`, { data: { runId } });
  return run;
}

function reportOf(store: ReviewStore, runId: string): { report?: ReviewReport } {
  const report = store.getReport(runId);
  return report ? { report } : {};
}

/**
 * Reviews the frames not done yet. Rule findings never depend on the AI step: a frame whose AI
 * step fails (or is unavailable for the whole run, `llmUnavailable`) keeps its rule findings and
 * ends `llm_failed` with the typed error; the run then ends `completed_with_errors`.
 */
async function executeRun(
  deps: ReviewRunnerDeps,
  session: ReviewSession,
  runId: string,
  plan: ReviewPlan,
  data: DrawingData,
  meter: ToolCallMeter,
  llmUnavailable: AppErrorData | null,
): Promise<ReviewRunResult> {
  const run = requireRun(deps.store, runId);
  const records = deps.store.listFrames(runId);
  const todo = records.filter((r) => r.status !== 'done');
  let done = records.length - todo.length;
  const drawingRefs = [...meter.refs];
  // Annotations are written in the drawing's language, whatever the report's.
  const annotationLocale = drawingLocale(drawingTexts(data));
  deps.onProgress?.({ taskId: runId, phase: 'frames', done, total: records.length });
  await runBounded(todo, Math.min(16, Math.max(1, session.concurrency)), session.signal, async (record) => {
    let evidence: GatheredEvidence;
    try {
      evidence = await frameEvidence(session, plan, data, record, meter, run.options.llm, drawingRefs);
    } catch (error) {
      deps.store.failFrame(runId, record.frame.id, toAppErrorData(error));
      done++;
      deps.onProgress?.({ taskId: runId, phase: 'frames', done, total: records.length, message: record.frame.label });
      return;
    }
    let llm: LlmFrameResult | undefined;
    let llmError: AppErrorData | undefined;
    if (run.options.llm && deps.llm) {
      if (llmUnavailable) llmError = llmUnavailable;
      else {
        try {
          llm = await llmDrafts(deps.llm, session, plan, run, record.frame, evidence, meter, annotationLocale);
          deps.store.addUsage(runId, llm.usage);
        } catch (error) {
          // A cancelled run leaves the frame pending so a resume redoes it whole.
          if (session.signal?.aborted) return;
          llmError = toAppErrorData(error);
        }
      }
    }
    reviewFrame(deps.store, run, record.frame, evidence, llm, llmError, annotationLocale);
    done++;
    deps.onProgress?.({ taskId: runId, phase: 'frames', done, total: records.length, message: record.frame.label });
  });
  deps.store.addUsage(runId, { toolCalls: meter.calls, toolResultBytes: meter.resultBytes });
  if (session.signal?.aborted) {
    deps.store.setRunStatus(runId, 'cancelled', null, deps.now().toISOString());
    return { runId, status: 'cancelled' };
  }
  deps.onProgress?.({ taskId: runId, phase: 'report', done: 0, total: 1 });
  const frames = deps.store.listFrames(runId);
  const report = buildReport(requireRun(deps.store, runId), frames, deps.store.listFindings(runId), deps.generatorVersion, deps.now().toISOString(), data.problems);
  await session.output.writeFile('report.json', `${JSON.stringify(report, null, 2)}\n`);
  await session.output.writeFile('report.md', renderReportMarkdown(report));
  deps.store.saveReport(runId, report);
  const partial = partialRunError(frames);
  deps.store.setRunStatus(runId, partial ? 'completed_with_errors' : 'completed', partial, deps.now().toISOString());
  deps.onProgress?.({ taskId: runId, phase: 'report', done: 1, total: 1, message: session.output.location });
  return { runId, status: partial ? 'completed_with_errors' : 'completed', report };
}

/** The run-level error of a partial run: which frames lost which step, and the first cause. */
function partialRunError(frames: readonly FrameRecord[]): AppErrorData | null {
  const llmFailed = frames.filter((f) => f.status === 'llm_failed');
  const failed = frames.filter((f) => f.status === 'failed');
  if (llmFailed.length === 0 && failed.length === 0) return null;
  const cause = (llmFailed[0] ?? failed[0])!.error;
  const code = llmFailed.length > 0 ? 'REVIEW_LLM_STEP_FAILED' : 'REVIEW_FRAMES_FAILED';
  const parts = [
    ...(llmFailed.length > 0 ? [`the AI review did not run on ${llmFailed.length} of ${frames.length} frame(s) (their rule findings are kept)`] : []),
    ...(failed.length > 0 ? [`${failed.length} frame(s) could not be read`] : []),
  ];
  return {
    code,
    message: `${parts.join('; ')}${cause ? `: [${cause.code}] ${cause.message}` : ''}`.slice(0, 1000),
    retryable: cause?.retryable ?? false,
    data: { llmFailedFrames: llmFailed.map((f) => f.frame.id), failedFrames: failed.map((f) => f.frame.id), cause },
  };
}

type GatheredEvidence = FrameEvidence & { images: CapturedScreenshot[] };

async function frameEvidence(session: ReviewSession, plan: ReviewPlan, data: DrawingData, record: FrameRecord, meter: ToolCallMeter, llm: boolean, drawingRefs: string[]): Promise<GatheredEvidence> {
  const base = frameEvidenceFrom(data, record.frame, plan.frames);
  const tool = plan.capabilities.screenshot;
  const images = tool ? await captureFrameScreenshots(session.source, meter, tool, session.output, record.frame, base.texts, llm) : [];
  return { ...base, images, screenshots: images.map((i) => i.ref), toolCalls: tool ? [...drawingRefs, `tool:${tool}`] : drawingRefs };
}

function llmDrafts(
  settings: LlmReviewSettings,
  session: ReviewSession,
  plan: ReviewPlan,
  run: RunRecord,
  frame: Frame,
  evidence: GatheredEvidence,
  meter: ToolCallMeter,
  annotationLocale: ReviewLocale,
): Promise<LlmFrameResult> {
  return reviewFrameWithLlm({
    settings,
    source: session.source,
    meter,
    tools: plan.toolInfos,
    capabilities: plan.capabilities,
    checklist: run.checklist,
    frame,
    evidence,
    images: evidence.images,
    locale: run.options.locale,
    annotationLocale,
    ...(session.signal ? { signal: session.signal } : {}),
  });
}

function reviewFrame(
  store: ReviewStore,
  run: RunRecord,
  frame: Frame,
  evidence: GatheredEvidence,
  llm: LlmFrameResult | undefined,
  llmError: AppErrorData | undefined,
  annotationLocale: ReviewLocale,
): void {
  const scale = frameUnitsPerPaperMm(frame);
  // One finding per rule per sheet (with every place it was seen), then the AI's own findings.
  const ruleDrafts = groupRuleDrafts(evaluateFrameRules(run.checklist, { frame, evidence, locale: run.options.locale, annotationLocale }), run.options.locale, annotationLocale);
  const drafts = [...ruleDrafts, ...(llm?.drafts ?? [])];
  const occupied = [
    ...evidence.entities.flatMap((e) => (e.bbox ? [e.bbox] : [])),
    ...evidence.texts.map((t) => ({ minX: t.position.x, minY: t.position.y, maxX: t.position.x + t.height * Math.max(1, t.text.length) * 0.8, maxY: t.position.y + t.height })),
  ];
  const findings: Finding[] = placeFrameLeaders(
    drafts.map((draft) => completeFinding(draft, run.fingerprint, LEADER_OFFSET_MM * scale)),
    { frame, occupied, height: LEADER_TEXT_MM * scale, offset: LEADER_OFFSET_MM * scale, unitsPerPaperMm: scale },
  );
  const summary = { ...summariseEvidence(evidence), ...(llm ? { llmCalls: llm.log } : {}) };
  store.completeFrame(run.id, frame.id, { evidence: summary, screenshots: evidence.screenshots, findings, ...(llmError ? { llmError } : {}) });
  const sheet = sheetOf(frame);
  store.proposeAnnotations(findings.map((f) => proposeAnnotation(f, LEADER_TEXT_MM * scale, sheet.space === 'paper' ? sheet.layout : undefined)));
}
