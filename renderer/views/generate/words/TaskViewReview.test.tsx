import { cleanup, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { GenTaskDetail } from '../../../../shared/ipc/contracts/generation';
import { completedDetail, inProgressDetail, TASK_ID } from './taskFixtures';
import { renderGenerate, testBridge } from './testBridge';

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

/** The reviewer sent the drafts back with a question: d_002 is unclear, the others pass. */
function reviewerAsked(): GenTaskDetail {
  const detail = inProgressDetail('WAITING_FOR_USER', { contract: false });
  detail.task.question = { reasonCode: 'missing_dimension', text: 'The request gives no thickness: is the flange 12 mm thick?', askedBy: 'reviewer' };
  detail.requirementsReview = {
    verdict: 'waiting_for_user',
    items: [
      { draftId: 'd_001', verdict: 'pass', note: '' },
      { draftId: 'd_002', verdict: 'waiting_for_user', note: 'thickness not stated' },
      { draftId: 'd_003', verdict: 'revise', note: 'PCD unclear' },
    ],
    at: '2026-12-01T22:29:00.000Z',
  };
  return detail;
}

describe('Describe a part: who asked, and the reviewer verdicts before approval', () => {
  it('WAITING_FOR_USER (zh-CN): the reviewer\'s question says the reviewer asked, with the reason in Chinese and its code', async () => {
    await renderGenerate(testBridge(reviewerAsked()), 'zh-CN', TASK_ID);
    const question = screen.getByTestId('gen-question');
    expect(question.getAttribute('data-asked-by')).toBe('reviewer');
    expect(question.textContent).toContain('审核者有一个问题');
    expect(question.textContent).not.toContain('作者');
    expect(question.textContent).toContain('缺少尺寸');
    expect(question.textContent).toContain('missing_dimension');
  });

  it('WAITING_FOR_USER (en): an author question names the author; every reason code the engine allows has a label', async () => {
    for (const [code, label] of [['missing_dimension', 'a dimension is missing'], ['missing_datum', 'a datum is missing'], ['conflicting_sources', 'the sources conflict'], ['ambiguous_intent', 'the intent is ambiguous']]) {
      const detail = reviewerAsked();
      detail.task.question = { reasonCode: code!, text: 'Which diameter?', askedBy: 'author' };
      await renderGenerate(testBridge(detail), 'en', TASK_ID);
      const question = screen.getByTestId('gen-question');
      expect(question.textContent).toContain('The author has a question');
      expect(question.textContent).toContain(label);
      cleanup();
    }
  });

  it('a reason code this catalog does not know is shown as sent', async () => {
    const detail = reviewerAsked();
    detail.task.question = { reasonCode: 'new_reason', text: 'Which diameter?', askedBy: 'author' };
    await renderGenerate(testBridge(detail), 'zh-CN', TASK_ID);
    expect(screen.getByTestId('gen-question').textContent).toContain('原因： new_reason');
  });

  it('WAITING_FOR_USER: the drafts show the reviewer\'s verdict and note per draft from genShow, without fetching a review document', async () => {
    const b = testBridge(reviewerAsked());
    await renderGenerate(b, 'zh-CN', TASK_ID);
    const verdict = (id: string) => screen.getByTestId(`gen-draft-${id}`).getAttribute('data-verdict');
    expect(['d_001', 'd_002', 'd_003'].map(verdict)).toEqual(['pass', 'waiting_for_user', 'revise']);
    expect(screen.getByTestId('gen-drafts').textContent).toContain('审核结论：等待你的回答');
    expect(screen.getByTestId('gen-drafts').textContent).not.toContain('尚未审核');
    expect(screen.getByTestId('gen-draft-d_002').textContent).toContain('thickness not stated');
    expect(screen.getByTestId('gen-draft-d_003').textContent).toContain('需修改');
    expect(b.calls.genGetArtifact).not.toHaveBeenCalled();
  });

  it('the ledger\'s waiting fact names the question reason in Chinese beside its code', async () => {
    const b = testBridge(reviewerAsked());
    b.ledger = [{ schema_version: 'cad.action-ledger.v1', sequence: 1, event: 'waiting', reason: 'missing_dimension', at: '2026-12-01T22:29:00.000Z' }];
    await renderGenerate(b, 'zh-CN', TASK_ID);
    const waiting = await screen.findByTestId('gen-ledger-event-1');
    expect(waiting.textContent).toContain('缺少尺寸');
    expect(waiting.textContent).toContain('missing_dimension');
  });

  it('REVIEWING_REQUIREMENTS before any review: genShow says null and the drafts stay pending', async () => {
    const detail = inProgressDetail('REVIEWING_REQUIREMENTS', { contract: false });
    detail.requirementsReview = null;
    await renderGenerate(testBridge(detail), 'en', TASK_ID);
    expect(screen.getByTestId('gen-draft-d_001').getAttribute('data-verdict')).toBe('pending');
    expect(screen.getByTestId('gen-drafts').textContent).toContain('not reviewed yet');
  });

  it('COMPLETED (zh-CN): the ledger counts the contract\'s claims apart from the STEP re-import check, and coverage is translated', async () => {
    await renderGenerate(testBridge(completedDetail()), 'zh-CN', TASK_ID);
    // The engine's completed fact says claims_passed 5: four contract claims and the re-import check.
    expect(screen.getByTestId('gen-ledger-event-10').textContent).toContain('4 项声明 + STEP 重新导入检查通过');
    const accepted = screen.getByTestId('gen-ledger-event-3').textContent ?? '';
    expect(accepted).toContain('req_002: 部分');
    expect(accepted).not.toMatch(/partial|complete/);
  });

  it('CANDIDATE_REVIEW: the built candidate waiting for the reviewer shows its id, revision and claim results', async () => {
    const detail = inProgressDetail('CANDIDATE_REVIEW', { revisions: 1, pending: true });
    detail.candidate = { candidateId: 'cand_002', actionId: 'act_002', revisionId: 'rev_002', claims: [{ claimId: 'claim_001', status: 'pass' }, { claimId: 'claim_002', status: 'pass' }, { claimId: 'claim_003', status: 'fail' }] };
    await renderGenerate(testBridge(detail), 'en', TASK_ID);
    const candidate = screen.getByTestId('gen-candidate');
    expect(candidate.getAttribute('data-candidate-id')).toBe('cand_002');
    expect(candidate.textContent).toContain('Candidate cand_002 of act_002, to become rev_002, is with the reviewer.');
    expect(candidate.textContent).toContain('2/3 claims pass');
  });

  it('no candidate waiting: no candidate line', async () => {
    const detail = inProgressDetail('AWAITING_ACTION', { revisions: 1 });
    detail.candidate = null;
    await renderGenerate(testBridge(detail), 'en', TASK_ID);
    expect(screen.queryByTestId('gen-candidate')).toBeNull();
  });

  it('the Describe-a-part mode lifts the panel width cap (GenerateView.test checks the document tab keeps it)', async () => {
    await renderGenerate(testBridge(completedDetail()), 'en', TASK_ID);
    expect(screen.getByTestId('generate-view').classList.contains('cdsl-words')).toBe(true);
  });
});
