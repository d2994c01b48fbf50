import path from 'node:path';
import { findBundledResource } from './bundledResources';
import type { IpcEvents } from '../../../shared/ipc/channels';
import type { reviewChannels } from '../../../shared/ipc/contracts/review';
import type { reviewSetChannels } from '../../../shared/ipc/contracts/reviewSet';
import { AppError } from '../../../shared/errors';
import { createSqliteReviewStore } from '../../features/review/index';
import type { EventBus } from '../../platform/events/eventBus';
import type { HandlerTable } from '../../platform/ipc/router';
import { createLlmGateway } from '../../platform/llm/index';
import { createDrawingManager, type DrawingManager } from './reviewDrawings';
import { renderRegion } from './reviewOverview';
import { createViewerHandlers } from './reviewViewer';
import { downloadRunFile } from './reviewDownloads';
import { createRunManager, type RunManager } from './reviewRuns';
import { createSetManager, type SetManager } from './reviewSets';
import type { PlatformRuntime } from './platformRuntime';

/** Frames reviewed in parallel by the app (the CLI default as well). */
const REVIEW_CONCURRENCY = 4;
/** Files of a drawing set reviewed at the same time (the CLI's --jobs default): two drawings open at once. */
const SET_JOBS = 2;
/** Long edge of the frame pictures in the drawing overview (enlarged view included). */
const FRAME_IMAGE_EDGE = 1600;
/** Per-frame budgets of the LLM sub-loop: read-only tool calls before it must submit; correction rounds. */
const LLM_TOOL_CALLS_PER_FRAME = 8;
const LLM_REASKS = 2;


export interface ReviewWorkspaceOptions {
  events: EventBus<IpcEvents>;
  version: string;
  /** Folder holding samples/ and checklist/ (default: the installation's resources/). */
  resourcesDir?: string;
  now?: () => Date;
}

/** The app's review state: the open drawing (sample, DXF, AutoCAD) and the runs. Close it once. */
export interface ReviewWorkspace {
  drawings: DrawingManager;
  runs: RunManager;
  sets: SetManager;
  close(): void;
}

const SAMPLE = 'samples/cadsight_sample_gb_a3_3frames.dxf';
const CHECKLIST = 'checklist/review_checklist.json';

export function createReviewWorkspace(platform: PlatformRuntime, options: ReviewWorkspaceOptions): ReviewWorkspace {
  const resources = options.resourcesDir ?? path.dirname(path.dirname(findBundledResource(import.meta.url, `resources/${CHECKLIST}`) ?? `resources/${CHECKLIST}`));
  const now = options.now ?? (() => new Date());
  const log = platform.log.child({ slice: 'review' });
  const drawings = createDrawingManager({
    drawingsDir: path.join(platform.layout.root, 'drawings'),
    sampleFile: path.join(resources, SAMPLE),
    cadDefaults: () => platform.settings.getSettings().cad,
    onConnection: (event) => options.events.emit('cadConnection', event),
    log,
  });
  const reviewer = (model: { providerId: string; model: string } | null) => {
    const provider = platform.settings.resolveProvider(model ?? { role: 'reviewer' });
    const gateway = createLlmGateway({ provider, retry: { maxAttempts: 3, baseDelayMs: 500, maxDelayMs: 8_000, totalBudgetMs: 120_000 }, log });
    return { gateway, model: `${provider.id}/${provider.model}`, maxToolCalls: LLM_TOOL_CALLS_PER_FRAME, maxReasks: LLM_REASKS };
  };
  const store = createSqliteReviewStore(platform.db, now, platform.damagedRows.moveAside);
  const allowedRoots = () => platform.settings.effective().settings.allowedRoots;
  const locale = () => platform.settings.getSettings().locale;
  const sets = createSetManager({
    store,
    setsDir: path.join(platform.layout.root, 'sets'),
    defaultChecklist: path.join(resources, CHECKLIST),
    allowedRoots,
    locale,
    generatorVersion: options.version,
    now,
    jobs: SET_JOBS,
    concurrency: REVIEW_CONCURRENCY,
    reviewer,
    onProgress: (event) => options.events.emit('reviewSetProgress', event),
    onStatus: (event) => options.events.emit('reviewSetStatus', event),
    log,
  });
  const runs = createRunManager({
    store,
    drawings,
    runsDir: path.join(platform.layout.root, 'reviews'),
    defaultChecklist: path.join(resources, CHECKLIST),
    allowedRoots,
    locale,
    generatorVersion: options.version,
    now,
    concurrency: REVIEW_CONCURRENCY,
    onProgress: (event) => options.events.emit('progress', event),
    onStatus: (event) => options.events.emit('reviewRunStatus', event),
    reviewer,
    setRunFolder: (runId) => sets.runFolder(runId),
    log,
  });
  return {
    drawings,
    runs,
    sets,
    close() {
      sets.close();
      runs.close();
      drawings.close();
    },
  };
}

