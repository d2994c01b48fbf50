import { mkdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { AppError } from '../../../shared/errors';
import { resolveRoleModel } from '../composition/modelResolution';
import { connectTcpSocket, createCadClient, createSystemClock, createToolPolicy, withCadToken } from '../../features/cadlink/index';
import {
  createFolderOutput,
  createSqliteReviewStore,
  newMeter,
  planReview,
  resumeReview,
  startReview,
  writeAllFindings,
  type DrawingSource,
  type DrawingWriteTarget,
  type ReviewStore,
  type WriteOutcome,
  type ReviewLocale,
  type ReviewPlan,
  type ReviewRunResult,
} from '../../features/review/index';
import { createLlmGateway } from '../../platform/llm/index';
import type { Logger } from '../../platform/log/types';
import type { SettingsService } from '../../platform/settings/settingsService';
import { createPlatformRuntime } from '../composition/platformRuntime';
import { findBundledResource } from '../composition/bundledResources';
import { loadChecklistFile } from '../composition/reviewRuns';
import { runReviewSet, setProgressLine } from '../composition/reviewSet';
import { dxfSetFileReviewer, openDxfReviewEndpoints, reviewExitCode } from '../composition/reviewFiles';

export { openDxfReviewEndpoints, REVIEW_EXIT, reviewExitCode } from '../composition/reviewFiles';
import { AUTOCAD_CAPABILITIES, clientDrawingPort } from '../composition/reviewSources';

const DEFAULT_CHECKLIST = 'resources/checklist/review_checklist.json';
import packageJson from '../../../package.json';

/** Parsed `cadsight review` options. */
export interface ReviewCliOptions {
  file: string | null;
  cad: { host: string; port: number } | null;
  checklist: string | null;
  out: string | null;
  frames: string[] | null;
  planOnly: boolean;
  listTools: boolean;
  json: boolean;
  resume: string | null;
  concurrency: number;
  /** Files of a drawing-set folder reviewed at the same time. */
  jobs: number;
  lang: ReviewLocale;
  /** Rules only even when a reviewer model is configured. */
  noLlm: boolean;
  /** Write every non-hypothesis finding's note into `<out>/<name>.ai-review.dxf` after the review. */
  annotate: boolean;
}

export const REVIEW_USAGE =
  'usage: cadsight review <file.dxf> | <folder> [--jobs N] | --cad <host:port> [--checklist <path>] [--out <dir>] [--no-llm] [--frames <id,id>] [--plan-only] [--list-tools] [--json] [--resume <runId>] [--concurrency N] [--lang zh-CN|en] [--annotate]';

const bad = (message: string): AppError => new AppError('REVIEW_BAD_ARGUMENTS', `${message}\n${REVIEW_USAGE}`);

/** Parses the arguments after `review`. Errors: REVIEW_BAD_ARGUMENTS (with the usage line). */
export function parseReviewArgs(args: readonly string[]): ReviewCliOptions {
  const options: ReviewCliOptions = { file: null, cad: null, checklist: null, out: null, frames: null, planOnly: false, listTools: false, json: false, resume: null, concurrency: 4, jobs: 2, lang: 'zh-CN', noLlm: false, annotate: false };
  const value = (i: number, flag: string): string => {
    const v = args[i];
    if (v === undefined || v.startsWith('--')) throw bad(`${flag} needs a value`);
    return v;
  };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--cad') {
      const match = /^(.+):(\d{1,5})$/.exec(value(++i, arg));
      const port = Number(match?.[2]);
      if (!match || port < 1 || port > 65535) throw bad(`--cad needs host:port, got "${args[i]}"`);
      options.cad = { host: match[1]!, port };
    } else if (arg === '--checklist') options.checklist = value(++i, arg);
    else if (arg === '--out') options.out = value(++i, arg);
    else if (arg === '--frames') options.frames = value(++i, arg).split(',').map((s) => s.trim()).filter(Boolean);
    else if (arg === '--resume') options.resume = value(++i, arg);
    else if (arg === '--concurrency') {
      options.concurrency = Number(value(++i, arg));
      if (!Number.isInteger(options.concurrency) || options.concurrency < 1 || options.concurrency > 16) throw bad('--concurrency needs an integer 1..16');
    } else if (arg === '--jobs') {
      options.jobs = Number(value(++i, arg));
      if (!Number.isInteger(options.jobs) || options.jobs < 1 || options.jobs > 8) throw bad('--jobs needs an integer 1..8');
    } else if (arg === '--lang') {
      const lang = value(++i, arg);
      if (lang !== 'zh-CN' && lang !== 'en') throw bad('--lang is zh-CN or en');
      options.lang = lang;
    } else if (arg === '--no-llm') options.noLlm = true;
    else if (arg === '--annotate') options.annotate = true;
    else if (arg === '--plan-only') options.planOnly = true;
    else if (arg === '--list-tools') options.listTools = true;
    else if (arg === '--json') options.json = true;
    else if (!arg.startsWith('--') && options.file === null) options.file = arg;
    else throw bad(`unexpected argument "${arg}"`);
  }
  if ((options.file === null) === (options.cad === null)) throw bad('give exactly one drawing: a DXF file or --cad host:port');
  if (options.frames?.length === 0) throw bad('--frames needs at least one frame id');
  if (options.annotate && options.cad) throw bad('--annotate writes a DXF copy of a file; notes for a live AutoCAD are approved and written in the app');
  return options;
}

