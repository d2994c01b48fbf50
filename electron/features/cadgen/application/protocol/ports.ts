import type { AppErrorData } from '../../../../../shared/errors';
import type { LlmToolDefinition, LlmUsage } from '../../../../platform/llm/types';
import type { ClaimResult } from '../evaluateClaims';
import type { DraftItem, Observation, PendingAction, RequirementsContract, SourceEntry, TaskRecord } from '../../domain/protocol/task';

/** A ledger event (cad.action-ledger.v1) before the store assigns its sequence. */
export interface LedgerEvent {
  event: 'proposed' | 'rejected' | 'candidate_built' | 'candidate_failed' | 'accepted' | 'review_rejected' | 'rolled_back' | 'completed' | 'final_rejected' | 'failed' | 'waiting' | 'budget_raised';
  action_id?: string;
  [field: string]: unknown;
}

export interface CandidateRow {
  candidate_id: string;
  action_id: string;
  idempotency_key: string;
  base_head: string;
  fragment_sha256: string;
  snapshot_id: string | null;
  status: 'building' | 'built' | 'build_failed' | 'accepted' | 'rejected';
  document_json: string;
  revision_id: string;
  report_json: string | null;
}

export interface RevisionRow {
  revision_id: string;
  parent_revision: string | null;
  action_id: string;
  candidate_id: string;
  document_json: string;
  snapshot_id: string;
  dir: string;
  manifest_json: string;
}

export interface InvocationRow {
  invocation_id: string;
  tool: string;
  role: 'author' | 'reviewer';
  idempotency_key: string | null;
  raw_sha256: string;
  /** Redacted, bounded copy of the raw arguments (argumentRecord); null on rows written before it was kept. */
  raw_redacted: string | null;
  /** Field-level errors of a refused output ({path, message}, bounded); null when there were none. */
  field_errors: { path: string; message: string }[] | null;
  status: 'processing' | 'accepted' | 'rejected' | 'waiting' | 'failed_internal';
  result_json: string | null;
  state_version: number;
}

/** One audit row as `gen ledger --all` shows it. */
export interface InvocationAudit {
  at: string;
  role: string;
  tool: string;
  status: string;
  code: string | null;
  raw_sha256: string;
  raw_redacted: string | null;
  field_errors: { path: string; message: string }[] | null;
}

export interface UsageRow {
  role: 'author' | 'reviewer';
  tool: string;
  usage: LlmUsage;
  /**
   * The model call this row charges: a row with the id of a `started` row reconciles it (the
   * estimate becomes the call's own usage). Absent on rows written in one step.
   */
  call_id?: string;
  /** started: charged when the request went out; interrupted: a crash or stop cut it off. */
  status?: 'started' | 'completed' | 'failed' | 'interrupted';
}

/**
 * One atomic change of a task (Unit of Work). Everything in it is committed in one SQLite
 * transaction guarded by compare-and-swap on the task's state version.
 */
export interface TaskChange {
  task?: Partial<Omit<TaskRecord, 'task_id' | 'state_version' | 'created_at'>>;
  sources?: SourceEntry[];
  drafts?: DraftItem[];
  removeDrafts?: string[];
  review?: { kind: 'requirements' | 'candidate' | 'final'; target: string; verdict: string; body: unknown };
  contract?: { contract: RequirementsContract; hash: string };
  pending?: PendingAction | null;
  observation?: Observation | null;
  invocation?: InvocationRow;
  candidate?: CandidateRow;
  revision?: RevisionRow;
  claimResults?: { revision_id: string; results: ClaimResult[] };
  usage?: UsageRow[];
  ledger?: LedgerEvent[];
  outbox?: { type: string; payload: Record<string, unknown> }[];
}

/** Everything a handler reads about one task (an immutable snapshot of the rows). */
export interface TaskSnapshot {
  task: TaskRecord;
  sources: SourceEntry[];
  drafts: DraftItem[];
  contract: { contract: RequirementsContract; hash: string } | null;
  pending: PendingAction | null;
  observation: Observation | null;
  revisions: RevisionRow[];
  candidates: CandidateRow[];
  claimResults: Map<string, ClaimResult[]>;
  invocationCount: number;
}

/**
 * The authority of task state (SQLite). Errors: CDSL_STALE_WORKING_HEAD when `expectedVersion`
 * is not the stored version (another writer won the compare-and-swap), CDSL_TASK_NOT_FOUND,
 * CDSL_STORAGE_FAILURE (retryable) for database faults.
 */
