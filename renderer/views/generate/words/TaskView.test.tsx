import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { completedDetail, completedEvents, firstRevisionDetail, inProgressDetail, RETRY_TASK_ID, TASK_ID, waitingRetryDetail } from './taskFixtures';
import { recordSavedFiles, renderGenerate, testBridge } from './testBridge';

const saved = recordSavedFiles();

const view = () => screen.getByTestId('gen-task-view');
const claimStatus = (id: string) => screen.getByTestId(`gen-claim-${id}`).getAttribute('data-status');

describe('Describe a part: the task view in every state', () => {
  it('DRAFTING_REQUIREMENTS: the request and what the author is doing, no drafts or contract yet', async () => {
    const b = testBridge(inProgressDetail('DRAFTING_REQUIREMENTS', { drafts: false, contract: false }));
    await renderGenerate(b, 'en', TASK_ID);
    expect(view().getAttribute('data-state')).toBe('DRAFTING_REQUIREMENTS');
    expect(screen.getByTestId('gen-source').textContent).toContain('flange OD 120 mm, 12 mm thick');
    expect(screen.getByTestId('gen-activity').getAttribute('data-phase')).toBe('drafting');
    expect(screen.queryByTestId('gen-drafts')).toBeNull();
    expect(screen.queryByTestId('gen-contract')).toBeNull();
    expect(screen.getByTestId('gen-cancel')).toBeTruthy();
  });

  it('REVIEWING_REQUIREMENTS: drafts without a verdict while the reviewer works', async () => {
    const b = testBridge(inProgressDetail('REVIEWING_REQUIREMENTS', { contract: false }));
    await renderGenerate(b, 'en', TASK_ID);
    expect(screen.getByTestId('gen-activity').getAttribute('data-phase')).toBe('reviewing_requirements');
    expect(screen.getByTestId('gen-draft-d_002').getAttribute('data-verdict')).toBe('pending');
    expect(screen.getByTestId('gen-drafts').textContent).toContain('not reviewed yet');
    // No contract: the review document is not asked for.
    expect(b.calls.genGetArtifact).not.toHaveBeenCalled();
  });

  it('ACTION_PENDING: the pending action card and the frozen contract with every claim pending, drafts with the reviewer verdict', async () => {
    const b = testBridge(inProgressDetail('ACTION_PENDING', { revisions: 1, pending: true }));
    await renderGenerate(b, 'en', TASK_ID);
    const card = screen.getByTestId('gen-pending-action');
    expect(card.getAttribute('data-action-id')).toBe('act_002');
    expect(card.textContent).toContain('centre bore');
    expect(card.textContent).toContain('hole');
    expect(card.textContent).toContain('req_001, req_002, req_003');
    expect(card.textContent).toContain('Ø40 through bore on the axis');
    expect(screen.getByTestId('gen-activity').getAttribute('data-phase')).toBe('writing_fragment');
    expect(screen.getByTestId('gen-contract')).toBeTruthy();
    expect(claimStatus('claim_003')).toBe('pending');
    expect(screen.getByTestId('gen-claim-claim_003').getAttribute('data-deterministic')).toBe('true');
    await waitFor(() => expect(screen.getByTestId('gen-draft-d_001').getAttribute('data-verdict')).toBe('pass'));
    expect(b.calls.genGetArtifact).toHaveBeenCalledWith({ taskId: TASK_ID, name: 'documents/requirements-review-v1.json' });
  });

  it('CANDIDATE_BUILDING: the activity says the kernel is building and the revision so far is in the viewer box', async () => {
    const b = testBridge(inProgressDetail('CANDIDATE_BUILDING', { revisions: 1, pending: true }));
    await renderGenerate(b, 'en', TASK_ID);
    expect(screen.getByTestId('gen-activity').getAttribute('data-phase')).toBe('building');
    expect(screen.getByTestId('gen-activity').textContent).toContain('Building the candidate on the kernel');
    expect(screen.getByTestId('gen-revisions').getAttribute('data-shown')).toBe('rev_001');
    // jsdom has no WebGL: the viewer box reports an error state instead of hanging in loading.
    await waitFor(() => expect(screen.getByTestId('gen-part-canvas').getAttribute('data-state')).toBe('error'));
  });

  it('WAITING_FOR_USER: the question with its reason code; Send answers it', async () => {
    const detail = inProgressDetail('WAITING_FOR_USER', { contract: false });
    detail.task.question = { reasonCode: 'AMBIGUOUS_DIMENSION', text: 'Is 120 mm the outer diameter or the bolt circle?', askedBy: 'author' };
    const b = testBridge(detail);
    await renderGenerate(b, 'zh-CN', TASK_ID);
    const question = screen.getByTestId('gen-question');
    expect(question.getAttribute('data-reason')).toBe('AMBIGUOUS_DIMENSION');
    expect(question.textContent).toContain('作者有一个问题');
    expect((screen.getByTestId('gen-answer-send') as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(screen.getByTestId('gen-answer-input'), { target: { value: '外径' } });
    await act(async () => {
      fireEvent.click(screen.getByTestId('gen-answer-send'));
    });
    expect(b.calls.genAnswer).toHaveBeenCalledWith({ taskId: TASK_ID, text: '外径' });
  });

  it('WAITING_FOR_USER: a refused answer shows the typed error next to the box', async () => {
    const detail = inProgressDetail('WAITING_FOR_USER', { contract: false });
    detail.task.question = { reasonCode: 'AMBIGUOUS_DIMENSION', text: 'Which diameter?', askedBy: 'author' };
    const b = testBridge(detail);
    b.failWith('genAnswer', { code: 'CDSL_TASK_BUSY', message: 'task is already running', retryable: true });
    await renderGenerate(b, 'en', TASK_ID);
    fireEvent.change(screen.getByTestId('gen-answer-input'), { target: { value: 'outer' } });
    await act(async () => {
      fireEvent.click(screen.getByTestId('gen-answer-send'));
    });
    expect((await screen.findByTestId('gen-answer-error')).getAttribute('data-code')).toBe('CDSL_TASK_BUSY');
  });

  it('WAITING_RETRY: the cause as a typed error and Resume', async () => {
    const b = testBridge(waitingRetryDetail());
    await renderGenerate(b, 'en', RETRY_TASK_ID);
    const notice = screen.getByTestId('gen-retry-notice');
    expect(notice.textContent).toContain('CDSL_REVIEW_SERVICE_UNAVAILABLE');
    expect(notice.textContent).toContain('No provider answered after 3 attempt(s)');
    expect(screen.getByTestId('gen-activity').getAttribute('data-phase')).toBe('waiting_retry');
    expect(screen.getByTestId('gen-revisions').getAttribute('data-count')).toBe('0');
    await act(async () => {
      fireEvent.click(screen.getByTestId('gen-resume'));
    });
    expect(b.calls.genResume).toHaveBeenCalledWith({ taskId: RETRY_TASK_ID });
  });

  it('FAILED: reason and typed error, and the last good revision still shown and downloadable', async () => {
    const detail = firstRevisionDetail();
    Object.assign(detail.task, {
      state: 'FAILED', failureReason: 'NO_PROGRESS_LIMIT', headRevision: 'rev_002',
      lastError: { code: 'CDSL_NO_PROGRESS_LIMIT', message: 'NO_PROGRESS_LIMIT: last error CDSL_SELECTOR_NOT_FOUND on submit_cdsl_fragment', retryable: false },
    });
    detail.revisions = detail.revisions.slice(0, 2);
    detail.shownRevision = 'rev_002';
    const b = testBridge(detail);
    await renderGenerate(b, 'en', TASK_ID);
    const notice = screen.getByTestId('gen-failed-notice');
    expect(notice.getAttribute('data-reason')).toBe('NO_PROGRESS_LIMIT');
    expect(notice.textContent).toContain('CDSL_NO_PROGRESS_LIMIT');
    expect(notice.textContent).toContain('rev_002');
    expect(screen.queryByTestId('gen-cancel')).toBeNull();
    expect(screen.queryByTestId('gen-change-part')).toBeNull();
    await act(async () => {
      fireEvent.click(screen.getByTestId('gen-download-step'));
    });
    expect(b.calls.genGetArtifact).toHaveBeenCalledWith({ taskId: TASK_ID, name: 'revisions/rev_002/model.step' });
    expect(saved.at(-1)).toEqual({ name: `${TASK_ID}-rev_002.step`, type: 'model/step' });
  });

  it('FAILED by cancel: says so and offers no resume', async () => {
    const detail = inProgressDetail('FAILED', { revisions: 1 });
    Object.assign(detail.task, { failureReason: 'CANCELLED' });
    await renderGenerate(testBridge(detail), 'en', TASK_ID);
    expect(screen.getByTestId('gen-failed-notice').textContent).toContain('The task was cancelled');
    expect(screen.queryByTestId('gen-resume')).toBeNull();
  });

  it('COMPLETED: every claim passes with evidence and face tokens, the ledger is history with typed facts, usage per role', async () => {
    const detail = completedDetail();
    // Half of the author's prompt served from the provider's cache.
    detail.usageByRole.author.cachedPromptTokens = 15_820;
    const b = testBridge(detail);
    await renderGenerate(b, 'en', TASK_ID);
    expect(screen.getByTestId('gen-activity').getAttribute('data-phase')).toBe('completed');
    expect(['claim_001', 'claim_002', 'claim_003', 'claim_004'].map(claimStatus)).toEqual(['pass', 'pass', 'pass', 'pass']);
    expect(screen.getByTestId('gen-claim-claim_001').textContent).toContain('measured mm [12, 120, 120]');
    expect(screen.getByTestId('gen-claim-claim_003').textContent).toContain('fc_1a6a7cd41d8ead4e78ab');
    expect(screen.getByTestId('gen-requirement-req_003').textContent).toContain('Four Ø10 through holes equally spaced on PCD 90');
    const events = screen.getAllByTestId(/^gen-ledger-event-/);
    expect(events.map((e) => e.getAttribute('data-type'))).toEqual(['proposed', 'candidate_built', 'accepted', 'proposed', 'candidate_built', 'accepted', 'proposed', 'candidate_built', 'accepted', 'completed']);
    const accepted = screen.getByTestId('gen-ledger-event-3');
    expect(accepted.textContent).toContain('operation extrude');
    expect(accepted.textContent).toContain('fragment bb48178f81d9');
    expect(accepted.textContent).toContain('req_002: partial');
    expect(screen.getByTestId('gen-ledger').textContent).toContain('facts, not a plan');
    await act(async () => {
      fireEvent.click(screen.getByTestId('gen-ledger-review-6'));
    });
    expect(b.calls.genGetArtifact).toHaveBeenCalledWith({ taskId: TASK_ID, name: 'revisions/rev_002/reviews/candidate-review.json' });
    const review = await screen.findByTestId('gen-ledger-review-6');
    expect(review.getAttribute('data-verdict')).toBe('accept');
    expect(review.textContent).toContain('reviewer: accepted');
    expect(review.textContent).toContain('drawings and claim results checked');
    const author = within(screen.getByTestId('gen-usage-author')).getAllByRole('cell').map((c) => c.textContent);
    expect(author).toEqual(['Author model', '14', '31,640', '15,820 (50 %)', '678', '124 KB', '283 ms']);
    expect(within(screen.getByTestId('gen-usage-reviewer')).getAllByRole('cell')[3]!.textContent).toBe('0 (0 %)');
    expect(screen.getByTestId('gen-usage').textContent).toContain('engine time 13.8 s');
  });

  it('COMPLETED: the slider shows an earlier revision\'s claims and before/after swaps to the parent revision', async () => {
    const b = testBridge(completedDetail());
    const first = firstRevisionDetail();
    b.byRevision.rev_001 = first;
    await renderGenerate(b, 'en', TASK_ID);
    const slider = screen.getByTestId('gen-revision-slider') as HTMLInputElement;
    expect(slider.value).toBe('2');
    expect(screen.getByTestId('gen-before-after').getAttribute('data-showing')).toBe('after');
    fireEvent.click(screen.getByTestId('gen-before-after'));
    expect(screen.getByTestId('gen-before-after').getAttribute('data-showing')).toBe('before');
    expect(screen.getByTestId('gen-revisions').textContent).toContain('3D view · rev_002');
    await act(async () => {
      fireEvent.change(slider, { target: { value: '0' } });
    });
    expect(b.calls.genShow).toHaveBeenLastCalledWith({ taskId: TASK_ID, revision: 'rev_001' });
    await waitFor(() => expect(screen.getByTestId('gen-revisions').getAttribute('data-shown')).toBe('rev_001'));
    expect(claimStatus('claim_001')).toBe('pass');
    expect(claimStatus('claim_004')).not.toBe('pass');
    // rev_001 has no parent: nothing to compare with.
    expect((screen.getByTestId('gen-before-after') as HTMLButtonElement).disabled).toBe(true);
  });

  it('COMPLETED: a claim with face tokens can be selected for highlighting', async () => {
    await renderGenerate(testBridge(completedDetail()), 'en', TASK_ID);
    fireEvent.click(screen.getByTestId('gen-claim-faces-claim_004'));
    expect(screen.getByTestId('gen-claim-claim_004').className).toContain('selected');
    expect(screen.getByTestId('gen-claim-faces-claim_004').getAttribute('aria-pressed')).toBe('true');
    expect(screen.queryByTestId('gen-claim-faces-claim_002')).toBeNull();
  });

  it('COMPLETED: downloads STEP, GLB, requirements.md and the zip of the shown revision', async () => {
    const b = testBridge(completedDetail());
    await renderGenerate(b, 'en', TASK_ID);
    for (const id of ['gen-download-glb', 'gen-download-requirements', 'gen-download-zip']) {
      await act(async () => {
        fireEvent.click(screen.getByTestId(id));
      });
    }
    expect(b.calls.genGetArtifact).toHaveBeenCalledWith({ taskId: TASK_ID, name: 'revisions/rev_003/model.glb' });
    expect(b.calls.genGetArtifact).toHaveBeenCalledWith({ taskId: TASK_ID, name: 'requirements.md' });
    expect(b.calls.genExportZip).toHaveBeenCalledWith({ taskId: TASK_ID, revision: 'rev_003' });
    expect(saved.map((s) => s.name)).toEqual(expect.arrayContaining([`${TASK_ID}-rev_003.glb`, `${TASK_ID}-requirements.md`, `${TASK_ID}-rev_003.zip`]));
  });

  it('COMPLETED: "Change this part" starts a new task from the shown revision with the change request', async () => {
    const b = testBridge(completedDetail());
    await renderGenerate(b, 'en', TASK_ID);
    fireEvent.click(screen.getByTestId('gen-change-part'));
    fireEvent.change(screen.getByTestId('gen-change-request'), { target: { value: 'make the bore 45 mm and add a 2 mm chamfer on the outer edge' } });
    await act(async () => {
      fireEvent.click(screen.getByTestId('gen-change-start'));
    });
    expect(b.calls.genStart).toHaveBeenCalledWith({ request: 'make the bore 45 mm and add a 2 mm chamfer on the outer edge', fromTask: TASK_ID, revision: 'rev_003', author: 'chat/scripted-model', reviewer: 'chat/scripted-model' });
  });

  it('a visual claim is marked non-deterministic', async () => {
    const detail = completedDetail();
    detail.contract!.requirements[0]!.claims.push({ claimId: 'claim_005', kind: 'visual_check', expected: { description: 'looks like a flange' }, deterministic: false, status: 'pending', message: null, evidence: null });
    await renderGenerate(testBridge(detail), 'en', TASK_ID);
    const claim = screen.getByTestId('gen-claim-claim_005');
    expect(claim.getAttribute('data-deterministic')).toBe('false');
    expect(claim.textContent).toContain('visual · not measured');
  });
});

describe('Describe a part: the task list and live updates', () => {
  it('lists tasks with state, excerpt, models, revisions and tokens, and filters by state', async () => {
    const b = testBridge(completedDetail());
    await renderGenerate(b);
    const row = await screen.findByTestId(`gen-task-row-${TASK_ID}`);
    expect(row.getAttribute('data-state')).toBe('COMPLETED');
    expect(row.textContent).toContain('chat/scripted-model / chat/scripted-model · 3 revisions · 314,061 tokens');
    await act(async () => {
      fireEvent.change(screen.getByTestId('gen-task-filter'), { target: { value: 'FAILED' } });
    });
    expect(b.calls.genList).toHaveBeenLastCalledWith({ state: 'FAILED' });
    expect(screen.queryByTestId(`gen-task-row-${TASK_ID}`)).toBeNull();
    expect(screen.getByTestId('gen-task-list').textContent).toContain('No part is in this state.');
  });

  it('offers resume on a WAITING_RETRY row and cancel on a running one', async () => {
    const b = testBridge(waitingRetryDetail());
    await renderGenerate(b);
    await act(async () => {
      fireEvent.click(await screen.findByTestId(`gen-row-resume-${RETRY_TASK_ID}`));
    });
    expect(b.calls.genResume).toHaveBeenCalledWith({ taskId: RETRY_TASK_ID });
    await act(async () => {
      fireEvent.click(screen.getByTestId(`gen-row-cancel-${RETRY_TASK_ID}`));
    });
    expect(b.calls.genCancel).toHaveBeenCalledWith({ taskId: RETRY_TASK_ID });
  });

  it('follows genTaskEvent: a burst of events causes one refetch, a repeated seq none, and the view moves on', async () => {
    const b = testBridge(inProgressDetail('AWAITING_ACTION', { revisions: 1 }));
    await renderGenerate(b, 'en', TASK_ID);
    await waitFor(() => expect(b.calls.genShow.mock.calls.length).toBeGreaterThan(0));
    // Let the catch-up refetch of subscribing settle first.
    await new Promise((r) => setTimeout(r, 250));
    const showsBefore = b.calls.genShow.mock.calls.length;
    const events = completedEvents();
    b.detail = inProgressDetail('CANDIDATE_BUILDING', { revisions: 1, pending: true });
    act(() => {
      for (const e of events.slice(7, 9)) b.emit(e);
    });
    // The latest event already tells the phase before the refetch lands.
    expect(screen.getByTestId('gen-activity').getAttribute('data-phase')).toBe('building');
    await waitFor(() => expect(b.calls.genShow.mock.calls.length).toBe(showsBefore + 1));
    await waitFor(() => expect(view().getAttribute('data-state')).toBe('CANDIDATE_BUILDING'));
    act(() => b.emit(events[8]!));
    await new Promise((r) => setTimeout(r, 300));
    expect(b.calls.genShow.mock.calls.length).toBe(showsBefore + 1);
    b.detail = completedDetail();
    act(() => b.emit(events[16]!));
    await waitFor(() => expect(view().getAttribute('data-state')).toBe('COMPLETED'));
    expect(b.calls.genList.mock.calls.length).toBeGreaterThanOrEqual(3);
  });
});
