import { generationEvents, genTaskDetailSchema, type GenTaskDetail } from '../../../../shared/ipc/contracts/generation';
import type { GenTaskEvent } from '../../../store/generationSlice';
import captured from './fixtures/flange-task.json';

/**
 * Test fixtures for the "Describe a part" views (imported by tests only). The data was captured
 * from a real run (see `_source` in the JSON) and is re-shaped per state here. Every variant goes
 * through the contract's zod schema, so a fixture the host could not send fails the test.
 */
const clone = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;
const valid = (detail: unknown): GenTaskDetail => genTaskDetailSchema.parse(detail);

export const TASK_ID = captured.completed.task.taskId;
export const RETRY_TASK_ID = captured.waitingRetry.task.taskId;

export const completedDetail = (): GenTaskDetail => valid(clone(captured.completed));
/** genShow of the same task for rev_001: only the disk, so the bore and bolt-hole claims do not pass. */
export const firstRevisionDetail = (): GenTaskDetail => valid(clone(captured.firstRevision));
export const waitingRetryDetail = (): GenTaskDetail => valid(clone(captured.waitingRetry));
export const completedLedger = (): Record<string, unknown>[] => clone(captured.ledger);
/** documents/requirements-review-v1.json of the task. */
export const requirementsReviewJson = (): string => JSON.stringify(captured.requirementsReview);
/** revisions/rev_002/reviews/candidate-review.json of the task (the reviewer's verdict on act_002). */
export const candidateReviewJson = (): string => JSON.stringify(captured.candidateReview);
/** The task's genTaskEvent stream (seq 1–17). */
export const completedEvents = (): GenTaskEvent[] => captured.events.map((e) => generationEvents.genTaskEvent.parse(e));

type State = GenTaskDetail['task']['state'];

/** The completed task as it looked earlier: `revisions` published, claims pending, in `state`. */
export function inProgressDetail(state: State, options: { revisions?: number; contract?: boolean; drafts?: boolean; pending?: boolean } = {}): GenTaskDetail {
  const detail = completedDetail();
  const kept = options.revisions ?? 0;
  detail.task.state = state;
  detail.revisions = detail.revisions.slice(0, kept);
  detail.task.revisionCount = kept;
  detail.task.headRevision = detail.revisions[kept - 1]?.revisionId ?? null;
  detail.shownRevision = detail.task.headRevision;
  if (options.drafts === false) detail.drafts = [];
  if (options.contract === false) detail.contract = null;
  for (const claim of detail.contract?.requirements.flatMap((r) => r.claims) ?? []) Object.assign(claim, { status: 'pending', message: null, evidence: null });
  detail.pending = options.pending ? { actionId: 'act_002', intent: 'centre bore', requirementIds: ['req_001', 'req_002', 'req_003'], operation: 'hole', expectedChange: 'Ø40 through bore on the axis' } : null;
  return valid(detail);
}
