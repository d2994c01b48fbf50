import { protocolError, ProtocolErrorCode } from '../../domain/protocol/errors';
import { transition } from '../../domain/protocol/states';
import type { TaskEvent, TaskState } from '../../domain/protocol/states';
import { headToken } from '../../domain/protocol/task';
import type { TaskRecord } from '../../domain/protocol/task';
import type { CdslDocument } from '../../domain/document';
import { CDSL_VERSION } from '../../domain/document';
import type { TaskSnapshot } from './ports';

/** The next state through the transition table; an illegal edge is an internal defect. */
export function moveTo(state: TaskState, event: TaskEvent, to?: TaskState): TaskState {
  const result = transition(state, event, to);
  if (!result.ok) throw protocolError(ProtocolErrorCode.illegalTransition, `${state} --${event}--> is not a legal edge`, { from: state, event, allowed: result.allowed });
  return result.to;
}

/** Task fields for moving the head to `revision` (new opaque head token, observations reset). */
export function headMove(task: TaskRecord, revision: string | null): Partial<TaskRecord> {
  const counter = task.head_counter + 1;
  const head = headToken(counter, revision);
  return { head_revision: revision, head_counter: counter, working_head: head, notes: { head }, evidence: [], last_error: null };
}

/** The document of the head revision (empty before the first accepted action). */
export function headDocument(snapshot: TaskSnapshot): CdslDocument {
  const row = snapshot.revisions.find((r) => r.revision_id === snapshot.task.head_revision);
  return row ? (JSON.parse(row.document_json) as CdslDocument) : { cdsl_version: CDSL_VERSION, units: 'mm', name: `part-${snapshot.task.task_id}`, features: [] };
}

/** Next revision id (accepted revisions are numbered in acceptance order, never reused). */
export const nextRevisionId = (snapshot: TaskSnapshot): string => `rev_${String(snapshot.revisions.length + 1).padStart(3, '0')}`;
