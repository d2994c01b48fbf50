import type { GenerationDeps } from './deps';

/**
 * Outbox dispatcher: appends committed ledger rows to each task's JSONL file (once per
 * sequence, acknowledged afterwards) and publishes committed events to the sink. Run after
 * every commit and at recovery; a crash between publish and acknowledgement re-sends (at least
 * once; consumers dedupe by seq).
 */
export async function dispatchOutbox(deps: GenerationDeps, taskId?: string): Promise<void> {
  const rows = deps.repo.unappendedLedger(taskId);
  const byTask = new Map<string, { sequence: number; line: string }[]>();
  for (const row of rows) byTask.set(row.task_id, [...(byTask.get(row.task_id) ?? []), row]);
  for (const [id, lines] of byTask) {
    deps.crashHook?.('ledger_append');
    await deps.artifacts.appendLedger(id, lines);
    deps.repo.markLedgerAppended(id, lines[lines.length - 1]?.sequence ?? 0);
  }
  for (;;) {
    const events = deps.repo.pendingOutbox(100);
    if (events.length === 0) return;
    for (const event of events) {
      deps.crashHook?.('outbox_dispatch', String(event.seq));
      deps.sink?.(event);
      deps.repo.markOutboxDispatched(event.seq);
    }
  }
}
