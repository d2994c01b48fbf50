import type { ArtifactEncoders, ArtifactPublisher } from '../../ports/artifactPublisher';
import type { CadRuntime } from '../../ports/cadRuntime';
import type { CdslCatalog } from '../cdslCatalog';
import type { Clock, EventSink, ModelPort, TaskArtifacts, TaskRepository } from './ports';

/** Points where a crash-recovery test may kill the process (no-op in production). */
export type CrashPoint = 'candidate_build' | 'artifact_publish' | 'sqlite_commit' | 'outbox_dispatch' | 'ledger_append';

/** Everything the generation use cases need, injected by a composition root. */
export interface GenerationDeps {
  repo: TaskRepository;
  artifacts: TaskArtifacts;
  catalog: CdslCatalog;
  runtime: CadRuntime;
  publisher: ArtifactPublisher;
  encoders: ArtifactEncoders;
  author: ModelPort;
  reviewer: ModelPort;
  clock: Clock;
  newId: (prefix: string) => string;
  sha256: (text: string) => string;
  sink?: EventSink;
  /** Called at each crash point; tests use it to SIGKILL themselves. */
  crashHook?: (point: CrashPoint) => void;
}
