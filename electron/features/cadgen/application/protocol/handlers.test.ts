import { describe, expect, it } from 'vitest';
import { DEFAULT_BUDGET, ZERO_USAGE } from '../../domain/protocol/budgets';
import { FRESH_COUNTERS } from '../../domain/protocol/progress';
import { headToken } from '../../domain/protocol/task';
import type { TaskRecord } from '../../domain/protocol/task';
import type { ClaimResult } from '../evaluateClaims';
import { handleReviewCandidate } from './candidateHandlers';
import { handleReviewFinal } from './finalHandlers';
import type { GenerationDeps } from './deps';
import type { TaskSnapshot } from './ports';

const task: TaskRecord = {
  task_id: 'task_aaaaaa01', state: 'CANDIDATE_REVIEW', state_version: 7, working_head: headToken(1, 'rev_001'), head_revision: 'rev_001', head_counter: 1, resume_state: null, failure_reason: null,
  last_error: null, question: null, answer: null, request: 'plate', author_model: 'a', reviewer_model: 'r', budget: DEFAULT_BUDGET, usage: ZERO_USAGE, counters: FRESH_COUNTERS,
  from_task: null, from_revision: null, run_id: 'run_1', notes: { head: headToken(1, 'rev_001') }, evidence: [], created_at: '', updated_at: '',
};

/** A contract whose req_001 (the one the pending action targets) owns claim_001 and req_002 owns claim_002. */
const contract = { contract: { requirements: [{ requirement_id: 'req_001', claim_ids: ['claim_001'] }, { requirement_id: 'req_002', claim_ids: ['claim_002'] }], claims: [] } } as unknown as TaskSnapshot['contract'];

function snapshotWith(claims: ClaimResult[], parent: ClaimResult[] = []): TaskSnapshot {
  return {
    task, sources: [], drafts: [], contract, observation: null, revisions: [], claimResults: new Map([['rev_001', parent]]), invocationCount: 0,
    pending: { action_id: 'act_002', working_head: task.working_head, proposal: { working_head: task.working_head, intent: 'holes', requirement_ids: ['req_001'], atomic_id: 'hole', expected_change: 'holes' }, contract_hash: 'ch_1', idempotency_key: 'k' },
    candidates: [{ candidate_id: 'cand_1', action_id: 'act_002', idempotency_key: 'k2', base_head: task.working_head, fragment_sha256: 'f', snapshot_id: 's', status: 'built', document_json: '{"features":[]}', revision_id: 'rev_002', report_json: JSON.stringify({ claims, snapshot_id: 's2', manifest: {} }) }],
  };
}

const writes: string[] = [];
/** The task folder in memory: what writeStep wrote, readText reads back. */
const files = new Map<string, string>();
const deps = {
  artifacts: {
    writeStep: async (_t: string, p: string, text: string) => {
      writes.push(p);
      files.set(p, text);
    },
    readText: async (_t: string, p: string) => files.get(p) ?? null,
  },
} as unknown as GenerationDeps;
type Row = { claim_id: string; status: 'pass' | 'fail' | 'pending' | 'unverified' };
const accept = { candidate_id: 'cand_1', working_head: task.working_head, verdict: 'accept' as const, claim_coverage: [{ claim_id: 'claim_001', status: 'pass' }] as Row[], evidence: [], issues: [] };
/** A lenient reviewer: copies the server's statuses and accepts anyway. */
const lenient = (claims: ClaimResult[]) => ({ ...accept, claim_coverage: claims.map((c): Row => ({ claim_id: c.id, status: c.status === 'unavailable' ? 'pending' : c.status })) });
const result = (id: string, status: ClaimResult['status'], extra: Partial<ClaimResult> = {}): ClaimResult => ({ id, kind: 'through_cylindrical_bore', deterministic: true, status, message: `${id} ${status}`, evidence: {}, ...extra });

async function rejectedCandidate(claims: ClaimResult[], parent: ClaimResult[] = []) {
  const outcome = await handleReviewCandidate({ snapshot: snapshotWith(claims, parent), value: lenient(claims), deps, topology: null });
  if (outcome.kind !== 'accepted') throw new Error(`expected a committed rejection, got ${outcome.kind}`);
  expect(outcome.change.task?.state).toBe('AWAITING_ACTION');
  expect(outcome.change.task?.last_error?.code).toBe('CDSL_CLAIM_VERIFICATION_FAILED');
  expect(outcome.change.candidate?.status).toBe('rejected');
  expect(outcome.change.revision).toBeUndefined();
  expect(outcome.change.pending).toBeNull();
  return (outcome.change.task?.last_error?.data as { blockers: { id: string; reason: string }[] }).blockers;
}