function loadChecklist(file: string | null) {
  const target = file ?? findBundledResource(import.meta.url, DEFAULT_CHECKLIST);
  if (target === null) throw new AppError('REVIEW_CHECKLIST_INVALID', `The default checklist ${DEFAULT_CHECKLIST} is missing from this installation.`);
  // The CLI user's own argument: any folder, still a regular file under the size cap.
  return loadChecklistFile(target, null);
}

async function openSource(options: ReviewCliOptions, outDir: string): Promise<{ source: DrawingSource; target?: DrawingWriteTarget; close: () => void }> {
  if (options.file !== null) {
    // --annotate saves its copy into the report folder (overwriting an earlier copy there).
    const endpoints = await openDxfReviewEndpoints(options.file, options.annotate ? { outputDir: outDir, allowOverwrite: true } : undefined);
    return { ...endpoints, close: () => undefined };
  }
  const { host, port } = options.cad!;
  const client = createCadClient({ host, port, socketFactory: withCadToken(connectTcpSocket, process.env.CADSIGHT_CAD_TOKEN?.trim() || undefined), clock: createSystemClock(), random: Math.random, policy: createToolPolicy({ mode: 'read-only' }) });
  return { source: clientDrawingPort(`${host}:${port}`, client, AUTOCAD_CAPABILITIES), close: () => client.close() };
}

const print = (text: string): boolean => process.stdout.write(`${text}\n`);

/** Per-frame budgets of the LLM sub-loop (tool calls before it must submit; correction rounds). */
const LLM_TOOL_CALLS_PER_FRAME = 8;
const LLM_REASKS = 2;

/**
 * The reviewer model from settings/env, or undefined (rules only) when the user said --no-llm or
 * no reviewer model is configured — a new user without a key still gets a real review.
 */
function reviewerModel(settings: SettingsService, noLlm: boolean, log: Logger) {
  if (noLlm) return undefined;
  let provider;
  try {
    // Same resolution as `cadsight gen`: settings role, else DEFAULT_PROVIDER / <ID>_* / CHAT_* env.
    provider = resolveRoleModel(settings, process.env, 'reviewer');
  } catch (error) {
    if (error instanceof AppError && error.code === 'LLM_NOT_CONFIGURED') {
      process.stderr.write(`review: rules only (${error.message})\n`);
      return undefined;
    }
    throw error;
  }
  const gateway = createLlmGateway({ provider, retry: { maxAttempts: 3, baseDelayMs: 500, maxDelayMs: 8_000, totalBudgetMs: 120_000 }, log });
  return { gateway, model: `${provider.id}/${provider.model}`, maxToolCalls: LLM_TOOL_CALLS_PER_FRAME, maxReasks: LLM_REASKS };
}

