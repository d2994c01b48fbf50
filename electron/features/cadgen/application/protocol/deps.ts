import type { ArtifactEncoders, ArtifactPublisher, ReviewRenderEncoder } from '../../ports/artifactPublisher';
import type { CadRuntime } from '../../ports/cadRuntime';
import type { ArgumentRedactor } from '../../domain/protocol/argumentRecord';
import type { CdslCatalog } from '../cdslCatalog';
import type { Clock, EventSink, ModelPort, TaskArtifacts, TaskRepository } from './ports';

/**
 * Points where a crash-recovery test may kill the process (no-op in production):
 * before a candidate build, inside the publisher with the staging folder written but not yet
 * renamed (`artifact_stage`, wired by the composition root), after the publish and before the
 * commit, before every SQLite commit, before a ledger append and before an outbox dispatch, and
 * with a model call under way (`model_call`: charged as started, its answer not yet read).
 */
export type CrashPoint = 'candidate_build' | 'artifact_stage' | 'artifact_publish' | 'sqlite_commit' | 'outbox_dispatch' | 'ledger_append' | 'model_call';

/** Everything the generation use cases need, injected by a composition root. */
export interface GenerationDeps {
  repo: TaskRepository;
  artifacts: TaskArtifacts;
  catalog: CdslCatalog;
  runtime: CadRuntime;
  publisher: ArtifactPublisher;
  /** Build artifacts, and the reviewer's compact renders (see reviewRenders). */
  encoders: ArtifactEncoders & ReviewRenderEncoder;
  author: ModelPort;
  reviewer: ModelPort;
  clock: Clock;
  newId: (prefix: string) => string;
  sha256: (text: string) => string;
  /** Redacts credentials from the audit's copy of raw model arguments (the app's redactor knows the keys in use). */
  redactor: ArgumentRedactor;
  sink?: EventSink;
  /**
   * Who drives a task from this process (issue 24's lease). `newOwner` names a lease holder;
   * `isGone` says whether a holder's process is known to be dead (same machine, no such process),
   * so its lease is taken over at once instead of after its expiry. Without it a crashed driver's
   * lease is free only when it expires.
   */
  driver?: { newOwner: () => string; isGone: (owner: string) => boolean };
  /** Called at each crash point (detail: the candidate or outbox seq concerned); tests use it to SIGKILL themselves. */
  crashHook?: (point: CrashPoint, detail?: string) => void;
}