describe('candidate review handler', () => {
  it('rejects with CLAIM_VERIFICATION_FAILED when a claim of a targeted requirement fails even though the reviewer accepts', async () => {
    expect(await rejectedCandidate([result('claim_001', 'fail'), result('claim_002', 'pending')])).toEqual([{ id: 'claim_001', reason: 'targeted_claim_failed', message: 'claim_001 fail' }]);
  });

  it('rejects a candidate under which a claim that passed at the parent no longer passes, targeted or not', async () => {
    const blockers = await rejectedCandidate([result('claim_001', 'pass'), result('claim_002', 'pending')], [result('claim_002', 'pass')]);
    expect(blockers.map((b) => [b.id, b.reason])).toEqual([['claim_002', 'claim_regressed']]);
  });

  it('rejects a candidate that breaks a global invariant of an untargeted requirement', async () => {
    const blockers = await rejectedCandidate([result('claim_001', 'pass'), result('claim_002', 'fail', { kind: 'single_connected_body', invariant: true })]);
    expect(blockers.map((b) => b.reason)).toEqual(['invariant_failed']);
  });

  it('accepts a candidate when only a claim of an untargeted requirement fails that never passed (future work owns it)', async () => {
    const claims = [result('claim_001', 'pass'), result('claim_002', 'fail', { kind: 'bbox_dimension_mm' })];
    const outcome = await handleReviewCandidate({ snapshot: snapshotWith(claims), value: lenient(claims), deps, topology: null });
    if (outcome.kind !== 'accepted') throw new Error('expected accepted');
    expect(outcome.change.revision?.revision_id).toBe('rev_002');
  });

  it('stops the task with NO_PROGRESS_LIMIT and a repair card at the third rejected candidate on one checkpoint', async () => {
    const claims = [result('claim_001', 'pass')];
    const base = snapshotWith(claims);
    const earlier = (id: string, status: 'rejected' | 'build_failed') => ({ ...(base.candidates[0] as TaskSnapshot['candidates'][number]), candidate_id: id, status, fragment_sha256: id });
    const snapshot = { ...base, candidates: [earlier('cand_a', 'rejected'), earlier('cand_b', 'build_failed'), ...base.candidates] };
    const outcome = await handleReviewCandidate({ snapshot, value: { ...lenient(claims), verdict: 'reject', issues: [{ code: 'other', message: 'no' }] }, deps, topology: null });
    if (outcome.kind !== 'accepted') throw new Error('expected a committed change');
    expect(outcome.change.task).toMatchObject({ state: 'FAILED', failure_reason: 'NO_PROGRESS_LIMIT', last_error: { code: 'CDSL_NO_PROGRESS_LIMIT' } });
    expect(outcome.change.task?.last_error?.data).toMatchObject({ repair_card: { rejected_candidates: ['cand_a', 'cand_b', 'cand_1'] }, last: { code: 'CDSL_CANDIDATE_REVIEW_REJECTED' } });
    expect(outcome.change.ledger?.map((e) => e.event)).toEqual(['review_rejected', 'failed']);
  });

  it('tells the author how many attempts remain on the checkpoint after an earlier rejection', async () => {
    const claims = [result('claim_001', 'fail')];
    const outcome = await handleReviewCandidate({ snapshot: snapshotWith(claims), value: lenient(claims), deps, topology: null });
    if (outcome.kind !== 'accepted') throw new Error('expected a committed change');
    expect(outcome.change.task?.last_error?.data).toMatchObject({ attempts_left_on_checkpoint: 2 });
  });

  it('refuses, as a typed review error and without storing it, a review whose claim statuses contradict the server', async () => {
    const claims = [result('claim_001', 'fail'), result('claim_002', 'pending')];
    const outcome = await handleReviewCandidate({ snapshot: snapshotWith(claims), value: { ...accept, claim_coverage: [{ claim_id: 'claim_001', status: 'pass' }, { claim_id: 'claim_002', status: 'unverified' }] }, deps, topology: null });
    if (outcome.kind !== 'rejected') throw new Error('expected a rejected review');
    expect(outcome.error.code).toBe('CDSL_REVIEW_CONTRADICTS_VERIFIER');
    expect(outcome.error.data).toMatchObject({ contradictions: [{ claim_id: 'claim_001', reviewer: 'pass', server: 'fail' }], issues: [{ path: '/claim_coverage/0/status' }] });
  });

  it('commits the revision, coverage, ledger entry and pending-action clear together when claims pass or are still pending', async () => {
    const pending: ClaimResult = { id: 'claim_001', kind: 'through_cylindrical_bore', deterministic: true, status: 'pending', message: 'no bore yet', evidence: {} };
    const outcome = await handleReviewCandidate({ snapshot: snapshotWith([pending]), value: lenient([pending]), deps, topology: null });
    if (outcome.kind !== 'accepted') throw new Error('expected accepted');
    expect(outcome.change.revision?.revision_id).toBe('rev_002');
    expect(outcome.change.pending).toBeNull();
    expect(outcome.change.task?.head_revision).toBe('rev_002');
    expect(outcome.change.task?.working_head).not.toBe(task.working_head);
    expect(outcome.change.ledger?.[0]).toMatchObject({ event: 'accepted', action_id: 'act_002', revision_id: 'rev_002', fragment_sha256: 'f', selector_snapshot_id: 's' });
    expect(writes).toContain('revisions/rev_002/reviews/candidate-review.json');
  });

  it('records in the review document which renders the reviewer was shown and why the others were left out', async () => {
    const choice = { budget_tokens: 2000, tokens: { openai: 1020, anthropic: 1016 }, bytes: 25802, sent: [{ view: 'iso-shaded', source: 'view-iso-shaded.svg', width: 1024, height: 540, colour_mode: 'grey palette PNG, 16 levels', bytes: 19368, tokens: { openai: 765, anthropic: 738 }, why: 'the whole part' }], omitted: [{ view: 'front', why: 'unchanged against rev_001' }] };
    files.set('revisions/rev_002/reviews/candidate-renders.json', JSON.stringify(choice));
    const pending: ClaimResult = { id: 'claim_001', kind: 'through_cylindrical_bore', deterministic: true, status: 'pending', message: 'no bore yet', evidence: {} };
    const outcome = await handleReviewCandidate({ snapshot: snapshotWith([pending]), value: lenient([pending]), deps, topology: null });
    if (outcome.kind !== 'accepted') throw new Error('expected accepted');
    expect(JSON.parse(files.get('revisions/rev_002/reviews/candidate-review.json') ?? '{}')).toMatchObject({ verdict: 'accept', render_choice: choice });
    expect(outcome.change.review?.body).toMatchObject({ render_choice: choice });
    files.delete('revisions/rev_002/reviews/candidate-renders.json');
  });
});

