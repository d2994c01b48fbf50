import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import type { z } from 'zod';
import { MAX_DXF_UPLOAD_BYTES } from '../../../shared/ipc/contracts/review';
import { MAX_SET_FILES, type reviewSetChannels, type reviewSetEvents, type setDetailViewSchema, type setFileViewSchema, type setSummaryViewSchema } from '../../../shared/ipc/contracts/reviewSet';
import { AppError, toAppErrorData, type AppErrorData } from '../../../shared/errors';
import type { LlmReviewSettings, ReviewLocale, ReviewStore } from '../../features/review/index';
import { writeFileAtomicSync } from '../../platform/dataDir/fileSafety';
import type { Logger } from '../../platform/log/types';
import { decodeDxfUpload, safeName, type DrawingDescriptor } from './reviewDrawings';
import { dxfSetFileReviewer } from './reviewFiles';
import { loadChecklistFile, type ReviewerModel } from './reviewRuns';
import { readSetState, runReviewSet, SET_REPORT_JSON, SET_REPORT_MARKDOWN, setFiles, type SetProgress } from './reviewSet';

type Input<K extends keyof typeof reviewSetChannels> = z.output<(typeof reviewSetChannels)[K]['input']>;
type SetSummary = z.input<typeof setSummaryViewSchema>;
type SetFileView = z.input<typeof setFileViewSchema>;
type SetStatus = SetSummary['status'];

export interface SetManagerOptions {
  store: ReviewStore;
  /** `<data>/sets`: one folder per set — set.json, files/ (the uploaded DXFs), out/ (the engine's output). */
  setsDir: string;
  defaultChecklist: string;
  /** Folders a custom checklist may come from (Settings → allowed folders). */
  allowedRoots(): readonly string[];
  locale(): ReviewLocale;
  generatorVersion: string;
  now(): Date;
  /** Files of a set reviewed at the same time (drawings open at once). */
  jobs: number;
  /** Frames of one file reviewed in parallel. */
  concurrency: number;
  /** The LLM sub-loop settings (as the run manager's). Errors: LLM_NOT_CONFIGURED, SETTINGS_NOT_FOUND. */
  reviewer(model: ReviewerModel | null): LlmReviewSettings;
  onProgress(event: z.input<(typeof reviewSetEvents)['reviewSetProgress']>): void;
  onStatus(event: z.input<(typeof reviewSetEvents)['reviewSetStatus']>): void;
  log: Logger;
}

interface SetRecord {
  id: string;
  name: string;
  createdAt: string;
}

/** How a set last ended (status.json); absent while a set is a draft or was interrupted. */
interface EndRecord {
  status: 'completed' | 'cancelled' | 'failed';
  error: AppErrorData | null;
}

const REPORT_MEDIA = { markdown: 'text/markdown; charset=utf-8', json: 'application/json' } as const;

/**
 * The app's drawing sets: files uploaded into `<data>/sets/<id>/files`, reviewed in the background
 * by the set engine of `cadsight review <folder>` (runReviewSet) into `<id>/out`. Each file's review
 * is an ordinary run in the store whose folder is that file's report folder (`runFolder`), so the
 * Review view opens it like any run. Nothing per file is held in memory beyond the running files.
 */
