import { act, cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { GenTaskDetail } from '../../../../shared/ipc/contracts/generation';
import { inProgressDetail, TASK_ID } from './taskFixtures';
import { renderGenerate, testBridge } from './testBridge';

afterEach(() => {
  cleanup();
});

/** A task that ran out of author turns (80 of 80) in ACTION_PENDING, as the host shows it. */
function exhaustedDetail(): GenTaskDetail {
  const detail = inProgressDetail('FAILED', { revisions: 1 });
  Object.assign(detail.task, {
    failureReason: 'BUDGET_EXHAUSTED',
    lastError: { code: 'CDSL_BUDGET_EXHAUSTED', message: 'budget exhausted: author_turns', retryable: false, data: { limit: 'author_turns' } },
    usage: { ...detail.task.usage, authorTurns: 80 },
  });
  detail.budget = { ...detail.budget, maxAuthorTurns: 80 };
  detail.budgetExhausted = { limit: 'author_turns', field: 'maxAuthorTurns', spent: 80, max: 80 };
  return detail;
}

describe('continuing a task that ran out of budget', () => {
  it('shows the exhausted limit with what was spent, suggests half as much again and resumes with the value entered', async () => {
    const b = testBridge(exhaustedDetail());
    await renderGenerate(b, 'en', TASK_ID);
    const raise = screen.getByTestId('gen-budget-raise');
    expect(raise.getAttribute('data-limit')).toBe('author_turns');
    expect(raise.textContent).toContain('Spent so far: 80 of 80');
    expect(raise.textContent).toContain('Author turns');
    expect((screen.getByTestId('gen-budget-raise-input') as HTMLInputElement).value).toBe('120');
    fireEvent.change(screen.getByTestId('gen-budget-raise-input'), { target: { value: '150' } });
    await act(async () => {
      fireEvent.click(screen.getByTestId('gen-budget-raise-continue'));
    });
    expect(b.calls.genResume).toHaveBeenCalledWith({ taskId: TASK_ID, budget: { maxAuthorTurns: 150 } });
  });

  it('shows the typed refusal of a raise under the field, and offers no Continue for a value that is not a positive whole number', async () => {
    const b = testBridge(exhaustedDetail());
    b.failWith('genResume', { code: 'CDSL_BUDGET_INVALID', message: 'author_turns must be above what the task already spent (80); got 80', retryable: false });
    await renderGenerate(b, 'zh-CN', TASK_ID);
    expect(screen.getByTestId('gen-budget-raise').textContent).toContain('已用 80 / 80');
    fireEvent.change(screen.getByTestId('gen-budget-raise-input'), { target: { value: '2.5' } });
    expect((screen.getByTestId('gen-budget-raise-continue') as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(screen.getByTestId('gen-budget-raise-input'), { target: { value: '80' } });
    await act(async () => {
      fireEvent.click(screen.getByTestId('gen-budget-raise-continue'));
    });
    expect((await screen.findByTestId('gen-budget-raise-error')).getAttribute('data-code')).toBe('CDSL_BUDGET_INVALID');
  });

  it('is not offered for a task that failed for another reason', async () => {
    const detail = exhaustedDetail();
    Object.assign(detail.task, { failureReason: 'NO_PROGRESS_LIMIT' });
    detail.budgetExhausted = null;
    await renderGenerate(testBridge(detail), 'en', TASK_ID);
    expect(screen.queryByTestId('gen-budget-raise')).toBeNull();
  });
});
