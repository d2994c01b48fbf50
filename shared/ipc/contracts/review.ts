import { z } from 'zod';
import { appErrorSchema } from '../../errors';

/**
 * Review channels: the drawing source (bundled sample, a DXF file served by the embedded backend,
 * or AutoCAD through the cad_mcp_frame plugin), review runs, findings with their annotations, and
 * the approval-bound write of annotations back to the drawing.
 */

const finite = z.number().finite();
export const reviewPointSchema = z.object({ x: finite, y: finite }).strict();
export const reviewBBoxSchema = z.object({ minX: finite, minY: finite, maxX: finite, maxY: finite }).strict();
/** Screenshot pixel (origin top-left, y down) ↔ drawing (y up): x = origin.x + px·u, y = origin.y − py·u. */
export const screenshotTransformViewSchema = z.object({ origin: reviewPointSchema, unitsPerPixel: z.number().positive() }).strict();
export const severityViewSchema = z.enum(['blocking', 'major', 'minor', 'info']);
export const severityCountsViewSchema = z.object({ blocking: z.number().int(), major: z.number().int(), minor: z.number().int(), info: z.number().int() }).strict();

/** Where the current drawing comes from. `path` of sample/dxf is the copy in the data folder. */
export const drawingSourceViewSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('sample'), label: z.string(), path: z.string() }).strict(),
  /** `besideOriginal`: the user's own file (desktop app), next to which the annotated copy is saved. */
  z.object({ kind: z.literal('dxf'), label: z.string(), path: z.string(), besideOriginal: z.string().optional() }).strict(),
  z.object({ kind: z.literal('cad'), label: z.string(), host: z.string(), port: z.number().int() }).strict(),
]);

/** State of the AutoCAD connection (also pushed as the `cadConnection` event). */
export const cadConnectionViewSchema = z
  .object({
    state: z.enum(['disconnected', 'connecting', 'connected', 'backoff']),
    endpoint: z.string(),
    failures: z.number().int().min(0),
    retryInMs: z.number().optional(),
    reason: z.string().optional(),
  })
  .strict();

/** A backend tool: `read` = on the read-only whitelist, `write` = modifies the drawing, `other` = neither (refused in reviews). */
export const drawingToolViewSchema = z.object({ name: z.string(), description: z.string(), access: z.enum(['read', 'write', 'other']) }).strict();

export const drawingFrameViewSchema = z
  .object({
    id: z.string(),
    label: z.string(),
    layout: z.string(),
    sheetName: z.string().nullable(),
    bbox: reviewBBoxSchema,
    /** Title-block fields (title, drawingNo, scale, designer, checker, date, revision); '' = label present, value empty. */
    titleBlock: z.record(z.string(), z.string()),
    origin: z.enum(['detected', 'whole-drawing']),
  })
  .strict();

export const drawingLayerViewSchema = z
  .object({ name: z.string(), color: z.number().int().nullable(), on: z.boolean(), frozen: z.boolean(), locked: z.boolean(), entityCount: z.number().int().nullable() })
  .strict();

/** Header facts of the drawing (null when the backend has no drawing-info tool). */
export const drawingInfoViewSchema = z
  .object({
    version: z.string().nullable(),
    units: z.string().nullable(),
    codePage: z.string().nullable(),
    entityCount: z.number().int(),
    layouts: z.array(z.object({ name: z.string(), entityCount: z.number().int() }).strict()),
    /** Things the loader skipped or could not read (malformed files). */
    problems: z.array(z.string()),
  })
  .strict();

/** What the Review view shows before a run: source, tools, info, layers and frames. */
export const drawingOverviewSchema = z
  .object({
    source: drawingSourceViewSchema,
    connection: cadConnectionViewSchema.nullable(),
    tools: z.array(drawingToolViewSchema),
    info: drawingInfoViewSchema.nullable(),
    layers: z.array(drawingLayerViewSchema),
    frames: z.array(drawingFrameViewSchema),
    /** Review capabilities the backend lacks (their checklist items are not evaluated). */
    missingCapabilities: z.array(z.string()),
    /** Things the backend answered in a shape this view could not read (shown, never hidden). */
    warnings: z.array(z.string()),
  })
  .strict();

