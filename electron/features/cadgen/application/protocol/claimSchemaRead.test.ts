import { describe, expect, it } from 'vitest';
import { DEFAULT_BUDGET, ZERO_USAGE } from '../../domain/protocol/budgets';
import { FRESH_COUNTERS } from '../../domain/protocol/progress';
import { headToken } from '../../domain/protocol/task';
import type { TaskRecord } from '../../domain/protocol/task';
import { ALL_VERIFIERS } from '../../domain/verifiers/registry';
import { authorContext } from './context';
import type { GenerationDeps } from './deps';
import { handleClaimSchema } from './observationHandlers';
import type { TaskSnapshot } from './ports';

const head = headToken(0, null);
const task: TaskRecord = {
  task_id: 'task_aaaaaa02', state: 'DRAFTING_REQUIREMENTS', state_version: 1, working_head: head, head_revision: null, head_counter: 0, resume_state: null, failure_reason: null,
  last_error: null, question: null, answer: null, request: 'plate', author_model: 'a', reviewer_model: 'r', budget: DEFAULT_BUDGET, usage: ZERO_USAGE, counters: FRESH_COUNTERS,
  from_task: null, from_revision: null, run_id: 'run_1', notes: { head }, evidence: [], created_at: '', updated_at: '',
};
const snapshotOf = (t: TaskRecord): TaskSnapshot =>
  ({ task: t, sources: [{ source_id: 'src_001', text: 'a 100 x 60 x 8 plate' }], drafts: [], contract: null, observation: null, revisions: [], claimResults: new Map(), invocationCount: 0, pending: null, candidates: [] }) as unknown as TaskSnapshot;
const deps = { catalog: { verifiers: new Map(ALL_VERIFIERS.map((v) => [v.kind, v])) } } as unknown as GenerationDeps;

describe('reading claim schemas on demand', () => {
  it('notes the closed expected schema of each kind read, keeps earlier reads at the same head and changes no state', async () => {
    const first = await handleClaimSchema({ snapshot: snapshotOf(task), value: { claim_kinds: ['solid_count_equals'] }, deps, topology: null });
    if (first.kind !== 'accepted') throw new Error(first.kind);
    expect(first.advanced).toBe(false);
    expect(first.change.task?.state).toBeUndefined();
    const notes = first.change.task?.notes;
    expect(notes?.claim_schemas).toEqual({ solid_count_equals: ALL_VERIFIERS.find((v) => v.kind === 'solid_count_equals')?.expected_schema });
    const second = await handleClaimSchema({ snapshot: snapshotOf({ ...task, notes: notes! }), value: { claim_kinds: ['bbox_dimension_mm'] }, deps, topology: null });
    if (second.kind !== 'accepted') throw new Error(second.kind);
    expect(Object.keys(second.change.task?.notes?.claim_schemas ?? {}).sort()).toEqual(['bbox_dimension_mm', 'solid_count_equals']);
  });

  it('shows read schemas to the drafting author after the sources and before the volatile facts', async () => {
    const read = await handleClaimSchema({ snapshot: snapshotOf(task), value: { claim_kinds: ['solid_count_equals'] }, deps, topology: null });
    if (read.kind !== 'accepted') throw new Error(read.kind);
    const facts = JSON.parse(authorContext(snapshotOf({ ...task, notes: read.change.task!.notes! }), [], null).user) as Record<string, unknown>;
    expect(Object.keys(facts)).toEqual(['sources', 'claim_schemas', 'drafts', 'state', 'working_head', 'head_revision', 'last_tool']);
    expect(facts.claim_schemas).toHaveProperty('solid_count_equals');
  });
});
