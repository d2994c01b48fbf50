import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { AppError, toAppErrorData } from '../../../shared/errors';
import { createSetReportBuilder, renderSetMarkdown, reportSchema, type ReviewLocale, type ReviewReport, type SetReport } from '../../features/review/index';
import { writeFileAtomicSync } from '../../platform/dataDir/fileSafety';

/**
 * The drawing-set engine shared by `cadsight review <folder>` and the Review view's set review:
 * bounded concurrency, one report folder per file, resumable through set-state.json, and a set
 * report assembled from the per-file reports on disk so the host holds no file's results.
 */

/** What reviewing one file of the set gave: its exit code (REVIEW_EXIT); its report is the one written to `outDir`. */
export interface SetFileResult {
  exitCode: number;
  /** Findings in the file's report (for progress lines; the report itself is read back from disk). */
  findings: number;
  /** The file's run in the review store, when the caller keeps one per file. */
  runId?: string;
}

/** One step of a set review: a file started, or finished (reviewed now or kept from an earlier run). */
export type SetProgress =
  | { kind: 'started'; file: string; done: number; total: number }
  | { kind: 'finished'; file: string; done: number; total: number; exitCode: number; findings: number; reused: boolean; runId: string | null; error: { code: string; message: string } | null };

export interface ReviewSetDeps {
  /**
   * Reviews one DXF into `outDir` (report.json, report.md, screenshots) and lets go of the
   * drawing when it returns. Throws typed errors (recorded for that file, never thrown on).
   */
  reviewFile: (file: string, outDir: string) => Promise<SetFileResult>;
  now: () => Date;
  onProgress: (event: SetProgress) => void;
  signal?: AbortSignal;
}

export interface ReviewSetOptions {
  folder: string;
  out: string;
  /** Files reviewed at the same time (1–8): bounds memory to that many open drawings. */
  jobs: number;
  locale: ReviewLocale;
}

interface StateEntry {
  size: number;
  mtimeMs: number;
  exitCode: number;
  findings?: number;
  reportDir: string;
  runId?: string;
  error?: { code: string; message: string };
}

/** Per-file state of a set's output folder (resume, and the app's link from a file to its run). */
export const SET_STATE_FILE = 'set-state.json';
export const SET_REPORT_JSON = 'set-report.json';
export const SET_REPORT_MARKDOWN = 'set-report.md';

/** The DXF files of a folder (not recursive), sorted; a review's own annotated copies (`*.ai-review.dxf`) are not drawings of the set. Errors: REVIEW_SET_EMPTY. */
export function setFiles(folder: string): string[] {
  const files = readdirSync(folder, { withFileTypes: true })
    .filter((e) => e.isFile() && e.name.toLowerCase().endsWith('.dxf') && !e.name.toLowerCase().endsWith('.ai-review.dxf'))
    .map((e) => e.name)
    .sort();
  if (files.length === 0) throw new AppError('REVIEW_SET_EMPTY', `${folder} holds no .dxf file to review.`, { data: { folder } });
  return files;
}

/** One report folder per file, stable across runs (the stem; a numbered suffix when two stems collide). */
function reportDirs(files: readonly string[]): Map<string, string> {
  const used = new Set<string>();
  const dirs = new Map<string, string>();
  for (const file of files) {
    const stem = path.parse(file).name.replace(/[^\p{L}\p{N}._-]+/gu, '_') || 'drawing';
    let dir = `reports/${stem}`;
    for (let i = 2; used.has(dir); i++) dir = `reports/${stem}-${i}`;
    used.add(dir);
    dirs.set(file, dir);
  }
  return dirs;
}

/** The per-file state of a set output folder ({} before the first run or when damaged). */
export function readSetState(out: string): Record<string, StateEntry> {
  try {
    return (JSON.parse(readFileSync(path.join(out, SET_STATE_FILE), 'utf8')) as { files: Record<string, StateEntry> }).files ?? {};
  } catch {
    // No state yet (first run) or a damaged one: every file is reviewed again.
    return {};
  }
}

const writeJson = (file: string, value: unknown): void => writeFileAtomicSync(file, `${JSON.stringify(value, null, 2)}\n`, 0o644);

/** A file's report read back from its folder (undefined when missing or invalid). */
function storedReport(out: string, reportDir: string): ReviewReport | undefined {
  const file = path.join(out, reportDir, 'report.json');
  if (!existsSync(file)) return undefined;
  try {
    const parsed = reportSchema.safeParse(JSON.parse(readFileSync(file, 'utf8')));
    return parsed.success ? parsed.data : undefined;
  } catch {
    // A truncated report (the process died while writing it) is the same as none: review again.
    return undefined;
  }
}

