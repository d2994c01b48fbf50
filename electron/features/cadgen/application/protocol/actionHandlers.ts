import { protocolError, ProtocolErrorCode } from '../../domain/protocol/errors';
import { seqId } from '../../domain/protocol/task';
import type { NextAction } from '../../domain/protocol/tools/actionTools';
import { accepted, rejected } from './handlerTypes';
import type { Handler } from './handlerTypes';
import { contractReading, noted } from './observationHandlers';
import { headMove, moveTo } from './transitions';

/**
 * propose_next_action: becomes the pending action (seed §4.3); the server never picks it. The
 * proposal pins the operation, so its contract is read with it (hash bound, note in the facts):
 * every author's next call would be that read, a turn that decides nothing (seed §7 puts fewer
 * turns first). get_cdsl_operation_contract stays for comparing operations while repairing.
 */
export const handleProposeNextAction: Handler<NextAction> = async ({ snapshot, value, deps }) => {
  const { task } = snapshot;
  if (snapshot.pending) return rejected(protocolError(ProtocolErrorCode.authorDecisionRejected, `action ${snapshot.pending.action_id} is still pending`));
  const contract = deps.catalog.contracts.get(value.atomic_id);
  if (!contract) return rejected(protocolError(ProtocolErrorCode.runtimePreconditionFailed, `operation ${value.atomic_id} is not offered`));
  if (contract.body_effect !== 'add' && task.head_revision === null) {
    return rejected(protocolError(ProtocolErrorCode.runtimePreconditionFailed, `${value.atomic_id} needs an existing body; the part is still empty`, { atomic_id: value.atomic_id }));
  }
  const actionId = seqId('act', deps.repo.ledger(task.task_id).filter((e) => e.event === 'proposed').length + 1);
  const reading = contractReading(contract, deps.sha256);
  const pending = { action_id: actionId, working_head: task.working_head, proposal: value, contract_hash: reading.hash, idempotency_key: `${task.task_id}:${task.working_head}:${actionId}` };
  const notes = noted(task.notes, task.working_head, { contract: reading.note, last_tool: { tool: 'propose_next_action', outcome: `pending ${actionId}; contract ${value.atomic_id} read` } });
  return accepted(
    {
      pending,
      task: { state: moveTo(task.state, 'action_proposed'), last_error: null, notes },
      ledger: [{ event: 'proposed', action_id: actionId, working_head: task.working_head, intent: value.intent, requirement_ids: value.requirement_ids, proposed_atomic_id: value.atomic_id, expected_change: value.expected_change }],
      outbox: [{ type: 'action_proposed', payload: { action_id: actionId, atomic_id: value.atomic_id, intent: value.intent } }],
    },
    `pending action ${actionId}`,
  );
};

/** rollback_checkpoint: moves the head to an accepted ancestor in one transition. */
export const handleRollback: Handler<{ working_head: string; checkpoint_token: string; reason: string }> = async ({ snapshot, value }) => {
  const { task } = snapshot;
  return accepted(
    {
      pending: null,
      observation: null,
      task: { state: moveTo(task.state, 'rolled_back'), ...headMove(task, value.checkpoint_token) },
      ledger: [{ event: 'rolled_back', working_head_before: task.working_head, revision_id: value.checkpoint_token, reason: value.reason, action_id: snapshot.pending?.action_id }],
      outbox: [{ type: 'rolled_back', payload: { revision_id: value.checkpoint_token } }],
    },
    `head moved back to ${value.checkpoint_token}`,
  );
};

/** record_geometry_conclusion: a diagnosis; only waiting_for_user changes the state. */
export const handleGeometryConclusion: Handler<{ decision: string; root_cause: string; corrective_intent: string; evidence_refs: string[]; question?: { reason_code: string; text: string } }> = async ({ snapshot, value }) => {
  const { task } = snapshot;
  if (value.decision === 'waiting_for_user' && value.question) {
    return { kind: 'waiting', change: { task: { state: moveTo(task.state, 'user_question'), resume_state: 'AWAITING_ACTION', question: value.question }, outbox: [{ type: 'question', payload: value.question }], ledger: [{ event: 'waiting', reason: value.question.reason_code }] }, message: value.question.text };
  }
  const note = { tool: 'record_geometry_conclusion', outcome: value.decision, message: `${value.root_cause} → ${value.corrective_intent}`.slice(0, 400) };
  return accepted({ task: { notes: { ...task.notes, last_tool: note }, evidence: [], last_error: null } }, `conclusion recorded: ${value.decision}`, false);
};

/** complete_task: opens one final validation per revision (idempotency key complete:<revision>). */
export const handleCompleteTask: Handler<Record<string, never>> = async ({ snapshot }) => {
  const { task } = snapshot;
  return accepted(
    { task: { state: moveTo(task.state, 'complete_requested'), last_error: null }, outbox: [{ type: 'final_validation', payload: { revision_id: task.head_revision } }] },
    `final validation of ${task.head_revision}`,
  );
};