export function createSetManager(options: SetManagerOptions) {
  const active = new Map<string, { controller: AbortController; files: Map<string, SetFileView> }>();
  /** Sets already reported as unreadable (reported once). */
  const unreadable = new Set<string>();
  /** Run id → report folder of the set file it reviewed (loaded from the sets' state on first use). */
  let runFolders: Map<string, string> | null = null;
  const dirOf = (setId: string): string => path.join(options.setsDir, setId);
  const filesDir = (setId: string): string => path.join(dirOf(setId), 'files');
  const outDir = (setId: string): string => path.join(dirOf(setId), 'out');

  const requireSet = (setId: string): SetRecord => {
    const file = path.join(dirOf(setId), 'set.json');
    if (!existsSync(file)) throw new AppError('REVIEW_SET_NOT_FOUND', `Drawing set ${setId} does not exist.`, { data: { setId } });
    return JSON.parse(readFileSync(file, 'utf8')) as SetRecord;
  };
  const requireIdle = (setId: string): void => {
    if (active.has(setId)) throw new AppError('REVIEW_SET_BUSY', 'This drawing set is being reviewed; wait for it or cancel it first.', { data: { setId } });
  };
  const endOf = (setId: string): EndRecord | null => {
    const file = path.join(dirOf(setId), 'status.json');
    return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as EndRecord) : null;
  };
  /** Stored file name → the name it was uploaded as (names.json; absent for files stored under their own name). */
  const namesOf = (setId: string): Record<string, string> => {
    try {
      const parsed = JSON.parse(readFileSync(path.join(dirOf(setId), 'names.json'), 'utf8')) as unknown;
      return typeof parsed === 'object' && parsed !== null ? Object.fromEntries(Object.entries(parsed).filter((entry): entry is [string, string] => typeof entry[1] === 'string')) : {};
    } catch {
      return {};
    }
  };
  const listFiles = (setId: string): string[] => {
    try {
      return setFiles(filesDir(setId));
    } catch {
      // No file yet (a new set): an empty list, not an error.
      return [];
    }
  };

  const loadRunFolders = (): Map<string, string> => {
    if (runFolders) return runFolders;
    runFolders = new Map();
    const ids = existsSync(options.setsDir) ? readdirSync(options.setsDir).filter((name) => name.startsWith('set-')) : [];
    for (const id of ids) {
      for (const entry of Object.values(readSetState(outDir(id)))) if (entry.runId) runFolders.set(entry.runId, path.join(outDir(id), entry.reportDir));
    }
    return runFolders;
  };

  /** The files with their state: the engine's state on disk, overlaid by what is under review now. */
  const fileViews = (setId: string): SetFileView[] => {
    const state = readSetState(outDir(setId));
    const live = active.get(setId)?.files;
    const names = namesOf(setId);
    return listFiles(setId).map((file) => {
      const now = live?.get(file);
      if (now) return now;
      const entry = state[file];
      const name = names[file] ?? file;
      if (!entry) return { file, name, state: 'pending', exitCode: null, findings: 0, runId: null, error: null };
      // Exit code 2 without a typed error: the review itself ended failed (its run says why).
      return { file, name, state: entry.error || entry.exitCode === 2 ? 'failed' : 'done', exitCode: entry.exitCode, findings: entry.findings ?? 0, runId: entry.runId ?? null, error: entry.error ?? null };
    });
  };

  const summary = (record: SetRecord): SetSummary => {
    const files = fileViews(record.id);
    const end = endOf(record.id);
    const report = path.join(outDir(record.id), SET_REPORT_JSON);
    const done = files.filter((f) => f.state === 'done' || f.state === 'failed').length;
    const status: SetStatus = active.has(record.id) ? 'running' : end ? end.status : done > 0 ? 'interrupted' : 'draft';
    const exitCode = status === 'completed' && existsSync(report) ? (JSON.parse(readFileSync(report, 'utf8')) as { exitCode: number }).exitCode : null;
    return { id: record.id, name: record.name, createdAt: record.createdAt, status, files: files.length, done, exitCode, error: end?.error ?? null };
  };

  const finish = (setId: string, end: EndRecord): void => {
    writeFileAtomicSync(path.join(dirOf(setId), 'status.json'), JSON.stringify(end), 0o644);
    options.onStatus({ setId, status: end.status, error: end.error });
  };

  return {
    create(input: Input<'reviewSetCreate'>): { setId: string } {
      const record: SetRecord = { id: `set-${randomUUID()}`, name: input.name, createdAt: options.now().toISOString() };
      try {
        mkdirSync(filesDir(record.id), { recursive: true });
        writeFileAtomicSync(path.join(dirOf(record.id), 'set.json'), JSON.stringify(record), 0o644);
      } catch (error) {
        // A set that could not be recorded (STORAGE_FULL) leaves no half-made folder behind.
        rmSync(dirOf(record.id), { recursive: true, force: true });
        throw error;
      }
      return { setId: record.id };
    },
    /**
     * Stores the upload under a unique name (its sanitised name, `-2`, `-3`, ... on a collision) and
     * remembers the name it came with; the same uploaded name again replaces that file.
     * Errors: REVIEW_SET_NOT_FOUND, REVIEW_SET_BUSY, REVIEW_SET_FULL, REVIEW_UPLOAD_*, CAD_DWG_UNSUPPORTED, STORAGE_FULL.
     */
    addFile(input: Input<'reviewSetAddFile'>): { files: number } {
      requireSet(input.setId);
      requireIdle(input.setId);
      const name = safeName(input.fileName);
      if (/\.dwg$/i.test(name)) throw new AppError('CAD_DWG_UNSUPPORTED', `${input.fileName} is a DWG file; save it as DXF to review it in a set.`, { data: { fileName: input.fileName } });
      // The engine's own output (<name>.ai-review.dxf) is never part of a set.
      if (!/\.dxf$/i.test(name) || /\.ai-review\.dxf$/i.test(name)) throw new AppError('REVIEW_UPLOAD_INVALID', `${input.fileName} is not a .dxf file.`, { data: { fileName: input.fileName } });
      const existing = listFiles(input.setId);
      const names = namesOf(input.setId);
      const replaced = existing.find((file) => (names[file] ?? file) === input.fileName);
      if (replaced === undefined && existing.length >= MAX_SET_FILES) throw new AppError('REVIEW_SET_FULL', `A drawing set holds at most ${MAX_SET_FILES} files.`, { data: { limit: MAX_SET_FILES } });
      const stored = replaced ?? uniqueName(name, existing);
      writeFileAtomicSync(path.join(filesDir(input.setId), stored), decodeDxfUpload(input.fileName, input.dataBase64), 0o644);
      if (stored !== input.fileName || names[stored] !== undefined) writeFileAtomicSync(path.join(dirOf(input.setId), 'names.json'), JSON.stringify({ ...names, [stored]: input.fileName }), 0o644);
      // The set changed: its last report no longer covers it (the reviewed files are kept for the next start).
      rmSync(path.join(dirOf(input.setId), 'status.json'), { force: true });
      return { files: listFiles(input.setId).length };
    },
    /** Errors: REVIEW_SET_NOT_FOUND, REVIEW_SET_BUSY, REVIEW_SET_EMPTY, REVIEW_CHECKLIST_INVALID, LLM_NOT_CONFIGURED, SETTINGS_NOT_FOUND. */
    start(input: Input<'reviewSetStart'>): { setId: string; total: number } {
      requireSet(input.setId);
      requireIdle(input.setId);
      const folder = filesDir(input.setId);
      const total = setFiles(folder).length;
      // A custom checklist named over IPC must sit in a folder the user allowed in Settings.
      const checklist = input.checklistPath === null ? loadChecklistFile(options.defaultChecklist, null) : loadChecklistFile(input.checklistPath, options.allowedRoots());
      // Resolved before any work so a missing key fails the start, not every file.
      const llm = input.llm ? options.reviewer(input.model) : undefined;
      const controller = new AbortController();
      const live = new Map<string, SetFileView>();
      const names = namesOf(input.setId);
      active.set(input.setId, { controller, files: live });
      const review = dxfSetFileReviewer(
        { store: options.store, now: options.now, newRunId: () => `review-${randomUUID()}`, generatorVersion: options.generatorVersion, ...(llm ? { llm } : {}) },
        { checklist, locale: options.locale(), concurrency: options.concurrency, signal: controller.signal },
      );
      const onProgress = (event: SetProgress): void => {
        const name = names[event.file] ?? event.file;
        const view: SetFileView =
          event.kind === 'started'
            ? { file: event.file, name, state: 'reviewing', exitCode: null, findings: 0, runId: null, error: null }
            : { file: event.file, name, state: event.error || event.exitCode === 2 ? 'failed' : 'done', exitCode: event.exitCode, findings: event.findings, runId: event.runId, error: event.error };
        if (event.kind === 'started') live.set(event.file, view);
        else live.delete(event.file);
        options.onProgress({ setId: input.setId, done: event.done, total: event.total, file: view });
      };
      // A new run: the last one's ending no longer describes the set.
      rmSync(path.join(dirOf(input.setId), 'status.json'), { force: true });
      void runReviewSet(
        { folder, out: outDir(input.setId), jobs: options.jobs, locale: options.locale() },
        {
          now: options.now,
          signal: controller.signal,
          onProgress,
          async reviewFile(file, reportFolder) {
            mkdirSync(reportFolder, { recursive: true });
            // What the run view needs to reopen, resume and write back this file's run.
            const descriptor: DrawingDescriptor = { kind: 'dxf', label: path.basename(file), path: file };
            writeFileAtomicSync(path.join(reportFolder, 'drawing.json'), JSON.stringify(descriptor), 0o644);
            const result = await review(file, reportFolder);
            if (result.runId) loadRunFolders().set(result.runId, reportFolder);
            return result;
          },
        },
      )
        .then(() => finish(input.setId, { status: 'completed', error: null }))
        .catch((error: unknown) => {
          const data = toAppErrorData(error);
          if (!(error instanceof AppError)) options.log.error('set review crashed', { setId: input.setId, error: String(error) });
          finish(input.setId, { status: data.code === 'REVIEW_CANCELLED' ? 'cancelled' : 'failed', error: data });
        })
        .finally(() => active.delete(input.setId));
      options.onStatus({ setId: input.setId, status: 'running', error: null });
      return { setId: input.setId, total };
    },
    cancel(setId: string): { cancelled: boolean } {
      const run = active.get(setId);
      run?.controller.abort();
      return { cancelled: run !== undefined };
    },
    /** The sets, newest first; a set whose files cannot be read (damaged set.json, status.json) is left out and logged once. */
    list(): { sets: SetSummary[] } {
      const ids = existsSync(options.setsDir) ? readdirSync(options.setsDir).filter((name) => existsSync(path.join(dirOf(name), 'set.json'))) : [];
      const sets = ids.flatMap((id) => {
        try {
          return [summary(requireSet(id))];
        } catch (error) {
          if (!unreadable.has(id)) options.log.warn('drawing set left out of the list: its files cannot be read', { setId: id, error: String(error) });
          unreadable.add(id);
          return [];
        }
      });
      return { sets: sets.sort((a, b) => b.createdAt.localeCompare(a.createdAt)).slice(0, 50) };
    },
    /** Errors: REVIEW_SET_NOT_FOUND. */
    detail(setId: string): z.input<typeof setDetailViewSchema> {
      const record = requireSet(setId);
      const reportFile = path.join(outDir(setId), SET_REPORT_JSON);
      const set = summary(record);
      const report = set.status === 'completed' && existsSync(reportFile) ? JSON.parse(readFileSync(reportFile, 'utf8')) : null;
      return { set, files: fileViews(setId), report };
    },
    /** Errors: REVIEW_SET_NOT_FOUND, REVIEW_FILE_NOT_FOUND, REVIEW_DOWNLOAD_TOO_LARGE. */
    download(input: Input<'reviewSetDownload'>): { fileName: string; mimeType: string; dataBase64: string } {
      const record = requireSet(input.setId);
      const file = path.join(outDir(input.setId), input.kind === 'json' ? SET_REPORT_JSON : SET_REPORT_MARKDOWN);
      if (!existsSync(file)) throw new AppError('REVIEW_FILE_NOT_FOUND', 'This drawing set has no report yet.', { data: { setId: input.setId, kind: input.kind } });
      const bytes = statSync(file).size;
      if (bytes > MAX_DXF_UPLOAD_BYTES) throw new AppError('REVIEW_DOWNLOAD_TOO_LARGE', `The set report is ${(bytes / 1048576).toFixed(1)} MB; open it from ${file}.`, { data: { bytes, limit: MAX_DXF_UPLOAD_BYTES } });
      const stem = record.name.replace(/[^\p{L}\p{N}._-]+/gu, '_').slice(0, 80) || 'drawing-set';
      return { fileName: `${stem}.${input.kind === 'json' ? 'set-report.json' : 'set-report.md'}`, mimeType: REPORT_MEDIA[input.kind], dataBase64: readFileSync(file).toString('base64') };
    },
    /** The report folder of a run that reviewed a set file, or null for an ordinary run. */
    runFolder(runId: string): string | null {
      return loadRunFolders().get(runId) ?? null;
    },
    /** Cancels running sets (app shutdown). */
    close() {
      for (const run of active.values()) run.controller.abort();
    },
  };
}

export type SetManager = ReturnType<typeof createSetManager>;

/** `name`, or `<stem>-2<ext>`, `-3`, ... : the first not in `taken` (compared without case, as Windows and macOS do). */
function uniqueName(name: string, taken: readonly string[]): string {
  const used = new Set(taken.map((file) => file.toLowerCase()));
  const ext = path.extname(name);
  const stem = name.slice(0, name.length - ext.length);
  let candidate = name;
  for (let n = 2; used.has(candidate.toLowerCase()); n += 1) candidate = `${stem}-${n}${ext}`;
  return candidate;
}