const noDrawing = (): AppError => new AppError('REVIEW_NO_DRAWING', 'Open a drawing first: the sample, a DXF file, or AutoCAD.');

/** Handlers of the review channels over a workspace. */
export function createReviewHandlers(workspace: ReviewWorkspace): HandlerTable<typeof reviewChannels> {
  const { drawings, runs } = workspace;
  const requireDrawing = () => {
    const drawing = drawings.current();
    if (!drawing) throw noDrawing();
    return drawing;
  };
  return {
    async reviewGetDrawing() {
      const drawing = drawings.current();
      return drawing ? drawings.overview(drawing) : null;
    },
    reviewOpenSample: async () => drawings.overview(await drawings.openSample()),
    reviewOpenDxf: async (input, context) => {
      // Only the desktop app's preload can read a picked file's path; a browser page never has one.
      if (input.originalPath !== undefined && context.transport !== 'electron') {
        throw new AppError('REVIEW_ORIGINAL_PATH_REFUSED', 'Only the desktop app saves the annotated copy next to the original; here it is offered as a download.', { data: { reason: 'browser-mode' } });
      }
      return drawings.overview(await drawings.openUpload(input.fileName, input.dataBase64, input.originalPath));
    },
    reviewConnectCad: async (input, context) => drawings.overview(await drawings.connectCad(input, { transport: context.transport })),
    reviewRefreshDrawing: () => drawings.overview(requireDrawing(), { refresh: true }),
    async reviewFrameImage(input) {
      const drawing = requireDrawing();
      const overview = await drawings.overview(drawing);
      const frame = overview.frames.find((f) => f.id === input.frameId);
      if (!frame) throw new AppError('REVIEW_FRAME_NOT_FOUND', `The drawing has no frame ${input.frameId}.`, { data: { frameId: input.frameId } });
      const tool = drawing.source.capabilityTools.screenshot;
      if (!tool || !overview.tools.some((t) => t.name === tool)) throw new AppError('REVIEW_SCREENSHOT_UNSUPPORTED', `${drawing.descriptor.label} offers no screenshot tool.`);
      return renderRegion(drawing.source, tool, frame.bbox, input.maxEdge ?? FRAME_IMAGE_EDGE, frame.layout);
    },
    ...createViewerHandlers(requireDrawing),
    reviewStart: (input) => runs.start(input),
    reviewCancel: (input) => runs.cancel(input.runId),
    reviewResume: (input) => runs.resume(input.runId),
    reviewListRuns: () => runs.list(),
    reviewGetRun: (input) => runs.detail(input.runId),
    reviewRunImage: (input) => runs.image(input.runId, input.file),
    reviewDecide: (input) => runs.decide(input),
    reviewDownloadFile: (input) => downloadRunFile(runs, input),
    reviewPreviewWrite: (input) => runs.writePlan(input.runId),
    reviewWriteApproved: (input) => runs.write(input.runId, input.payloadHashes),
  };
}

/** Handlers of the drawing-set channels over a workspace. */
export function createReviewSetHandlers(workspace: ReviewWorkspace): HandlerTable<typeof reviewSetChannels> {
  const { sets } = workspace;
  return {
    reviewSetCreate: (input) => sets.create(input),
    reviewSetAddFile: (input) => sets.addFile(input),
    reviewSetStart: (input) => sets.start(input),
    reviewSetCancel: (input) => sets.cancel(input.setId),
    reviewListSets: () => sets.list(),
    reviewGetSet: (input) => sets.detail(input.setId),
    reviewSetDownload: (input) => sets.download(input),
  };
}
