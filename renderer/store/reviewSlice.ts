import type { z } from 'zod';
import type { AppErrorData, Result } from '../../shared/errors';
import type {
  cadConnectionViewSchema,
  drawingOverviewSchema,
  findingViewSchema,
  reviewChannels,
  runDetailSchema,
  runSummarySchema,
  writePlanSchema,
  writeResultSchema,
} from '../../shared/ipc/contracts/review';
import type { ReviewViewerSlice } from './reviewViewerSlice';
import type { ShellSlice } from './shellSlice';
import type { SliceContext } from './types';

export type DrawingOverview = z.output<typeof drawingOverviewSchema>;
export type CadConnectionView = z.output<typeof cadConnectionViewSchema>;
export type RunSummary = z.output<typeof runSummarySchema>;
export type RunDetail = z.output<typeof runDetailSchema>;
export type FindingView = z.output<typeof findingViewSchema>;
export type WritePlan = z.output<typeof writePlanSchema>;
export type WriteResult = z.output<typeof writeResultSchema>;
export type ReviewDecision = z.input<(typeof reviewChannels)['reviewDecide']['input']>['decision'];
export type NewReviewInput = z.input<(typeof reviewChannels)['reviewStart']['input']>;

export interface ReviewProgressView {
  runId: string;
  phase: string;
  done: number;
  total: number;
  message?: string;
}

export type FrameImageSize = 'thumb' | 'full';
/** Long edge per picture size: thumbnails stay cheap on drawings with many frames. */
const FRAME_IMAGE_EDGE: Record<FrameImageSize, number> = { thumb: 640, full: 1600 };
export const frameImageKey = (frameId: string, size: FrameImageSize): string => `${size}/${frameId}`;

export interface FindingFilters {
  severity: string;
  status: string;
  item: string;
}

/** An image as the view shows it: a data URL (CSP allows data: images) plus its pixel size. */
export interface LoadedImage {
  url: string;
  widthPx: number;
  heightPx: number;
}

/** The Review view: drawing source, runs, the selected run's frames/findings, and the write flow. */
export interface ReviewSlice {
  reviewReady: boolean;
  /** Why the automatic first load (current drawing or the sample, runs) failed; the view offers a retry. */
  startupError: AppErrorData | null;
  drawing: DrawingOverview | null;
  drawingBusy: boolean;
  connection: CadConnectionView | null;
  /** Frame pictures by `frameImageKey(frameId, size)`. */
  frameImages: Record<string, LoadedImage | { error: AppErrorData }>;
  runs: RunSummary[];
  run: RunDetail | null;
  progress: ReviewProgressView | null;
  runImages: Record<string, LoadedImage>;
  selectedFrameId: string | null;
  selectedFindingId: string | null;
  /** Counts selections (also of the finding already selected): each one centres the drawing on it again. */
  findingFocusSeq: number;
  filters: FindingFilters;
  /** The finding whose arrow tip the next click on the screenshot places. */
  movingFindingId: string | null;
  writePlan: WritePlan | null;
  writeResult: WriteResult | null;
  writing: boolean;
  /** Subscribes to review events and loads the current drawing (the sample when none is open) and the runs. */
  initReview(): Promise<void>;
  openSample(): Promise<void>;
  openDxfFile(file: File): Promise<void>;
  /** `confirmRemote`: the user confirmed connecting to a host other than this machine. */
  connectCad(host: string, port: number, confirmRemote?: boolean): Promise<void>;
  refreshDrawing(): Promise<void>;
  /** Thumbnails for the frame list, full size for the enlarged view (rendered on first look only). */
  loadFrameImage(frameId: string, size: FrameImageSize): Promise<void>;
  startReview(input: NewReviewInput): Promise<void>;
  cancelRun(runId: string): Promise<void>;
  resumeRun(runId: string): Promise<void>;
  loadRuns(): Promise<void>;
  selectRun(runId: string | null): Promise<void>;
  loadRunImage(file: string): Promise<void>;
  selectFrame(frameId: string | null): void;
  selectFinding(findingId: string | null): void;
  setFilter(key: keyof FindingFilters, value: string): void;
  setMoving(findingId: string | null): void;
  /** Resolves true when the host took the decision (a failure is in the banner). */
  decide(findingId: string, decision: ReviewDecision): Promise<boolean>;
  /**
   * One decision for several findings (a rule's group): approve takes the findings that can be
   * approved (proposed, not hypotheses), reject every one not written or rejected yet; one at a
   * time, in order, the first failure stops the rest (it is in the banner).
   */
  decideMany(findingIds: string[], kind: 'approve' | 'reject'): Promise<void>;
  previewWrite(): Promise<void>;
  confirmWrite(): Promise<void>;
  closeWrite(): void;
  /** A file of the open run as bytes to save (annotated DXF, report); failures go to the banner. */
  downloadRunFile(kind: 'dxf' | 'markdown' | 'json'): Promise<{ fileName: string; mimeType: string; dataBase64: string } | undefined>;
}

