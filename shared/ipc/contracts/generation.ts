import { z } from 'zod';
import { appErrorSchema } from '../../errors';

/**
 * Generation channels: the CDSL v3 protocol (an author model builds a part one verified action at
 * a time, an independent reviewer checks it). Runs start in the background; progress arrives as
 * `genTaskEvent` events dispatched from the engine's outbox. Common errors: CDSL_TASK_NOT_FOUND
 * (unknown task id), CDSL_TASK_BUSY (retryable: a run of that task is in progress in this app or another process holds its lease),
 * LLM_NOT_CONFIGURED (no author/reviewer model), CDSL_MODEL_STRUCTURED_OUTPUT_UNSUPPORTED (the
 * model has not passed the conformance suite), CDSL_STORAGE_FAILURE (retryable).
 */

/** Longest request text (the engine's MAX_REQUEST_CHARS). */
export const MAX_GEN_REQUEST_CHARS = 8000;
/** Longest answer to a WAITING_FOR_USER question (the engine keeps 2000 characters). */
export const MAX_GEN_ANSWER_CHARS = 2000;
/** Largest task-folder file genGetArtifact returns (raw bytes, before base64). */
export const MAX_GEN_ARTIFACT_BYTES = 16 * 1024 * 1024;

export const genTaskStateSchema = z.enum([
  'DRAFTING_REQUIREMENTS', 'REVIEWING_REQUIREMENTS', 'AWAITING_ACTION', 'ACTION_PENDING', 'CANDIDATE_BUILDING',
  'CANDIDATE_REVIEW', 'FINAL_VALIDATION', 'WAITING_RETRY', 'WAITING_FOR_USER', 'COMPLETED', 'FAILED',
]);

const taskId = z.string().regex(/^task_[a-z0-9]{1,40}$/);
const revisionId = z.string().regex(/^rev_\d{3,6}$/);
/** "provider/model" as in Settings (e.g. "openai/gpt-4.1"); absent = the role's model from Settings. */
const modelRef = z.string().min(1).max(200);
const json = z.record(z.string(), z.unknown());
const count = z.number().int().nonnegative();

/** Per-task limits; any omitted one keeps the engine default. */
export const genBudgetSchema = z
  .object({
    maxAuthorTurns: z.number().int().min(1).max(1000),
    maxReviewerCalls: z.number().int().min(1).max(1000),
    maxPromptTokens: z.number().int().min(1000).max(50_000_000),
    maxContextBytes: z.number().int().min(1000).max(200_000_000),
    maxWallMs: z.number().int().min(1000).max(24 * 3600_000),
    maxFormatRetries: z.number().int().min(1).max(20),
    maxNoProgress: z.number().int().min(1).max(50),
    maxCandidateBuilds: z.number().int().min(1).max(500),
    maxRequirementRevisions: z.number().int().min(1).max(20),
  })
  .partial()
  .strict();