export const imageViewSchema = z.object({ dataBase64: z.string(), mimeType: z.literal('image/png'), widthPx: z.number().int(), heightPx: z.number().int() }).strict();

/**
 * Run status. `completed_with_errors`: every frame's rule findings are in, but some check did not
 * run (a frame's AI step failed — frame status `llm_failed` — or a frame could not be read); the
 * run's `error` says which (code REVIEW_LLM_STEP_FAILED or REVIEW_FRAMES_FAILED, data.cause = the
 * first typed error). `interrupted`: stored as running but no process is working on it.
 */
export const runStatusViewSchema = z.enum(['running', 'cancelled', 'failed', 'completed', 'completed_with_errors', 'interrupted']);

export const runSummarySchema = z
  .object({
    id: z.string(),
    source: z.string(),
    /** `interrupted`: stored as running but no process is working on it (resume it). */
    status: runStatusViewSchema,
    llm: z.boolean(),
    createdAt: z.string(),
    updatedAt: z.string(),
    findings: z.number().int(),
    bySeverity: severityCountsViewSchema,
    framesDone: z.number().int(),
    framesTotal: z.number().int(),
    error: appErrorSchema.nullable(),
  })
  .strict();

export const frameRunViewSchema = z
  .object({
    frame: drawingFrameViewSchema,
    /**
     * `llm_failed`: the frame's rule findings are listed, its AI step did not run (`error` is the
     * typed LLM error, e.g. LLM_TRANSPORT_UNAVAILABLE). `failed`: evidence could not be read.
     */
    status: z.enum(['pending', 'done', 'llm_failed', 'failed']),
    error: appErrorSchema.nullable(),
    /** Overview screenshot (file relative to the run folder) with its pixel↔drawing transform. */
    screenshot: z.object({ file: z.string(), widthPx: z.number().int(), heightPx: z.number().int(), transform: screenshotTransformViewSchema }).strict().nullable(),
    counts: severityCountsViewSchema,
  })
  .strict();

export const annotationStateViewSchema = z.enum(['proposed', 'approved', 'edited', 'rejected', 'written']);

export const findingViewSchema = z
  .object({
    id: z.string(),
    shortId: z.string(),
    frameId: z.string().nullable(),
    checklistItemId: z.string(),
    severity: severityViewSchema,
    source: z.enum(['rule', 'llm']),
    /**
     * An AI finding no CAD evidence near its location confirms: show it apart; its annotation
     * cannot be approved or written until the user promotes it (decision `promote`).
     */
    hypothesis: z.boolean(),
    message: z.string(),
    evidenceRefs: z.array(z.string()),
    location: z.discriminatedUnion('kind', [
      z.object({ kind: z.literal('point'), point: reviewPointSchema }).strict(),
      z.object({ kind: z.literal('bbox'), bbox: reviewBBoxSchema }).strict(),
    ]),
    /**
     * A grouped finding (one rule, one sheet, several places): how many places, and each place
     * (the first is `location`). Absent on a finding about one place.
     */
    count: z.number().int().min(2).optional(),
    locations: z
      .array(
        z.discriminatedUnion('kind', [
          z.object({ kind: z.literal('point'), point: reviewPointSchema }).strict(),
          z.object({ kind: z.literal('bbox'), bbox: reviewBBoxSchema }).strict(),
        ]),
      )
      .optional(),
    annotation: z
      .object({ state: annotationStateViewSchema, text: z.string(), anchor: reviewPointSchema, textAt: reviewPointSchema, textHeight: z.number() })
      .strict(),
    /** Hash of the exact leader payload; an approval must name it. */
    payloadHash: z.string(),
    writtenAt: z.string().nullable(),
  })
  .strict();