function printPlan(plan: ReviewPlan, json: boolean): void {
  if (json) {
    print(JSON.stringify(plan, null, 2));
    return;
  }
  print(`Drawing: ${plan.source}`);
  print(`Tools: ${plan.tools.length}; missing capabilities: ${plan.missing.join(', ') || 'none'}`);
  print(`Frames: ${plan.frames.length} of ${plan.framesFound}`);
  for (const f of plan.frames) print(`  ${f.id.padEnd(10)} ${(f.sheetName ?? '-').padEnd(5)} ${f.label}`);
}

/** What --annotate wrote: the copy's path (null when nothing was to be written) and the notes that failed. */
interface AnnotatedCopy {
  path: string | null;
  written: number;
  failed: WriteOutcome['failed'];
}

/**
 * --annotate: every non-hypothesis finding's note written by the app's writer into a fresh copy,
 * `<out>/<name>.ai-review.dxf`. Errors: CAD_DXF_WRITE_DAMAGED and the writer's (REVIEW_WRITE_*).
 */
async function annotateCopy(store: ReviewStore, source: DrawingSource, target: DrawingWriteTarget, runId: string, outDir: string, file: string): Promise<AnnotatedCopy> {
  const savePath = path.join(outDir, `${path.parse(file).name}.ai-review.dxf`);
  const outcome = await writeAllFindings(store, source, target, runId, () => new Date(), savePath);
  for (const failure of outcome.failed) process.stderr.write(`review: note ${failure.findingId.slice(0, 8)} not written: [${failure.error.code}] ${failure.error.message}\n`);
  return { path: outcome.saved ? savePath : null, written: outcome.written.length, failed: outcome.failed };
}

function printResult(result: ReviewRunResult, outDir: string, json: boolean, annotated?: AnnotatedCopy): void {
  const summary = result.report?.summary;
  if (json) {
    print(JSON.stringify({ runId: result.runId, status: result.status, exitCode: reviewExitCode(result), out: outDir, summary: summary ?? null, notEvaluated: result.report?.notEvaluated ?? [], findings: result.report?.findings ?? [], ...(annotated ? { annotated } : {}) }, null, 2));
    return;
  }
  print(`Run ${result.runId}: ${result.status}`);
  if (!summary) {
    print(`Resume with: cadsight review <same drawing> --resume ${result.runId}`);
    return;
  }
  const s = summary.bySeverity;
  print(`Findings: ${summary.total} (blocking ${s.blocking}, major ${s.major}, minor ${s.minor}, info ${s.info}); frames ${summary.frames}, failed ${summary.failedFrames}, AI step failed ${summary.llmFailedFrames}`);
  for (const item of result.report?.notEvaluated ?? []) if (item.frameIds) print(`Not run: ${item.checklistItemId} on ${item.frameIds.join(', ')} — ${item.reason}`);
  print(`Report: ${path.join(outDir, 'report.md')}`);
  if (annotated) print(annotated.path ? `Notes: ${annotated.written} written to ${annotated.path}${annotated.failed.length ? ` (${annotated.failed.length} failed)` : ''}` : 'Notes: nothing to write');
}

/**
 * `cadsight review <folder>`: every DXF of the folder reviewed as a set (runReviewSet), rules
 * always and the LLM items when a reviewer model is configured; exit code of the worst file.
 */