/** A File's bytes as standard base64 (FileReader does the encoding natively, also for large files). */
export function fileToBase64(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result).replace(/^data:[^,]*,/, ''));
    reader.onerror = () => reject(reader.error ?? new Error('read failed'));
    reader.readAsDataURL(file);
  });
}

const readError = (file: File): AppErrorData => ({ code: 'REVIEW_UPLOAD_UNREADABLE', message: `Cannot read ${file.name} from disk.`, retryable: true });

/** Identifies the open drawing across re-reads of its overview (the object changes, the drawing does not). */
export const drawingKey = (drawing: DrawingOverview | null): string | null =>
  drawing === null ? null : drawing.source.kind === 'cad' ? `cad:${drawing.source.label}` : `${drawing.source.kind}:${drawing.source.path}`;

/** What the user was doing when a review call failed (catalog `banner.action.<name>`). */
type ReviewAction = 'review' | 'openDrawing' | 'connectCad' | 'decide' | 'write' | 'download';

/** `set`: the drawing set shown in the main area (reviewSetSlice; named here, not imported, as that slice builds on this one). */
export function createReviewSlice<S extends ShellSlice & ReviewSlice & ReviewViewerSlice & { set: unknown }>({ set, get, bridge }: SliceContext<S>): ReviewSlice {
  let subscribed = false;
  /** Frame pictures being fetched, by drawing and key: a card mounted twice asks once. */
  const loadingImages = new Set<string>();
  const put = (partial: Partial<ReviewSlice>): void => set(partial as Partial<S>);
  /**
   * Reports a typed error on the Review view's banner (only there: a run failing while the user is
   * elsewhere waits on Review), naming the user's action; the very same error is shown once.
   */
  const report = (error: AppErrorData, action: ReviewAction = 'review'): void => get().reportError(error, 'error', { view: 'review', action: `banner.action.${action}` });
  const unwrap = <T>(result: Result<T>, action?: ReviewAction): T | undefined => {
    if (result.ok) return result.value;
    report(result.error, action);
    return undefined;
  };
  /** `refresh`: the same drawing read again (its run stays); otherwise a drawing the user opened (the main area shows it). */
  const withDrawing = async (open: () => Promise<DrawingOverview | undefined>, refresh = false): Promise<void> => {
    put({ drawingBusy: true });
    try {
      const drawing = await open();
      if (!drawing) return;
      // An opened drawing replaces the previous run in the main area (with its selection and write state).
      if (!refresh || get().run?.run.source !== drawing.source.label) {
        put({ run: null, runImages: {}, selectedFrameId: null, selectedFindingId: null, movingFindingId: null, writePlan: null, writeResult: null });
        // The drawing the user opened takes the main area from an open drawing set too.
        set({ set: null } as Partial<S>);
      }
      if (drawingKey(drawing) !== drawingKey(get().drawing)) get().resetViewer();
      else get().forgetPictures();
      put({ drawing, frameImages: {}, connection: drawing.connection });
    } finally {
      put({ drawingBusy: false });
    }
  };
  /** A finished run has no progress bar, whichever arrived first: its status event or the start reply. */
  const settleProgress = (run: RunDetail): void => {
    if (run.run.status !== 'running' && get().progress?.runId === run.run.id) put({ progress: null });
  };
  const refreshRun = async (runId: string): Promise<void> => {
    const run = unwrap(await bridge.reviewGetRun({ runId }));
    if (run && (get().run?.run.id ?? runId) === runId) put({ run });
    if (run) settleProgress(run);
  };

  return {
    reviewReady: false,
    startupError: null,
    drawing: null,
    drawingBusy: false,
    connection: null,
    frameImages: {},
    runs: [],
    run: null,
    progress: null,
    runImages: {},
    selectedFrameId: null,
    selectedFindingId: null,
    findingFocusSeq: 0,
    filters: { severity: 'all', status: 'all', item: 'all' },
    movingFindingId: null,
    writePlan: null,
    writeResult: null,
    writing: false,

    async initReview() {
      if (!subscribed) {
        subscribed = true;
        bridge.on('progress', (event) => {
          if (event.taskId === get().run?.run.id || event.taskId === get().progress?.runId) put({ progress: { ...event, runId: event.taskId } });
          // Frames finishing change counts: keep the open run current while it works.
          if (event.taskId === get().run?.run.id && event.phase === 'frames') void refreshRun(event.taskId);
        });
        bridge.on('reviewRunStatus', (event) => {
          void get().loadRuns();
          if (event.runId === get().run?.run.id) void refreshRun(event.runId);
          if (event.status !== 'running' && get().progress?.runId === event.runId) put({ progress: null });
          if (event.error) report(event.error);
        });
        bridge.on('cadConnection', (event) => put({ connection: event }));
      }
      // The automatic first load reports failures on the screen it was loading for (with a retry),
      // not in the banner: the user did not ask for it and may already be elsewhere.
      put({ startupError: null, drawingBusy: true });
      try {
        const current = await bridge.reviewGetDrawing({});
        const opened = current.ok && current.value === null ? await bridge.reviewOpenSample({}) : current;
        if (opened.ok && opened.value) {
          // Coming back to Review re-reads the same drawing: its pictures stay valid.
          const same = drawingKey(opened.value) === drawingKey(get().drawing);
          put({ drawing: opened.value, frameImages: same ? get().frameImages : {}, connection: opened.value.connection });
        }
        const runs = await bridge.reviewListRuns({});
        if (runs.ok) put({ runs: runs.value.runs });
        const failed = [opened, runs].find((r) => !r.ok);
        if (failed && !failed.ok) put({ startupError: failed.error });
      } finally {
        put({ reviewReady: true, drawingBusy: false });
      }
    },
    openSample: () => withDrawing(async () => unwrap(await bridge.reviewOpenSample({}), 'openDrawing')),
    async openDxfFile(file) {
      await withDrawing(async () => {
        let dataBase64: string;
        try {
          dataBase64 = await fileToBase64(file);
        } catch {
          report(readError(file), 'openDrawing');
          return undefined;
        }
        // The desktop app saves the annotated copy next to the user's file; browser mode offers a download.
        const originalPath = bridge.pathForFile?.(file) || undefined;
        return unwrap(await bridge.reviewOpenDxf({ fileName: file.name, dataBase64, ...(originalPath ? { originalPath } : {}) }), 'openDrawing');
      });
    },
    connectCad: (host, port, confirmRemote) => withDrawing(async () => unwrap(await bridge.reviewConnectCad({ host, port, ...(confirmRemote ? { confirmRemote } : {}) }), 'connectCad')),
    refreshDrawing: () => withDrawing(async () => unwrap(await bridge.reviewRefreshDrawing({}), 'openDrawing'), true),
    async loadFrameImage(frameId, size) {
      const key = frameImageKey(frameId, size);
      const asked = drawingKey(get().drawing);
      const loading = `${asked}|${key}`;
      if (get().frameImages[key] || loadingImages.has(loading)) return;
      loadingImages.add(loading);
      let result: Awaited<ReturnType<typeof bridge.reviewFrameImage>>;
      try {
        result = await bridge.reviewFrameImage({ frameId, maxEdge: FRAME_IMAGE_EDGE[size] });
      } finally {
        loadingImages.delete(loading);
      }
      // A picture of the drawing that was open when it was asked for, not of the one open now
      // (the same drawing re-read on returning to Review is still that drawing).
      if (drawingKey(get().drawing) !== asked) return;
      // A picture that failed is shown failed on its card (one banner per frame would bury the screen).
      const entry = result.ok
        ? { url: `data:${result.value.mimeType};base64,${result.value.dataBase64}`, widthPx: result.value.widthPx, heightPx: result.value.heightPx }
        : { error: result.error };
      put({ frameImages: { ...get().frameImages, [key]: entry } });
    },
    async startReview(input) {
      const started = unwrap(await bridge.reviewStart(input));
      if (!started) return;
      put({ progress: { runId: started.runId, phase: 'frames', done: 0, total: get().drawing?.frames.length ?? 0 } });
      await get().selectRun(started.runId);
      await get().loadRuns();
    },
    async cancelRun(runId) {
      unwrap(await bridge.reviewCancel({ runId }));
    },
    async resumeRun(runId) {
      const resumed = unwrap(await bridge.reviewResume({ runId }));
      if (!resumed) return;
      put({ progress: { runId, phase: 'frames', done: 0, total: 0 } });
      const drawing = await bridge.reviewGetDrawing({});
      if (drawing.ok && drawing.value) put({ drawing: drawing.value, connection: drawing.value.connection });
      await get().selectRun(runId);
    },
    async loadRuns() {
      const list = unwrap(await bridge.reviewListRuns({}));
      if (list) put({ runs: list.runs });
    },
    async selectRun(runId) {
      put({ selectedFindingId: null, movingFindingId: null, writePlan: null, writeResult: null, filters: { severity: 'all', status: 'all', item: 'all' } });
      if (runId === null) {
        put({ run: null, selectedFrameId: null });
        return;
      }
      const run = unwrap(await bridge.reviewGetRun({ runId }));
      if (!run) return;
      put({ run, runImages: get().run?.run.id === runId ? get().runImages : {}, selectedFrameId: run.frames[0]?.frame.id ?? null });
      settleProgress(run);
    },
    async loadRunImage(file) {
      const run = get().run;
      if (!run || get().runImages[file]) return;
      const image = unwrap(await bridge.reviewRunImage({ runId: run.run.id, file }));
      if (image) put({ runImages: { ...get().runImages, [file]: { url: `data:${image.mimeType};base64,${image.dataBase64}`, widthPx: image.widthPx, heightPx: image.heightPx } } });
    },
    selectFrame: (frameId) => put({ selectedFrameId: frameId, movingFindingId: null }),
    selectFinding(findingId) {
      const finding = get().run?.findings.find((f) => f.id === findingId);
      put({ selectedFindingId: findingId, findingFocusSeq: get().findingFocusSeq + 1, ...(finding?.frameId ? { selectedFrameId: finding.frameId } : {}) });
    },
    setFilter: (key, value) => put({ filters: { ...get().filters, [key]: value } }),
    setMoving: (findingId) => put({ movingFindingId: findingId }),
    async decide(findingId, decision) {
      const run = get().run;
      if (!run) return false;
      const updated = unwrap(await bridge.reviewDecide({ runId: run.run.id, findingId, decision }), 'decide');
      if (updated) {
        const current = get().run;
        if (current?.run.id === run.run.id) put({ run: { ...current, findings: current.findings.map((f) => (f.id === updated.id ? updated : f)) }, movingFindingId: null });
      }
      return updated !== undefined;
    },
    async decideMany(findingIds, kind) {
      for (const id of findingIds) {
        const finding = get().run?.findings.find((f) => f.id === id);
        if (!finding) continue;
        const state = finding.annotation.state;
        const wanted = kind === 'approve' ? state === 'proposed' && !finding.hypothesis : state !== 'written' && state !== 'rejected';
        if (!wanted) continue;
        const taken = await get().decide(id, kind === 'approve' ? { kind: 'approve', payloadHash: finding.payloadHash } : { kind: 'reject' });
        if (!taken) return;
      }
    },
    async previewWrite() {
      const run = get().run;
      if (!run) return;
      const plan = unwrap(await bridge.reviewPreviewWrite({ runId: run.run.id }), 'write');
      if (plan) put({ writePlan: plan, writeResult: null });
    },
    async confirmWrite() {
      const run = get().run;
      const plan = get().writePlan;
      if (!run || !plan) return;
      put({ writing: true });
      try {
        const result = unwrap(await bridge.reviewWriteApproved({ runId: run.run.id, payloadHashes: plan.items.map((i) => i.payloadHash) }), 'write');
        if (result) {
          put({ writeResult: result, writePlan: null });
          for (const failure of result.failed) report(failure.error, 'write');
        }
        await refreshRun(run.run.id);
      } finally {
        put({ writing: false });
      }
    },
    closeWrite: () => put({ writePlan: null, writeResult: null }),
    async downloadRunFile(kind) {
      const run = get().run;
      if (!run) return undefined;
      return unwrap(await bridge.reviewDownloadFile({ runId: run.run.id, kind }), 'download');
    },
  };
}
