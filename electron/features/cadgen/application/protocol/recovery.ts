import { isTerminal } from '../../domain/protocol/states';
import type { GenerationDeps } from './deps';
import { dispatchOutbox } from './outbox';

export interface RecoveryReport {
  removed: { task_id: string; entries: string[] }[];
  corrupt: { task_id: string; revision_id: string }[];
  /** Tasks left in an active state by a crash; `resume` continues them from their records. */
  interrupted: string[];
}

/**
 * Start-up recovery (seed §6.2): re-appends committed ledger rows and re-dispatches the outbox,
 * removes staging folders and revision folders no row references (a candidate still building
 * or built keeps its folder), and verifies every published revision against its manifest.
 */
export async function recoverGeneration(deps: GenerationDeps): Promise<RecoveryReport> {
  const report: RecoveryReport = { removed: [], corrupt: [], interrupted: [] };
  await dispatchOutbox(deps);
  for (const task of deps.repo.list()) {
    const snapshot = deps.repo.load(task.task_id);
    const referenced = new Set([...snapshot.revisions.map((r) => r.revision_id), ...snapshot.candidates.filter((c) => c.status === 'built' || c.status === 'building').map((c) => c.revision_id)]);
    const entries = await deps.artifacts.sweep(task.task_id, referenced);
    if (entries.length > 0) report.removed.push({ task_id: task.task_id, entries });
    for (const revision of snapshot.revisions) {
      if (!(await deps.artifacts.verifyRevision(task.task_id, revision.revision_id))) report.corrupt.push({ task_id: task.task_id, revision_id: revision.revision_id });
    }
    if (!isTerminal(task.state) && task.state !== 'WAITING_RETRY' && task.state !== 'WAITING_FOR_USER') report.interrupted.push(task.task_id);
  }
  return report;
}