export const runDetailSchema = z
  .object({
    run: runSummarySchema,
    frames: z.array(frameRunViewSchema),
    findings: z.array(findingViewSchema),
    checklistItems: z.array(z.object({ id: z.string(), severity: severityViewSchema, mode: z.enum(['rule', 'llm']), description: z.string() }).strict()),
    /** Report files (absolute paths) once the run completed. */
    report: z.object({ folder: z.string(), json: z.string(), markdown: z.string() }).strict().nullable(),
    /** The last `<name>.ai-review.dxf` written for this run's drawing (DXF sources). */
    savedDrawing: z.string().nullable(),
  })
  .strict();

/** One leader exactly as it will be written. */
export const plannedWriteSchema = z
  .object({ findingId: z.string(), shortId: z.string(), tool: z.string(), points: z.array(reviewPointSchema), text: z.string(), height: z.number(), payloadHash: z.string() })
  .strict();

export const writePlanSchema = z
  .object({
    target: z.string(),
    items: z.array(plannedWriteSchema),
    /** Where a DXF source is saved (`<name>.ai-review.dxf`); null for AutoCAD (written into the open drawing). */
    saveTo: z.string().nullable(),
  })
  .strict();

export const writeResultSchema = z
  .object({
    written: z.array(z.string()),
    recognised: z.array(z.string()),
    failed: z.array(z.object({ findingId: z.string(), error: appErrorSchema }).strict()),
    savedPath: z.string().nullable(),
  })
  .strict();

/** A rendered region of one layout for the drawing viewer: the picture and the drawing box it covers exactly. */
export const viewImageSchema = z.object({ image: imageViewSchema, layout: z.string(), region: reviewBBoxSchema }).strict();

/** One entity as the viewer's inspector shows it; `properties` are its other fields flattened to text. */
export const entityViewSchema = z
  .object({ handle: z.string(), type: z.string(), layer: z.string(), bbox: reviewBBoxSchema.nullable(), properties: z.record(z.string(), z.string()) })
  .strict();

const layoutName = z.string().min(1).max(255);
const handleInput = z.string().regex(/^[0-9A-Fa-f]{1,16}$/);

const runIdInput = z.object({ runId: z.string().min(1).max(200) }).strict();
const empty = z.object({}).strict();

/** Largest DXF accepted over IPC (raw bytes; base64 on the wire stays under the socket cap). */
export const MAX_DXF_UPLOAD_BYTES = 40 * 1024 * 1024;

