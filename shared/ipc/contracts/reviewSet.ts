import { z } from 'zod';
import { appErrorSchema } from '../../errors';
import { MAX_DXF_UPLOAD_BYTES } from './review';

/**
 * Drawing-set review channels: the user gathers DXF files into a set (picked, a folder, or
 * dropped; each uploaded as bytes like a single drawing), then reviews the whole set in the
 * background with the same engine as `cadsight review <folder>`: bounded concurrency, progress
 * per file (`reviewSetProgress`), resumable (starting a set again skips the files already
 * reviewed), one report per file (a review run the view opens) and one set report.
 * Common errors: REVIEW_SET_NOT_FOUND, REVIEW_SET_BUSY (the set is being reviewed).
 */

/** Most files one set holds (the set engine's state and report stay small). */
export const MAX_SET_FILES = 200;

const setId = z.string().regex(/^set-[0-9a-f-]{36}$/);
const count = z.number().int().nonnegative();
const fileError = z.object({ code: z.string(), message: z.string() }).strict();

/** `draft`: files added, never started; `interrupted`: started, not finished and nothing working on it (start it again to resume). */
export const setStatusViewSchema = z.enum(['draft', 'running', 'completed', 'cancelled', 'failed', 'interrupted']);

export const setSummaryViewSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    createdAt: z.string(),
    status: setStatusViewSchema,
    files: count,
    /** Files reviewed so far (kept across runs). */
    done: count,
    /** The worst file's exit code (as `cadsight review <folder>`) once the set report exists. */
    exitCode: z.number().int().nullable(),
    error: appErrorSchema.nullable(),
  })
  .strict();

/** One file of a set. `runId`: its review run (open it like any run); null until reviewed. */
export const setFileViewSchema = z
  .object({
    /** The stored file name (unique in the set; the set report and events use it). */
    file: z.string(),
    /** The name the file was uploaded as: what the user sees. */
    name: z.string(),
    state: z.enum(['pending', 'reviewing', 'done', 'failed']),
    exitCode: z.number().int().nullable(),
    findings: count,
    runId: z.string().nullable(),
    error: fileError.nullable(),
  })
  .strict();

/** The set report (set-report.json): files, the table of sheets, cross-sheet checks and all findings. */
export const setReportViewSchema = z
  .object({
    createdAt: z.string(),
    exitCode: z.number().int(),
    files: z.array(z.object({ file: z.string(), runId: z.string().nullable(), exitCode: z.number().int(), findings: count, blocking: count, frames: count, error: fileError.nullable() }).passthrough()),
    sheets: z.array(
      z
        .object({ file: z.string(), frameId: z.string(), title: z.string().nullable(), drawingNo: z.string().nullable(), sheetNo: z.string().nullable(), sheetCount: z.string().nullable(), sheet: z.string().nullable() })
        .strict(),
    ),
    /** `kind`: duplicate_drawing_no, and the 共 N 张 / 第 M 张 numbering checks. */
    crossSheet: z.array(z.object({ kind: z.string(), message: z.string() }).passthrough()),
    findings: z.array(z.object({ file: z.string(), frameId: z.string().nullable(), checklistItemId: z.string(), severity: z.string(), message: z.string() }).strict()),
  })
  .passthrough();

export const setDetailViewSchema = z.object({ set: setSummaryViewSchema, files: z.array(setFileViewSchema), report: setReportViewSchema.nullable() }).strict();

const setInput = z.object({ setId }).strict();

export const reviewSetChannels = {
  /** A new, empty set. */
  reviewSetCreate: { input: z.object({ name: z.string().trim().min(1).max(120) }).strict(), output: z.object({ setId: z.string() }).strict() },
  /**
   * Adds one DXF (bytes) to a set that is not running, stored under a unique name (files whose
   * sanitised names collide get `-2`, `-3`, ...; the view shows the uploaded name); a file uploaded
   * again under the same name is replaced.
   * Errors: REVIEW_SET_NOT_FOUND, REVIEW_SET_BUSY, REVIEW_SET_FULL (MAX_SET_FILES),
   * REVIEW_UPLOAD_TOO_LARGE, REVIEW_UPLOAD_INVALID (not base64, empty, or not a .dxf name),
   * CAD_DWG_UNSUPPORTED (a .dwg: save it as DXF).
   */
  reviewSetAddFile: {
    input: z.object({ setId, fileName: z.string().min(1).max(255), dataBase64: z.string().min(1).max(Math.ceil(MAX_DXF_UPLOAD_BYTES / 3) * 4 + 8) }).strict(),
    output: z.object({ files: count }).strict(),
  },
  /**
   * Reviews the set in the background (progress per file via `reviewSetProgress`, the end via
   * `reviewSetStatus`); a set started before resumes where it stopped. `llm`/`model` as in
   * reviewStart. Errors: REVIEW_SET_NOT_FOUND, REVIEW_SET_BUSY, REVIEW_SET_EMPTY,
   * REVIEW_CHECKLIST_INVALID, LLM_NOT_CONFIGURED, SETTINGS_NOT_FOUND.
   */
  reviewSetStart: {
    input: z
      .object({
        setId,
        checklistPath: z.string().min(1).max(1000).nullable(),
        llm: z.boolean(),
        model: z.object({ providerId: z.string().min(1), model: z.string().min(1) }).strict().nullable(),
      })
      .strict(),
    output: z.object({ setId: z.string(), total: count }).strict(),
  },
  /** Stops a running set after the files under review (reviewed files are kept; start it again to resume). */
  reviewSetCancel: { input: setInput, output: z.object({ cancelled: z.boolean() }).strict() },
  /** Sets, newest first. */
  reviewListSets: { input: z.object({}).strict(), output: z.object({ sets: z.array(setSummaryViewSchema) }).strict() },
  /** One set: its files with their state and run, and the set report once written. Errors: REVIEW_SET_NOT_FOUND. */
  reviewGetSet: { input: setInput, output: setDetailViewSchema },
  /** The set report to save (Markdown or JSON). Errors: REVIEW_SET_NOT_FOUND, REVIEW_FILE_NOT_FOUND (not written yet). */
  reviewSetDownload: {
    input: z.object({ setId, kind: z.enum(['markdown', 'json']) }).strict(),
    output: z.object({ fileName: z.string(), mimeType: z.string(), dataBase64: z.string() }).strict(),
  },
} as const;

export const reviewSetEvents = {
  /** A file of a running set started (`reviewing`) or finished (`done` / `failed`). */
  reviewSetProgress: z
    .object({ setId: z.string(), done: count, total: count, file: setFileViewSchema })
    .strict(),
  /** A set started, completed, was cancelled or failed. */
  reviewSetStatus: z.object({ setId: z.string(), status: setStatusViewSchema, error: appErrorSchema.nullable() }).strict(),
} as const;
