import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { AppError, toAppErrorData } from '../../../shared/errors';
import { buildSetReport, renderSetMarkdown, reportSchema, type ReviewLocale, type ReviewReport, type SetFileOutcome, type SetReport } from '../../features/review/index';

/** What reviewing one file of the set gave: its exit code (REVIEW_EXIT) and report when it completed. */
export interface SetFileResult {
  exitCode: number;
  report?: ReviewReport;
}

export interface ReviewSetDeps {
  /** Reviews one DXF into `outDir` (report.json, report.md, screenshots). Throws typed errors. */
  reviewFile: (file: string, outDir: string) => Promise<SetFileResult>;
  now: () => Date;
  /** Progress, one line per file. */
  log: (line: string) => void;
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
  reportDir: string;
  error?: { code: string; message: string };
}

const STATE_FILE = 'set-state.json';

/** The DXF files of a folder (not recursive), sorted. Errors: REVIEW_SET_EMPTY. */
export function setFiles(folder: string): string[] {
  const files = readdirSync(folder, { withFileTypes: true })
    .filter((e) => e.isFile() && e.name.toLowerCase().endsWith('.dxf'))
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

function readState(out: string): Record<string, StateEntry> {
  try {
    return (JSON.parse(readFileSync(path.join(out, STATE_FILE), 'utf8')) as { files: Record<string, StateEntry> }).files ?? {};
  } catch {
    // No state yet (first run) or a damaged one: every file is reviewed again.
    return {};
  }
}

/** Written through a temporary file so an interrupted run never leaves half a state behind. */
function writeJson(file: string, value: unknown): void {
  writeFileSync(`${file}.tmp`, `${JSON.stringify(value, null, 2)}\n`);
  renameSync(`${file}.tmp`, file);
}

/** A finished file's report read back for a resumed set (undefined when missing or invalid). */
function storedReport(out: string, reportDir: string): ReviewReport | undefined {
  const file = path.join(out, reportDir, 'report.json');
  if (!existsSync(file)) return undefined;
  const parsed = reportSchema.safeParse(JSON.parse(readFileSync(file, 'utf8')));
  return parsed.success ? parsed.data : undefined;
}

/**
 * Reviews every DXF of a folder with at most `jobs` files at a time, each into its own report
 * folder, then writes set-report.json / set-report.md (all findings, cross-sheet checks, the
 * table of sheets). Resumable: a file reviewed before (same size and mtime, report present) is
 * not reviewed again. The set's exit code is the worst file's.
 * Errors: REVIEW_SET_EMPTY; a file's own errors are recorded in the set report, not thrown.
 */
export async function runReviewSet(options: ReviewSetOptions, deps: ReviewSetDeps): Promise<SetReport> {
  const files = setFiles(options.folder);
  mkdirSync(options.out, { recursive: true });
  const dirs = reportDirs(files);
  const state = readState(options.out);
  const outcomes = new Map<string, SetFileOutcome>();
  let next = 0;
  let done = 0;
  const worker = async (): Promise<void> => {
    while (next < files.length && !deps.signal?.aborted) {
      const file = files[next++]!;
      const reportDir = dirs.get(file)!;
      const stat = statSync(path.join(options.folder, file));
      const previous = state[file];
      const reused = previous && previous.size === stat.size && previous.mtimeMs === stat.mtimeMs && previous.reportDir === reportDir ? (previous.error ? undefined : storedReport(options.out, reportDir)) : undefined;
      let outcome: SetFileOutcome;
      if (previous && reused) {
        outcome = { file, reportDir, exitCode: previous.exitCode, report: reused };
      } else {
        try {
          const result = await deps.reviewFile(path.join(options.folder, file), path.join(options.out, reportDir));
          outcome = { file, reportDir, exitCode: result.exitCode, ...(result.report ? { report: result.report } : {}) };
        } catch (error) {
          const data = toAppErrorData(error);
          outcome = { file, reportDir, exitCode: 2, error: { code: data.code, message: data.message } };
        }
        state[file] = { size: stat.size, mtimeMs: stat.mtimeMs, exitCode: outcome.exitCode, reportDir, ...(outcome.error ? { error: outcome.error } : {}) };
        writeJson(path.join(options.out, STATE_FILE), { version: 1, files: state });
      }
      outcomes.set(file, outcome);
      done++;
      deps.log(`[set ${done}/${files.length}] ${file}: ${outcome.error ? `[${outcome.error.code}]` : `${outcome.report?.summary.total ?? 0} findings`}, exit ${outcome.exitCode}${reused ? ' (already reviewed)' : ''}`);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(options.jobs, files.length)) }, worker));
  if (deps.signal?.aborted) throw new AppError('REVIEW_CANCELLED', `The set review was cancelled after ${done} of ${files.length} files; run it again to resume.`, { data: { done, total: files.length } });
  const report = buildSetReport(options.folder, files.map((f) => outcomes.get(f)!), options.locale, deps.now().toISOString());
  writeJson(path.join(options.out, 'set-report.json'), report);
  writeFileSync(path.join(options.out, 'set-report.md'), renderSetMarkdown(report));
  return report;
}