export const reviewChannels = {
  /** The current drawing, or null when none is open yet. */
  reviewGetDrawing: { input: empty, output: drawingOverviewSchema.nullable() },
  /** Opens the bundled sample drawing (copied into the data folder). Errors: REVIEW_SAMPLE_MISSING, CAD_DXF_*. */
  reviewOpenSample: { input: empty, output: drawingOverviewSchema },
  /**
   * Opens a DXF given as bytes (file picker / drag-and-drop); saved into the data folder and served
   * by the embedded backend. `originalPath` (desktop app only, from the picked file): the annotated
   * copy is saved next to it, after the host checked that file holds exactly these bytes.
   * Errors: REVIEW_UPLOAD_TOO_LARGE, REVIEW_UPLOAD_INVALID, REVIEW_ORIGINAL_PATH_REFUSED (browser
   * mode, or the path is not the picked file), CAD_DWG_UNSUPPORTED (DWG: save as DXF or use AutoCAD), CAD_DXF_INVALID.
   */
  reviewOpenDxf: {
    input: z
      .object({ fileName: z.string().min(1).max(255), dataBase64: z.string().min(1).max(Math.ceil(MAX_DXF_UPLOAD_BYTES / 3) * 4 + 8), originalPath: z.string().min(1).max(4096).optional() })
      .strict(),
    output: drawingOverviewSchema,
  },
  /**
   * Connects to AutoCAD (cad_mcp_frame plugin) at host:port (default: settings) and keeps the
   * connection up. A host other than this machine needs `confirmRemote: true` (sent only after
   * the user confirmed it in the UI) and, from browser mode, settings' `cad.allowRemote`.
   * Errors: CAD_HOST_NOT_ALLOWED (`data.reason` 'browser-mode' or 'needs-confirmation'),
   * CAD_NOT_CONNECTED (nothing listens; the message says how to start it), CAD_TIMEOUT, CAD_PROTOCOL_ERROR.
   */
  reviewConnectCad: {
    input: z
      .object({ host: z.string().min(1).max(255).optional(), port: z.number().int().min(1).max(65535).optional(), confirmRemote: z.boolean().optional() })
      .strict(),
    output: drawingOverviewSchema,
  },
  /** Re-reads tools, info, layers and frames of the current drawing (after a reconnect). Errors: REVIEW_NO_DRAWING, CAD_*. */
  reviewRefreshDrawing: { input: empty, output: drawingOverviewSchema },
  /** PNG of one frame of the current drawing. Errors: REVIEW_NO_DRAWING, REVIEW_FRAME_NOT_FOUND, CAD_*. */
  reviewFrameImage: { input: z.object({ frameId: z.string().min(1).max(100), maxEdge: z.number().int().min(64).max(4096).optional() }).strict(), output: imageViewSchema },
  /**
   * A region of a layout of the current drawing as the viewer draws it (the whole layout when
   * `bbox` is absent), without `hiddenLayers`. Errors: REVIEW_NO_DRAWING,
   * REVIEW_SCREENSHOT_UNSUPPORTED, REVIEW_LAYER_FILTER_UNSUPPORTED (the backend's screenshot tool
   * has no layer filter), REVIEW_SOURCE_BAD_RESULT, CAD_* (CAD_DXF_EMPTY_REGION for an empty layout).
   */
  reviewViewImage: {
    input: z.object({ layout: layoutName, bbox: reviewBBoxSchema.optional(), maxEdge: z.number().int().min(64).max(2048), hiddenLayers: z.array(z.string().min(1).max(255)).max(2000) }).strict(),
    output: viewImageSchema,
  },
  /** Entities of a layout whose extents meet `bbox` (a click with its pick tolerance), nearest first. Errors: REVIEW_NO_DRAWING, REVIEW_PICK_UNSUPPORTED, CAD_*. */
  reviewPickEntities: {
    input: z.object({ layout: layoutName, bbox: reviewBBoxSchema }).strict(),
    output: z.object({ entities: z.array(entityViewSchema).max(20), total: z.number().int() }).strict(),
  },
  /** One entity by handle (the entity a finding cites). Errors: REVIEW_NO_DRAWING, REVIEW_PICK_UNSUPPORTED, CAD_TOOL_ERROR (no such handle), CAD_*. */
  reviewGetEntity: { input: z.object({ handle: handleInput }).strict(), output: entityViewSchema },
  /**
   * Starts a review of the current drawing in the background (progress via the `progress` event,
   * the end via `reviewRunStatus`). Errors: REVIEW_NO_DRAWING, REVIEW_CHECKLIST_INVALID,
   * LLM_NOT_CONFIGURED, SETTINGS_NOT_FOUND, REVIEW_LLM_UNAVAILABLE, REVIEW_*, CAD_* (plan phase).
   */
  reviewStart: {
    input: z
      .object({
        /** Custom checklist file; null = the bundled default. */
        checklistPath: z.string().min(1).max(1000).nullable(),
        llm: z.boolean(),
        /** Model for the LLM items; null = the reviewer role from Settings. */
        model: z.object({ providerId: z.string().min(1), model: z.string().min(1) }).strict().nullable(),
      })
      .strict(),
    output: z.object({ runId: z.string() }).strict(),
  },
  /** Cancels a running review (finished frames are kept; resume later). */
  reviewCancel: { input: runIdInput, output: z.object({ cancelled: z.boolean() }).strict() },
  /** Resumes an interrupted/cancelled run on its drawing (reopened). Errors: REVIEW_RUN_NOT_FOUND, REVIEW_RUN_BUSY, REVIEW_DRAWING_CHANGED, CAD_*. */
  reviewResume: { input: runIdInput, output: z.object({ runId: z.string() }).strict() },
  /** Review runs, newest first. */
  reviewListRuns: { input: empty, output: z.object({ runs: z.array(runSummarySchema) }).strict() },
  /** One run with frames, findings and annotation states. Errors: REVIEW_RUN_NOT_FOUND. */
  reviewGetRun: { input: runIdInput, output: runDetailSchema },
  /** A screenshot file of a run. Errors: REVIEW_RUN_NOT_FOUND, REVIEW_FILE_NOT_FOUND. */
  reviewRunImage: { input: z.object({ runId: z.string().min(1).max(200), file: z.string().min(1).max(500) }).strict(), output: imageViewSchema },
  /**
   * Approve (bound to the payload hash shown), edit (text and/or arrow tip) or reject one
   * annotation, or promote an AI hypothesis to a finding whose annotation may then be approved.
   * Errors: REVIEW_FINDING_NOT_FOUND, REVIEW_APPROVAL_STALE, REVIEW_ANNOTATION_WRITTEN,
   * REVIEW_ANNOTATION_INVALID, REVIEW_HYPOTHESIS_NOT_PROMOTED (approve/edit of an unpromoted hypothesis).
   */
  reviewDecide: {
    input: z
      .object({
        runId: z.string().min(1).max(200),
        findingId: z.string().regex(/^[0-9a-f]{64}$/),
        decision: z.discriminatedUnion('kind', [
          z.object({ kind: z.literal('approve'), payloadHash: z.string().regex(/^[0-9a-f]{64}$/) }).strict(),
          z.object({ kind: z.literal('edit'), text: z.string().max(500).optional(), anchor: reviewPointSchema.optional() }).strict(),
          z.object({ kind: z.literal('reject') }).strict(),
          z.object({ kind: z.literal('promote') }).strict(),
        ]),
      })
      .strict(),
    output: findingViewSchema,
  },
  /**
   * A file of a run for the user to save (browser download, desktop save dialog): the annotated
   * `<name>.ai-review.dxf` or the report (Markdown / JSON). Only the run's own files are served.
   * Errors: REVIEW_RUN_NOT_FOUND, REVIEW_FILE_NOT_FOUND (not written yet), REVIEW_DOWNLOAD_TOO_LARGE.
   */
  reviewDownloadFile: {
    input: z.object({ runId: z.string().min(1).max(200), kind: z.enum(['dxf', 'markdown', 'json']) }).strict(),
    output: z.object({ fileName: z.string(), mimeType: z.string(), dataBase64: z.string() }).strict(),
  },
  /** Exactly what "write approved annotations" would write now. Errors: REVIEW_RUN_NOT_FOUND, REVIEW_WRITE_UNSUPPORTED. */
  reviewPreviewWrite: { input: runIdInput, output: writePlanSchema },
  /**
   * Writes the approved annotations on AI_REVIEW. `payloadHashes` must be exactly the plan the
   * user confirmed (REVIEW_APPROVAL_STALE otherwise). Errors: REVIEW_RUN_NOT_FOUND,
   * REVIEW_WRITE_UNSUPPORTED, REVIEW_WRITE_FAILED, CAD_DISCONNECTED / CAD_NOT_CONNECTED.
   */
  reviewWriteApproved: {
    input: z.object({ runId: z.string().min(1).max(200), payloadHashes: z.array(z.string().regex(/^[0-9a-f]{64}$/)).min(1).max(5000) }).strict(),
    output: writeResultSchema,
  },
} as const;

export const reviewEvents = {
  /** A run changed status (started, completed, cancelled, failed). */
  reviewRunStatus: z.object({ runId: z.string(), status: runStatusViewSchema, error: appErrorSchema.nullable() }).strict(),
  /** The AutoCAD connection changed state (drops, reconnect attempts, recovery). */
  cadConnection: cadConnectionViewSchema,
} as const;