/** A task as lists show it. `usage` is what the task consumed (turns, calls, tokens, bytes, builds). */
export const genTaskSummarySchema = z
  .object({
    taskId: z.string(),
    state: genTaskStateSchema,
    request: z.string(),
    authorModel: z.string(),
    reviewerModel: z.string(),
    headRevision: z.string().nullable(),
    revisionCount: count,
    /** Why a FAILED task failed (e.g. CANCELLED, FAILED_INTERNAL, NO_PROGRESS_LIMIT). */
    failureReason: z.string().nullable(),
    lastError: appErrorSchema.nullable(),
    /**
     * The open question of a WAITING_FOR_USER task. `reasonCode` is one of the engine's
     * USER_QUESTION_REASONS (missing_dimension, missing_datum, conflicting_sources, ambiguous_intent);
     * `askedBy` is the role that asked: the reviewer (requirements review) or the author (a geometry
     * conclusion during the actions).
     */
    question: z.object({ reasonCode: z.string(), text: z.string(), askedBy: z.enum(['author', 'reviewer']) }).strict().nullable(),
    usage: z.record(z.string(), z.number()),
    fromTask: z.string().nullable(),
    fromRevision: z.string().nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .strict();

export const genClaimViewSchema = z
  .object({
    claimId: z.string(),
    kind: z.string(),
    expected: json,
    /** false = a visual claim judged by the reviewer, not measured. */
    deterministic: z.boolean(),
    /** Status for the shown revision (final validation results when present); pending when none yet. */
    status: z.enum(['pass', 'pending', 'fail', 'unavailable']),
    message: z.string().nullable(),
    evidence: json.nullable(),
  })
  .strict();

export const genUsageByRoleSchema = z
  .object({ calls: count, promptTokens: count, cachedPromptTokens: count, completionTokens: count, contextBytes: count, latencyMs: count })
  .strict();

/** Everything a task view shows; claim statuses are those of `shownRevision`. */
export const genTaskDetailSchema = z
  .object({
    task: genTaskSummarySchema,
    budget: z.record(z.string(), z.number()),
    sources: z.array(z.object({ sourceId: z.string(), text: z.string() }).strict()),
    drafts: z.array(z.object({ draftId: z.string(), item: json }).strict()),
    /** The frozen requirements contract (null until the reviewer accepted the drafts). */
    contract: z
      .object({
        hash: z.string(),
        requirements: z.array(
          z.object({ requirementId: z.string(), statement: z.string(), sourceIds: z.array(z.string()), assumptions: z.array(z.string()), claims: z.array(genClaimViewSchema) }).strict(),
        ),
      })
      .strict()
      .nullable(),
    /** The one action the author proposed and the engine is working on (null between actions). */
    pending: z
      .object({ actionId: z.string(), intent: z.string(), requirementIds: z.array(z.string()), operation: z.string(), expectedChange: z.string() })
      .strict()
      .nullable(),
    revisions: z.array(z.object({ revisionId: z.string(), parentRevision: z.string().nullable(), actionId: z.string(), dir: z.string(), files: z.array(z.string()) }).strict()),
    shownRevision: z.string().nullable(),
    /**
     * The reviewer's latest requirements review (any verdict: approve, revise, waiting_for_user),
     * with one verdict and note per draft id; null until the reviewer answered once. Absent from
     * hosts that predate it.
     */
    requirementsReview: z
      .object({
        verdict: z.string(),
        items: z.array(z.object({ draftId: z.string(), verdict: z.string(), note: z.string() }).strict()),
        at: z.string(),
      })
      .strict()
      .nullable()
      .optional(),
    /**
     * The built candidate awaiting the reviewer (CANDIDATE_REVIEW): the revision it would become and
     * the kernel's claim results on it (`pass`/`fail`/`unavailable`); null when no candidate waits.
     * Absent from hosts that predate it.
     */
    candidate: z
      .object({
        candidateId: z.string(),
        actionId: z.string(),
        revisionId: z.string(),
        claims: z.array(z.object({ claimId: z.string(), status: z.string() }).strict()),
      })
      .strict()
      .nullable()
      .optional(),
    usageByRole: z.object({ author: genUsageByRoleSchema, reviewer: genUsageByRoleSchema }).strict(),
    /**
     * A task FAILED as BUDGET_EXHAUSTED: the exhausted limit (engine name, e.g. author_turns), the
     * budget field genResume's `budget` raises for it, what was spent and the limit (wall time in
     * ms). Null otherwise; absent from hosts that predate it.
     */
    budgetExhausted: z.object({ limit: z.string(), field: z.enum(['maxAuthorTurns', 'maxReviewerCalls', 'maxPromptTokens', 'maxContextBytes', 'maxWallMs', 'maxCandidateBuilds']), spent: z.number(), max: z.number() }).strict().nullable().optional(),
    /** What the budget was fitted to when the requirements were frozen (null before, and for tasks older than fitted budgets). */
    budgetBasis: z.object({ requirements: count, claims: count, features: count }).strict().nullable().optional(),
  })
  .strict();

/** A model's protocol-conformance result as stored by `cadsight gen check` / genCheckModel. */
export const genModelConformanceSchema = z
  .object({
    /** "provider/model". */
    model: z.string(),
    status: z.enum(['passed', 'failed', 'unchecked']),
    checkedAt: z.string().nullable(),
    passedChecks: count,
    totalChecks: count,
    /** Names and details of the failed checks (empty when passed or unchecked). */
    failures: z.array(z.object({ name: z.string(), detail: z.string() }).strict()).max(500),
  })
  .strict();

const byTask = z.object({ taskId }).strict();

export const generationChannels = {
  /**
   * Creates a task and starts its run in the background; returns at once with the new task.
   * `fromTask` + `revision` start from a completed task's revision ("change this part").
   * Errors: CDSL_REQUEST_INVALID (empty/too long request, unknown base revision),
   * LLM_NOT_CONFIGURED, CDSL_MODEL_STRUCTURED_OUTPUT_UNSUPPORTED, CDSL_TASK_NOT_FOUND (fromTask).
   */
  genStart: {
    input: z
      .object({
        request: z.string().min(1).max(MAX_GEN_REQUEST_CHARS),
        author: modelRef.optional(),
        reviewer: modelRef.optional(),
        fromTask: taskId.optional(),
        revision: revisionId.optional(),
        budgets: genBudgetSchema.optional(),
      })
      .strict()
      .refine((v) => (v.fromTask === undefined) === (v.revision === undefined), { message: 'fromTask and revision go together' }),
    output: genTaskSummarySchema,
  },
  /** Every task, newest first, optionally only those in `state`. */
  genList: { input: z.object({ state: genTaskStateSchema.optional() }).strict(), output: z.array(genTaskSummarySchema).max(10_000) },
  /** One task in full; `revision` selects the revision whose claim statuses are shown (default the head). Errors: CDSL_TASK_NOT_FOUND, CDSL_REQUEST_INVALID (unknown revision). */
  genShow: { input: z.object({ taskId, revision: revisionId.optional() }).strict(), output: genTaskDetailSchema },
  /** The action ledger (cad.action-ledger.v1 events, sequence order): history, never a plan. Errors: CDSL_TASK_NOT_FOUND. */
  genLedger: { input: byTask, output: z.array(json).max(100_000) },
  /**
   * Resumes a WAITING_RETRY task (or an interrupted run) in the background; with `budget` (an
   * explicit larger budget) also a task FAILED as BUDGET_EXHAUSTED, in the state it stopped in.
   * Errors: CDSL_TASK_NOT_FOUND, CDSL_TASK_BUSY, CDSL_TASK_NOT_RESUMABLE (a finished task; out of
   * budget without `budget`), CDSL_AUTHOR_DECISION_REJECTED (it waits for an answer),
   * CDSL_BUDGET_INVALID (a raised limit not above what the task spent, or a limit left exhausted).
   */
  genResume: { input: z.object({ taskId, budget: genBudgetSchema.optional() }).strict(), output: genTaskSummarySchema },
  /** Answers a WAITING_FOR_USER question and continues in the background. Errors: CDSL_TASK_NOT_FOUND, CDSL_TASK_BUSY, CDSL_AUTHOR_DECISION_REJECTED (not waiting), CDSL_REQUEST_INVALID. */
  genAnswer: { input: z.object({ taskId, text: z.string().min(1).max(MAX_GEN_ANSWER_CHARS) }).strict(), output: genTaskSummarySchema },
  /** Cancels a task (FAILED, reason CANCELLED); a terminal task is returned unchanged. Errors: CDSL_TASK_NOT_FOUND, CDSL_STALE_WORKING_HEAD (a running step committed first: retry). */
  genCancel: { input: byTask, output: genTaskSummarySchema },
  /**
   * Bytes of one file of the task folder, `name` relative to it (e.g. "requirements.md",
   * "actions/action-ledger.jsonl", "revisions/rev_003/model.step"). Errors: CDSL_TASK_NOT_FOUND,
   * CDSL_ARTIFACT_PATH_INVALID (absolute, `..`, or leaves the task folder through a link),
   * STORE_ARTIFACT_NOT_FOUND, CDSL_ARTIFACT_TOO_LARGE (over MAX_GEN_ARTIFACT_BYTES),
   * CDSL_ARTIFACT_CORRUPT (a revision file whose bytes differ from its manifest's sha256; data.file).
   */
  genGetArtifact: {
    input: z.object({ taskId, name: z.string().min(1).max(300) }).strict(),
    output: z.object({ taskId: z.string(), name: z.string(), mediaType: z.string(), size: count, base64: z.string() }).strict(),
  },
  /**
   * One zip of the task folder for download: `requirements.md`, `requirements-contract.json`,
   * `source-requirements.md`, `completion.md` (when present), `actions/action-ledger.jsonl` and the
   * published revision's folder (`revision`, default the head; a FAILED task's last good checkpoint).
   * Errors: CDSL_TASK_NOT_FOUND, CDSL_REQUEST_INVALID (no such revision / nothing published yet),
   * CDSL_ARTIFACT_MISSING (the revision's folder or one of its files is gone from the task folder),
   * CDSL_ARTIFACT_TOO_LARGE (the files, before compression, or the zip over MAX_GEN_ARTIFACT_BYTES:
   * the files are sized with stat before any is read, then streamed into the zip),
   * CDSL_ARTIFACT_CORRUPT (a revision file differs from its manifest's sha256; data.file names it).
   */
  genExportZip: {
    input: z.object({ taskId, revision: revisionId.optional() }).strict(),
    output: z.object({ taskId: z.string(), fileName: z.string(), size: count, entries: z.array(z.string()).max(10_000), base64: z.string() }).strict(),
  },
  /**
   * The GB engineering drawing of a task's revision (default its head), made like `cadsight gen
   * drawing`: views from the B-rep on the OCCT worker, one dimension per dimensional claim of the
   * frozen contract, and a rules-only self-review. The files land in the revision's folder as
   * `drawing/` (drawing.dxf, drawing.pdf, drawing-report.json, drawing.png — a preview of the whole
   * sheet); `dxf`, `pdf` and `preview` are task-folder names for genGetArtifact. `sheet` auto picks
   * the smallest of A4/A3/A2 the views fit; `lang` is the sheet's label language.
   * Errors: CDSL_TASK_NOT_FOUND, CDSL_TASK_BUSY (retryable: a run or another drawing of the task is
   * in progress), CDSL_REQUEST_INVALID (no such revision, no frozen contract), CDSL_ARTIFACT_MISSING
   * (the revision's folder is gone), CDSL_DRAWING_FAILED, CAD_RENDER_FONT_MISSING (preview: no CJK font).
   */
  genMakeDrawing: {
    input: z
      .object({
        taskId,
        revision: revisionId.optional(),
        sheet: z.enum(['auto', 'A4', 'A3', 'A2']).optional(),
        projection: z.enum(['first-angle', 'third-angle']).optional(),
        lang: z.enum(['zh-CN', 'en']).optional(),
      })
      .strict(),
    output: z
      .object({
        taskId: z.string(),
        revision: z.string(),
        /** The sheet format used (A4/A3/A2) and the scale from the preferred series, e.g. "1:2". */
        sheet: z.string(),
        scale: z.string(),
        projection: z.enum(['first-angle', 'third-angle']),
        /** Finding counts of the rules-only self-review; `hasBlocking` = the drawing does not pass. */
        findings: z.object({ total: count, blocking: count, major: count, minor: count, info: count }).strict(),
        hasBlocking: z.boolean(),
        /** Which claim became which dimension text(s) (e.g. "Ø120", "4×Ø10 EQS"), or why none (`reason`). */
        claims: z.array(z.object({ claimId: z.string(), kind: z.string(), dimensions: z.array(z.string()), reason: z.string().nullable() }).strict()).max(10_000),
        dxf: z.string(),
        pdf: z.string(),
        report: z.string(),
        preview: z.string(),
      })
      .strict(),
  },
  /**
   * The stored protocol-conformance result (`cadsight gen check`) of each configured model, or of
   * the given `models` ("provider/model"). `status` unchecked = never run; failed lists the checks
   * that failed. No model calls. Errors: none beyond validation.
   */
  genModelStatus: {
    input: z.object({ models: z.array(modelRef).max(50).optional() }).strict(),
    output: z.array(genModelConformanceSchema).max(200),
  },
  /**
   * Runs the conformance suite (every fixed tool schema and every operation's fragment schema) against
   * one model now and stores the result as its capabilities. Sends a few dozen short requests.
   * Errors: LLM_NOT_CONFIGURED (unknown provider/model), LLM_* transport errors (retryable).
   */
  genCheckModel: { input: z.object({ model: modelRef }).strict(), output: genModelConformanceSchema },
} as const;

export const generationEvents = {
  /**
   * A committed engine event of a task (outbox order; at least once: dedupe by `seq`): task_created,
   * contract_frozen, action_proposed, candidate_building, candidate_built, candidate_rejected,
   * revision_accepted, final_validation, completed, failed, question, waiting_retry, resumed, ...
   * `state` is the task's state when the event was dispatched.
   */
  genTaskEvent: z.object({ seq: count, taskId: z.string(), type: z.string(), state: genTaskStateSchema, payload: json }).strict(),
} as const;

export type GenTaskSummary = z.output<typeof genTaskSummarySchema>;
export type GenTaskDetail = z.output<typeof genTaskDetailSchema>;
export type GenClaimView = z.output<typeof genClaimViewSchema>;
export type GenModelConformance = z.output<typeof genModelConformanceSchema>;