async function reviewFolder(options: ReviewCliOptions, checklist: ReturnType<typeof loadChecklist>): Promise<number> {
  if (options.frames || options.resume || options.planOnly || options.listTools) throw bad('a folder is reviewed as a set: --frames, --resume, --plan-only and --list-tools take one drawing (a set resumes by itself)');
  const folder = path.resolve(options.file!);
  const out = path.resolve(options.out ?? `cadsight-review-${path.basename(folder)}`);
  const runtime = createPlatformRuntime({ env: process.env, systemLocale: Intl.DateTimeFormat().resolvedOptions().locale, logName: 'cli.log' });
  const controller = new AbortController();
  const onSigint = (): void => controller.abort();
  process.once('SIGINT', onSigint);
  try {
    const llm = reviewerModel(runtime.settings, options.noLlm, runtime.log);
    const store = createSqliteReviewStore(runtime.db, () => new Date());
    const deps = { store, now: () => new Date(), newRunId: () => `review-${crypto.randomUUID()}`, generatorVersion: packageJson.version, ...(llm ? { llm } : {}) };
    const report = await runReviewSet(
      { folder, out, jobs: options.jobs, locale: options.lang },
      {
        now: () => new Date(),
        onProgress: (event) => {
          const line = setProgressLine(event);
          if (line) process.stderr.write(`${line}\n`);
        },
        signal: controller.signal,
        reviewFile: dxfSetFileReviewer(deps, { checklist, locale: options.lang, concurrency: options.concurrency, signal: controller.signal }),
      },
    );
    if (options.json) print(JSON.stringify(report, null, 2));
    else {
      print(`Set ${folder}: ${report.files.length} files, ${report.sheets.length} sheets, ${report.findings.length} findings, ${report.crossSheet.length} cross-sheet; exit ${report.exitCode}`);
      print(`Report: ${path.join(out, 'set-report.md')}`);
    }
    return report.exitCode;
  } finally {
    process.off('SIGINT', onSigint);
    runtime.close();
  }
}

/**
 * `cadsight review`: checklist review of a DXF file (embedded backend, in-process) or a live
 * AutoCAD plugin; rule items always, LLM items when a reviewer model is configured (not --no-llm).
 * Exit codes: REVIEW_EXIT. Shaped as registry.ts's CliCommand (not imported: registry.ts imports
 * this module).
 */
export const reviewCommand = {
  name: 'review',
  summary: 'review a drawing against the checklist and write a JSON + Markdown report',
  async run(args: string[]): Promise<number> {
    const options = parseReviewArgs(args);
    const checklist = loadChecklist(options.checklist);
    if (options.file !== null && statSync(options.file, { throwIfNoEntry: false })?.isDirectory()) return reviewFolder(options, checklist);
    const outDir = path.resolve(options.out ?? `cadsight-review-${path.parse(options.file ?? `${options.cad!.host}_${options.cad!.port}`).name}`);
    if (options.annotate) mkdirSync(outDir, { recursive: true });
    const { source, target, close } = await openSource(options, outDir);
    try {
      if (options.listTools) {
        const tools = await source.listTools();
        print(options.json ? JSON.stringify(tools, null, 2) : tools.map((t) => `${t.name.padEnd(26)} ${t.description ?? ''}`).join('\n'));
        return 0;
      }
      if (options.planOnly) {
        printPlan(await planReview(source, newMeter(), options.frames), options.json);
        return 0;
      }
      const runtime = createPlatformRuntime({ env: process.env, systemLocale: Intl.DateTimeFormat().resolvedOptions().locale, logName: 'cli.log' });
      const controller = new AbortController();
      const onSigint = (): void => controller.abort();
      process.once('SIGINT', onSigint);
      try {
        const deps = {
          store: createSqliteReviewStore(runtime.db, () => new Date()),
          now: () => new Date(),
          newRunId: () => `review-${crypto.randomUUID()}`,
          generatorVersion: packageJson.version,
          onProgress: (e: { phase: string; done: number; total: number; message?: string }) => process.stderr.write(`[${e.phase} ${e.done}/${e.total}]${e.message ? ` ${e.message}` : ''}\n`),
        };
        const llm = reviewerModel(runtime.settings, options.noLlm, runtime.log);
        const session = { source, output: createFolderOutput(outDir), concurrency: options.concurrency, signal: controller.signal };
        const withLlm = llm ? { ...deps, llm } : deps;
        const result = options.resume
          ? await resumeReview(withLlm, session, options.resume)
          : await startReview(withLlm, session, checklist, { llm: llm !== undefined, locale: options.lang, frames: options.frames });
        const annotated = options.annotate && target && result.report ? await annotateCopy(deps.store, source, target, result.runId, outDir, options.file!) : undefined;
        printResult(result, outDir, options.json, annotated);
        return reviewExitCode(result);
      } finally {
        process.off('SIGINT', onSigint);
        runtime.close();
      }
    } finally {
      close();
    }
  },
};
