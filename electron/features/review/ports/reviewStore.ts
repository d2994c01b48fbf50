import type { AppErrorData } from '../../../../shared/errors';
import type { Annotation } from '../domain/annotation';
import type { Checklist } from '../domain/checklist';
import type { EvidenceSummary, ScreenshotRef } from '../domain/evidence';
import type { Finding } from '../domain/finding';
import type { Frame } from '../domain/frame';
import type { ReviewReport } from '../domain/report';
import type { ReviewLocale } from '../domain/rules';

/**
 * `completed_with_errors`: every frame was reviewed by the rules, but some check did not run
 * (a frame's AI step or evidence failed); the run's error says which.
 */
export type RunStatus = 'running' | 'cancelled' | 'failed' | 'completed' | 'completed_with_errors';
/**
 * `llm_failed`: the frame's rule findings are stored, its AI step failed (the frame's error is
 * the typed LLM error). `failed`: the frame's evidence could not be read (no findings).
 */
export type FrameStatus = 'pending' | 'done' | 'llm_failed' | 'failed';

export interface RunOptions {
  llm: boolean;
  locale: ReviewLocale;
  /** Frame ids the user asked for (null = all). */
  frames: string[] | null;
  /** The reviewer model and its per-frame budgets (LLM runs; set by the runner). */
  reviewer?: ReviewerRecord;
}

export interface ReviewerRecord {
  model: string;
  maxToolCallsPerFrame: number;
  maxReasks: number;
}

/** Usage totals of a run (tool calls now; LLM tokens/bytes/latency when the model is on). */
export interface RunUsage {
  toolCalls: number;
  toolResultBytes: number;
  llmCalls: number;
  promptTokens: number;
  completionTokens: number;
  contextBytes: number;
  llmLatencyMs: number;
}

export interface RunRecord {
  id: string;
  source: string;
  fingerprint: string;
  checklist: Checklist;
  checklistHash: string;
  options: RunOptions;
  /** Capabilities the backend lacked (their checklist items are reported as not evaluated). */
  missingCapabilities: string[];
  status: RunStatus;
  error: AppErrorData | null;
  usage: RunUsage;
  createdAt: string;
  updatedAt: string;
}

export interface FrameRecord {
  frame: Frame;
  index: number;
  status: FrameStatus;
  evidence: EvidenceSummary | null;
  screenshots: ScreenshotRef[];
  error: AppErrorData | null;
}

/** What the writer logged for a finding written to the drawing. */
export interface WriteRecord {
  findingId: string;
  runId: string;
  payloadHash: string;
  writtenAt: string;
}

/**
 * Persistence of review runs (SQLite in the app). All methods are synchronous, short IMMEDIATE
 * transactions. Errors: STORE_BUSY (retryable), REVIEW_RUN_NOT_FOUND.
 */
export interface ReviewStore {
  /** Creates a run with its planned frames (all pending) and its drawing-level findings. */
  createRun(run: Omit<RunRecord, 'updatedAt' | 'error' | 'usage'>, frames: Frame[], drawingFindings: Finding[]): void;
  getRun(runId: string): RunRecord | undefined;
  /** Newest first. */
  listRuns(limit: number): RunRecord[];
  /**
   * `completed_with_errors` needs the error that made the run partial
   * (REVIEW_STATUS_NEEDS_ERROR otherwise); `completed` clears any error.
   */
  setRunStatus(runId: string, status: RunStatus, error: AppErrorData | null, now: string): void;
  addUsage(runId: string, usage: Partial<RunUsage>): void;
  listFrames(runId: string): FrameRecord[];
  /**
   * Atomically stores a frame's evidence summary, screenshots and findings and marks it done, or
   * `llm_failed` with `llmError` when the rules ran but the AI step failed.
   */
  completeFrame(runId: string, frameId: string, result: { evidence: EvidenceSummary; screenshots: ScreenshotRef[]; findings: Finding[]; llmError?: AppErrorData }): void;
  failFrame(runId: string, frameId: string, error: AppErrorData): void;
  /** Findings of a run (frame and drawing level), in insertion order. */
  listFindings(runId: string): Finding[];
  /** A finding by id (the newest run's copy), or undefined. */
  getFinding(findingId: string): Finding | undefined;
  /** Drops the hypothesis mark of a finding in every run that has it (the user confirmed it). */
  promoteFinding(findingId: string): void;
  saveReport(runId: string, report: ReviewReport): void;
  getReport(runId: string): ReviewReport | undefined;
  /** Inserts proposals for findings that have no annotation yet (existing decisions are kept). */
  proposeAnnotations(annotations: Annotation[]): void;
  getAnnotation(findingId: string): Annotation | undefined;
  listAnnotations(findingIds: readonly string[]): Annotation[];
  saveAnnotation(annotation: Annotation): void;
  /**
   * Logs a write and marks the annotation written, once per finding: false when the finding
   * was already logged (the caller must not write it again).
   */
  recordWrite(record: WriteRecord, annotation: Annotation): boolean;
  getWrite(findingId: string): WriteRecord | undefined;
}