describe('final review handler', () => {
  const finalTask = { ...task, state: 'FINAL_VALIDATION' as const };
  const results = [result('claim_001', 'pass'), { ...result('claim_002', 'unavailable'), kind: 'visual', deterministic: false }];
  const finalSnapshot = (): TaskSnapshot => ({ ...snapshotWith([]), task: finalTask, pending: null, candidates: [], claimResults: new Map([['rev_001@final', results]]) });
  const review = (extra: Record<string, unknown>) => ({ revision_id: 'rev_001', verdict: 'accept' as const, claim_coverage: [{ claim_id: 'claim_001', status: 'pass' as const }, { claim_id: 'claim_002', status: 'unverified' as const }], evidence: [], issues: [], ...extra });

  it('blocks completion with CDSL_VISUAL_VERDICT_MISSING when a visual claim has no reviewer verdict', async () => {
    const outcome = await handleReviewFinal({ snapshot: finalSnapshot(), value: review({}), deps, topology: null });
    if (outcome.kind !== 'accepted') throw new Error('expected a committed change');
    expect(outcome.change.task).toMatchObject({ state: 'AWAITING_ACTION', last_error: { code: 'CDSL_VISUAL_VERDICT_MISSING', data: { claims: ['claim_002'] } } });
  });

  it('blocks completion when the reviewer judges a visual claim failed, even with an accept verdict', async () => {
    const outcome = await handleReviewFinal({ snapshot: finalSnapshot(), value: review({ visual_verdicts: [{ claim_id: 'claim_002', verdict: 'fail', evidence: 'the flange has no chamfer' }] }), deps, topology: null });
    if (outcome.kind !== 'accepted') throw new Error('expected a committed change');
    expect(outcome.change.task?.last_error).toMatchObject({ code: 'CDSL_CLAIM_VERIFICATION_FAILED', data: { claims: ['claim_002'] } });
  });

  it('completes with a reviewer pass for each visual claim and stores the verdict with its evidence as the claim result', async () => {
    const outcome = await handleReviewFinal({ snapshot: finalSnapshot(), value: review({ visual_verdicts: [{ claim_id: 'claim_002', verdict: 'pass', evidence: 'four bolt holes visible in the top view' }] }), deps, topology: null });
    if (outcome.kind !== 'accepted') throw new Error('expected a committed change');
    expect(outcome.change.task?.state).toBe('COMPLETED');
    expect(outcome.change.claimResults).toMatchObject({ revision_id: 'rev_001@final', results: [{ id: 'claim_002', status: 'pass', evidence: { reviewer_evidence: 'four bolt holes visible in the top view' } }] });
  });
});
