import { describe, expect, it } from 'vitest';
import { DEFAULT_BUDGET, ZERO_USAGE } from '../../domain/protocol/budgets';
import { FRESH_COUNTERS } from '../../domain/protocol/progress';
import { headToken } from '../../domain/protocol/task';
import type { TaskRecord } from '../../domain/protocol/task';
import type { ClaimResult } from '../evaluateClaims';
import { handleReviewCandidate } from './candidateHandlers';
import type { GenerationDeps } from './deps';
import type { TaskSnapshot } from './ports';

const task: TaskRecord = {
  task_id: 'task_aaaaaa01', state: 'CANDIDATE_REVIEW', state_version: 7, working_head: headToken(1, 'rev_001'), head_revision: 'rev_001', head_counter: 1, resume_state: null, failure_reason: null,
  last_error: null, question: null, answer: null, request: 'plate', author_model: 'a', reviewer_model: 'r', budget: DEFAULT_BUDGET, usage: ZERO_USAGE, counters: FRESH_COUNTERS,
  from_task: null, from_revision: null, run_id: 'run_1', notes: { head: headToken(1, 'rev_001') }, evidence: [], created_at: '', updated_at: '',
};

function snapshotWith(claims: ClaimResult[]): TaskSnapshot {
  return {
    task, sources: [], drafts: [], contract: null, observation: null, revisions: [], claimResults: new Map(), invocationCount: 0,
    pending: { action_id: 'act_002', working_head: task.working_head, proposal: { working_head: task.working_head, intent: 'holes', requirement_ids: ['req_001'], atomic_id: 'hole', expected_change: 'holes' }, contract_hash: 'ch_1', idempotency_key: 'k' },
    candidates: [{ candidate_id: 'cand_1', action_id: 'act_002', idempotency_key: 'k2', base_head: task.working_head, fragment_sha256: 'f', snapshot_id: 's', status: 'built', document_json: '{"features":[]}', revision_id: 'rev_002', report_json: JSON.stringify({ claims, snapshot_id: 's2', manifest: {} }) }],
  };
}

const writes: string[] = [];
const deps = { artifacts: { writeStep: async (_t: string, p: string) => void writes.push(p) } } as unknown as GenerationDeps;
const accept = { candidate_id: 'cand_1', working_head: task.working_head, verdict: 'accept' as const, claim_coverage: [{ claim_id: 'claim_001', status: 'pass' as const }], evidence: [], issues: [] };

describe('candidate review handler', () => {
  it('rejects with CLAIM_VERIFICATION_FAILED when a deterministic claim fails even though the reviewer accepts', async () => {
    const failed: ClaimResult = { id: 'claim_001', kind: 'solid_count_equals', deterministic: true, status: 'fail', message: '2 solids', evidence: {} };
    const result = await handleReviewCandidate({ snapshot: snapshotWith([failed]), value: accept, deps, topology: null });
    expect(result.kind).toBe('accepted');
    if (result.kind !== 'accepted') return;
    expect(result.change.task?.state).toBe('AWAITING_ACTION');
    expect(result.change.task?.last_error?.code).toBe('CDSL_CLAIM_VERIFICATION_FAILED');
    expect(result.change.candidate?.status).toBe('rejected');
    expect(result.change.revision).toBeUndefined();
    expect(result.change.pending).toBeNull();
  });

  it('commits the revision, coverage, ledger entry and pending-action clear together when claims pass or are still pending', async () => {
    const pending: ClaimResult = { id: 'claim_001', kind: 'through_cylindrical_bore', deterministic: true, status: 'pending', message: 'no bore yet', evidence: {} };
    const result = await handleReviewCandidate({ snapshot: snapshotWith([pending]), value: accept, deps, topology: null });
    if (result.kind !== 'accepted') throw new Error('expected accepted');
    expect(result.change.revision?.revision_id).toBe('rev_002');
    expect(result.change.pending).toBeNull();
    expect(result.change.task?.head_revision).toBe('rev_002');
    expect(result.change.task?.working_head).not.toBe(task.working_head);
    expect(result.change.ledger?.[0]).toMatchObject({ event: 'accepted', action_id: 'act_002', revision_id: 'rev_002', fragment_sha256: 'f', selector_snapshot_id: 's' });
    expect(writes).toContain('revisions/rev_002/reviews/candidate-review.json');
  });
});
