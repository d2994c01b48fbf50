import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ALL_CONTRACTS } from '../../domain/contracts/registry';
import { DEFAULT_BUDGET, ZERO_USAGE } from '../../domain/protocol/budgets';
import { FRESH_COUNTERS } from '../../domain/protocol/progress';
import { headToken } from '../../domain/protocol/task';
import type { TaskRecord } from '../../domain/protocol/task';
import { exposedTools } from '../../domain/protocol/tools/exposure';
import { createCdslCatalog } from '../cdslCatalog';
import { handleProposeNextAction } from './actionHandlers';
import { authorContext } from './context';
import type { GenerationDeps } from './deps';
import { handleOperationContract } from './observationHandlers';
import type { TaskSnapshot } from './ports';
import { turnViewOf } from './turnView';

const catalog = createCdslCatalog(new Set(ALL_CONTRACTS.map((c) => c.atomic_id)));
const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');
const deps = { catalog, sha256, repo: { ledger: () => [] } } as unknown as GenerationDeps;
const head = headToken(0, null);
const task: TaskRecord = {
  task_id: 'task_aaaaaa03', state: 'AWAITING_ACTION', state_version: 4, working_head: head, head_revision: null, head_counter: 0, resume_state: null, failure_reason: null,
  last_error: null, question: null, answer: null, request: 'plate', author_model: 'a', reviewer_model: 'r', budget: DEFAULT_BUDGET, usage: ZERO_USAGE, counters: FRESH_COUNTERS,
  from_task: null, from_revision: null, run_id: 'run_1', notes: { head }, evidence: [], created_at: '', updated_at: '',
};
const contract = { contract: { requirements: [{ requirement_id: 'req_001', statement: 'plate', claim_ids: ['claim_001'] }], claims: [{ claim_id: 'claim_001', requirement_id: 'req_001', claim_kind: 'solid_count_equals', expected: { count: 1 }, deterministic: true }] } };
const snapshotOf = (t: TaskRecord, pending: TaskSnapshot['pending'] = null): TaskSnapshot =>
  ({ task: t, sources: [], drafts: [], contract, observation: null, revisions: [], claimResults: new Map(), invocationCount: 0, pending, candidates: [] }) as unknown as TaskSnapshot;
const proposal = { working_head: head, intent: 'plate', requirement_ids: ['req_001'], atomic_id: 'extrude', expected_change: '100 x 60 x 8 plate' };

describe('proposing the next action', () => {
  it('reads the proposed operation contract with the proposal: the same hash get_cdsl_operation_contract binds, and its note in the facts', async () => {
    const proposed = await handleProposeNextAction({ snapshot: snapshotOf(task), value: proposal, deps, topology: null });
    if (proposed.kind !== 'accepted') throw new Error(proposed.kind);
    const pending = proposed.change.pending!;
    const read = await handleOperationContract({ snapshot: snapshotOf(task, { ...pending, contract_hash: null }), value: { atomic_id: 'extrude' }, deps, topology: null });
    if (read.kind !== 'accepted') throw new Error(read.kind);
    expect(pending.contract_hash).toMatch(/^ch_[0-9a-f]{16}$/);
    expect(pending.contract_hash).toBe(read.change.pending?.contract_hash);
    const notes = proposed.change.task!.notes!;
    expect(notes.contract).toEqual(read.change.task?.notes?.contract);
    const facts = JSON.parse(authorContext(snapshotOf({ ...task, state: 'ACTION_PENDING', notes }, pending), [], null).user) as { contract: unknown; pending_action: Record<string, unknown> };
    expect(facts.contract).toEqual(notes.contract);
    expect(facts.pending_action.contract_read).toBe(true);
    expect(facts.pending_action).not.toHaveProperty('working_head');
  });

  it('offers the fragment tool on the very next turn of an operation that selects nothing, and no contract read', async () => {
    const proposed = await handleProposeNextAction({ snapshot: snapshotOf(task), value: proposal, deps, topology: null });
    if (proposed.kind !== 'accepted') throw new Error(proposed.kind);
    const next = snapshotOf({ ...task, state: 'ACTION_PENDING', notes: proposed.change.task!.notes! }, proposed.change.pending!);
    const tools = exposedTools(turnViewOf(next, catalog, null), (schema, value, path) => catalog.validator.issues(schema, value, path)).map((t) => t.name);
    expect(tools).toEqual(['submit_cdsl_fragment']);
  });
});