export interface TaskRepository {
  create(task: TaskRecord, sources: SourceEntry[], outbox: { type: string; payload: Record<string, unknown> }): void;
  load(taskId: string): TaskSnapshot;
  /** Applies `change` if the stored version is `expectedVersion`; returns the new version. */
  commit(taskId: string, expectedVersion: number, change: TaskChange): number;
  list(): TaskRecord[];
  invocationByKey(taskId: string, key: string): InvocationRow | undefined;
  candidateByKey(taskId: string, key: string): CandidateRow | undefined;
  /** Ledger rows committed but not yet appended to the task's JSONL file. */
  unappendedLedger(taskId?: string): { task_id: string; sequence: number; line: string }[];
  markLedgerAppended(taskId: string, upToSequence: number): void;
  ledger(taskId: string): Record<string, unknown>[];
  pendingOutbox(limit: number): { seq: number; task_id: string; type: string; payload: Record<string, unknown> }[];
  markOutboxDispatched(seq: number): void;
  usage(taskId: string): (UsageRow & { at: string })[];
  /**
   * Charges a model call as it starts, outside the step's compare-and-swap (the state version
   * is left alone, so the step the call belongs to still commits): writes `row` as `started` and
   * sets the task's usage to `charged`, in one transaction, while the task is at `expectedVersion`.
   * The step's own commit later reconciles the row by its call_id. Errors: CDSL_STALE_WORKING_HEAD, CDSL_STORAGE_FAILURE.
   */
  chargeCallStarted(taskId: string, expectedVersion: number, row: UsageRow & { call_id: string }, charged: TaskRecord['usage']): void;
  /** Marks calls still `started` as `interrupted` (the next driver, after a crash or stop); returns how many. */
  settleStartedCalls(taskId: string): number;
  /** Audit rows of every model output: tool, status and the typed error code of rejections. */
  invocations(taskId: string): InvocationAudit[];
  /**
   * Takes (or renews) the task's driver lease for `owner` until now + ttlMs. Returns null when
   * taken, or the current holder when another owner's lease has not expired yet. `replaceOwner`
   * names a holder known to be dead: its lease is taken over even before it expires.
   */
  acquireLease(taskId: string, owner: string, ttlMs: number, replaceOwner?: string): { owner: string; expires_at: number } | null;
  /** Gives the lease up (only the owner's own lease is removed). */
  releaseLease(taskId: string, owner: string): void;
  saveCapabilities(providerId: string, model: string, passed: boolean, report: unknown): void;
  capabilities(providerId: string, model: string): { passed: boolean; report: unknown; checked_at: string } | undefined;
}

/**
 * Immutable task-folder artifacts. Errors: CDSL_STORAGE_FAILURE (retryable) when the file system
 * refuses; an existing immutable file is never overwritten (same bytes → no-op, else error).
 */
export interface TaskArtifacts {
  taskDir(taskId: string): string;
  revisionDir(taskId: string, revisionId: string): string;
  writeOnce(taskId: string, relativePath: string, text: string): Promise<void>;
  /**
   * Writes a file that belongs to the step about to be committed (review records, the frozen
   * contract files). A file already at the path can only be left by an attempt of the same step
   * whose commit never happened (a crash, then a re-asked model answering differently): nothing
   * committed refers to it, so it is replaced atomically (temp file + rename). Errors: CDSL_STORAGE_FAILURE.
   */
  writeStep(taskId: string, relativePath: string, text: string): Promise<void>;
  /**
   * Reads a task file (null when absent). A file of a published revision folder that its
   * manifest.json lists is checked against the recorded sha256 on every read. Errors:
   * CDSL_ARTIFACT_CORRUPT (data.file names it), CDSL_STORAGE_FAILURE.
   */
  readText(taskId: string, relativePath: string): Promise<string | null>;
  /** Bytes of a task file, verified like readText. */
  readBytes(taskId: string, relativePath: string): Promise<Uint8Array | null>;
  /** Appends lines to actions/action-ledger.jsonl, skipping sequences already in the file. */
  appendLedger(taskId: string, lines: { sequence: number; line: string }[]): Promise<void>;
  /** Removes staging folders and revision folders not in `referenced`; returns what it removed. */
  sweep(taskId: string, referenced: ReadonlySet<string>): Promise<string[]>;
  /** Verifies a published revision against its manifest (sizes and sha256). */
  verifyRevision(taskId: string, revisionId: string): Promise<boolean>;
}

/**
 * How a model is asked for structured output (seed §6.5), each probed and recorded separately by
 * conformance: `strict` (provider-enforced schemas in the protocol's strict dialect), `tool`
 * (plain tool calling), `json` (the provider's JSON mode with a {tool, arguments} envelope).
 */
export type OutputMode = 'strict' | 'tool' | 'json';

/** Where a model's calls go; conformance results are keyed by it (plus the schema-set hash). */
export interface ModelEndpoint {
  protocol: string;
  baseUrl: string;
  model: string;
  /** The output modes this protocol can send, in order of preference. */
  modes: OutputMode[];
}

/** A model call as the coordinator needs it: one tool call among the exposed ones. */
export interface ModelTurn {
  /** Output mode of this call (conformance probes); default: the mode chosen by useMode. */
  mode?: OutputMode;
  system: string;
  user: string;
  /**
   * Offered tools. `canonicalParameters`: the full closed schema where `parameters` is the compact
   * offer (the claim oneOf); strict mode must send it, as a strict schema cannot leave `expected` open.
   */
  tools: (LlmToolDefinition & { canonicalParameters?: Record<string, unknown> })[];
  images?: { mimeType: string; data: Uint8Array }[];
  purpose: string;
  /** Cancels the call (LLM_ABORTED); the coordinator passes its run's stop signal. */
  signal?: AbortSignal;
}

export type ModelReply = { kind: 'call'; name: string; rawArguments: string; usage: LlmUsage } | { kind: 'no_call'; usage: LlmUsage; text: string };

/**
 * The author or reviewer model. Errors (thrown as AppError): LLM_TRANSPORT_UNAVAILABLE
 * (retryable, budget spent), other LLM_* for configuration or protocol failures.
 */
export interface ModelPort {
  readonly id: string;
  /** The endpoint behind the port (absent for in-process models, keyed by id alone). */
  readonly endpoint?: ModelEndpoint;
  turn(request: ModelTurn): Promise<ModelReply>;
  /**
   * Makes `mode` the mode of every later turn; set from a passed conformance record
   * (requireConformantModel). Until then a port uses plain tool calling.
   */
  useMode?(mode: OutputMode): void;
}

/** Publishes outbox events to subscribers (UI, CLI progress); at least once, idempotent by seq. */
export type EventSink = (event: { seq: number; task_id: string; type: string; payload: Record<string, unknown> }) => void;

export interface Clock {
  now(): Date;
}

export type ErrorData = AppErrorData;