/**
 * Reviews every DXF of a folder with at most `jobs` files at a time, each into its own report
 * folder, then writes set-report.json / set-report.md (all findings, cross-sheet checks, the
 * table of sheets). Resumable: a file reviewed before (same size and mtime, report present) is
 * not reviewed again. Memory: while files are reviewed only their exit codes are held; the set
 * report is folded from the reports on disk one file at a time. The set's exit code is the worst file's.
 * Errors: REVIEW_SET_EMPTY, REVIEW_CANCELLED (resume by running again); a file's own errors are
 * recorded in the set report, not thrown.
 */
export async function runReviewSet(options: ReviewSetOptions, deps: ReviewSetDeps): Promise<SetReport> {
  const files = setFiles(options.folder);
  mkdirSync(options.out, { recursive: true });
  const dirs = reportDirs(files);
  const state = readSetState(options.out);
  let next = 0;
  let done = 0;
  /**
   * A file's review reduced to its state entry in a frame of its own: the result object (which
   * may carry the caller's report or drawing) is dropped when this returns, not kept alive in the
   * suspended worker until the next file's result replaces it.
   */
  const reviewOne = async (file: string, reportDir: string, stat: { size: number; mtimeMs: number }): Promise<StateEntry> => {
    try {
      const result = await deps.reviewFile(path.join(options.folder, file), path.join(options.out, reportDir));
      return { size: stat.size, mtimeMs: stat.mtimeMs, exitCode: result.exitCode, findings: result.findings, reportDir, ...(result.runId ? { runId: result.runId } : {}) };
    } catch (error) {
      const data = toAppErrorData(error);
      return { size: stat.size, mtimeMs: stat.mtimeMs, exitCode: 2, findings: 0, reportDir, error: { code: data.code, message: data.message } };
    }
  };
  const worker = async (): Promise<void> => {
    while (next < files.length && !deps.signal?.aborted) {
      const file = files[next++]!;
      const reportDir = dirs.get(file)!;
      const stat = statSync(path.join(options.folder, file));
      const previous = state[file];
      const reused =
        previous !== undefined && !previous.error && previous.size === stat.size && previous.mtimeMs === stat.mtimeMs && previous.reportDir === reportDir && existsSync(path.join(options.out, reportDir, 'report.json'));
      if (!reused) {
        deps.onProgress({ kind: 'started', file, done, total: files.length });
        const entry = await reviewOne(file, reportDir, stat);
        // Cut short by the cancel: not reviewed, so not recorded (the next run reviews it).
        if (deps.signal?.aborted && !existsSync(path.join(options.out, reportDir, 'report.json'))) return;
        state[file] = entry;
        writeJson(path.join(options.out, SET_STATE_FILE), { version: 1, files: state });
      }
      const entry = state[file]!;
      done++;
      deps.onProgress({ kind: 'finished', file, done, total: files.length, exitCode: entry.exitCode, findings: entry.findings ?? 0, reused, runId: entry.runId ?? null, error: entry.error ?? null });
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(options.jobs, files.length)) }, worker));
  if (deps.signal?.aborted) throw new AppError('REVIEW_CANCELLED', `The set review was cancelled after ${done} of ${files.length} files; run it again to resume.`, { data: { done, total: files.length } });
  const builder = createSetReportBuilder(options.folder, options.locale);
  for (const file of files) {
    const entry = state[file]!;
    const report = entry.error ? undefined : storedReport(options.out, entry.reportDir);
    // A report that vanished or was damaged after its file was reviewed is an error of that file.
    const error = entry.error ?? (report ? undefined : { code: 'REVIEW_REPORT_MISSING', message: `The review of ${file} left no valid report (${entry.reportDir}/report.json); run the set again to review it again.` });
    builder.add({ file, reportDir: entry.reportDir, exitCode: error ? 2 : entry.exitCode, ...(entry.runId ? { runId: entry.runId } : {}), ...(report ? { report } : {}), ...(error ? { error } : {}) });
  }
  const report = builder.finish(deps.now().toISOString());
  writeJson(path.join(options.out, SET_REPORT_JSON), report);
  writeFileSync(path.join(options.out, SET_REPORT_MARKDOWN), renderSetMarkdown(report));
  return report;
}

/** The CLI's progress line for a set step (stderr). */
export function setProgressLine(event: SetProgress): string | null {
  if (event.kind === 'started') return null;
  return `[set ${event.done}/${event.total}] ${event.file}: ${event.error ? `[${event.error.code}]` : `${event.findings} findings`}, exit ${event.exitCode}${event.reused ? ' (already reviewed)' : ''}`;
}
