import path from 'node:path';
import { openDxfBackend, type SavePolicy } from '../../features/cadlink/index';
import { createFolderOutput, startReview, type Checklist, type DrawingSource, type DrawingWriteTarget, type ReviewLocale, type ReviewRunnerDeps, type ReviewRunResult } from '../../features/review/index';
import type { SetFileResult } from './reviewSet';
import { DXF_CAPABILITIES, readOnlyProviderSource } from './reviewSources';

/**
 * A DXF file served in-process by the embedded backend: the read-only source the review reads
 * through, and the write target the annotation writer uses after approval (same session, so
 * written leaders are visible to later reads and save_drawing writes them to a new file).
 */
export async function openDxfReviewEndpoints(file: string, save?: SavePolicy): Promise<{ source: DrawingSource; target: DrawingWriteTarget }> {
  const provider = await openDxfBackend(file, save ? { save } : {});
  const label = path.basename(file);
  return {
    source: readOnlyProviderSource(label, provider, DXF_CAPABILITIES),
    target: { label, capabilityTools: DXF_CAPABILITIES, callTool: (name, args) => provider.callTool(name, args) },
  };
}

/**
 * Exit codes of `cadsight review` (README "Exit codes"). The rules-only code is a floor: a check
 * that did not run never lowers it, and has codes of its own.
 */
export const REVIEW_EXIT = {
  /** Every check ran; no blocking finding. */
  clean: 0,
  /** Every check ran; at least one blocking finding. */
  blocking: 1,
  /** The review did not complete: bad arguments, unreadable drawing, refused model, cancelled. */
  error: 2,
  /** Completed with errors (the AI step failed on some frame, or a frame could not be read); no blocking finding. */
  incomplete: 3,
  /** Completed with errors and at least one blocking finding. */
  incompleteBlocking: 4,
} as const;

/** The exit code of a finished run (see REVIEW_EXIT). */
export function reviewExitCode(result: ReviewRunResult): number {
  if (result.status !== 'completed' && result.status !== 'completed_with_errors') return REVIEW_EXIT.error;
  const blocking = result.report?.summary.hasBlocking ?? false;
  if (result.status === 'completed_with_errors') return blocking ? REVIEW_EXIT.incompleteBlocking : REVIEW_EXIT.incomplete;
  return blocking ? REVIEW_EXIT.blocking : REVIEW_EXIT.clean;
}

export interface SetFileReviewOptions {
  checklist: Checklist;
  locale: ReviewLocale;
  /** Frames of one file reviewed in parallel. */
  concurrency: number;
  signal?: AbortSignal;
}

/**
 * The set engine's `reviewFile` over the embedded DXF backend, as the CLI, the app and the bench
 * use it: the drawing is opened for this file only and nothing of it outlives the call (the
 * report is on disk in `outDir`, the run in `deps.store`).
 */
export function dxfSetFileReviewer(deps: ReviewRunnerDeps, options: SetFileReviewOptions): (file: string, outDir: string) => Promise<SetFileResult> {
  return async (file, outDir) => {
    const { source } = await openDxfReviewEndpoints(file);
    const session = { source, output: createFolderOutput(outDir), concurrency: options.concurrency, ...(options.signal ? { signal: options.signal } : {}) };
    const result = await startReview(deps, session, options.checklist, { llm: deps.llm !== undefined, locale: options.locale, frames: null });
    return { exitCode: reviewExitCode(result), findings: result.report?.summary.total ?? 0, runId: result.runId };
  };
}
