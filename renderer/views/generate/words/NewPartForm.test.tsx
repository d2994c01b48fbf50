import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { completedDetail } from './taskFixtures';
import { renderGenerate, testBridge } from './testBridge';

beforeEach(() => {
  vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: () => 'blob:test/1', revokeObjectURL: () => {} }));
  vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

describe('Describe a part: the new-part form', () => {
  it('is the default tab and picks the Settings roles, showing each model\'s stored conformance', async () => {
    const b = testBridge(completedDetail());
    b.models['openai/gpt-4.1'] = { model: 'openai/gpt-4.1', status: 'passed', checkedAt: '2026-12-01T20:00:00.000Z', passedChecks: 26, totalChecks: 26, failures: [] };
    await renderGenerate(b);
    expect(screen.getByTestId('gen-tab-words').getAttribute('aria-selected')).toBe('true');
    expect((screen.getByTestId('gen-author-model') as HTMLSelectElement).value).toBe('openai/gpt-4.1');
    expect((screen.getByTestId('gen-reviewer-model') as HTMLSelectElement).value).toBe('openai/gpt-4.1-mini');
    await waitFor(() => expect(screen.getByTestId('gen-model-status-author').getAttribute('data-status')).toBe('passed'));
    expect(screen.getByTestId('gen-model-status-reviewer').getAttribute('data-status')).toBe('unchecked');
    expect(b.calls.genModelStatus).toHaveBeenCalledWith({ models: ['openai/gpt-4.1', 'openai/gpt-4.1-mini'] });
  });

  it('runs the conformance check of a picked model and lists the checks that failed', async () => {
    const b = testBridge(completedDetail());
    await renderGenerate(b);
    await act(async () => {
      fireEvent.change(screen.getByTestId('gen-reviewer-model'), { target: { value: 'openai/gpt-4.1' } });
    });
    await act(async () => {
      fireEvent.click(screen.getByTestId('gen-check-reviewer'));
    });
    expect(b.calls.genCheckModel).toHaveBeenCalledWith({ model: 'openai/gpt-4.1' });
    await waitFor(() => expect(screen.getByTestId('gen-model-status-reviewer').getAttribute('data-status')).toBe('failed'));
    // Both pickers show the same model, so both show its new result.
    expect(screen.getByTestId('gen-model-status-author').textContent).toBe('Protocol check failed (24/26)');
    expect(screen.getByTestId('gen-check-failures-reviewer').textContent).toContain('fragment:hole — answered in prose instead of a tool call');
  });

  it('shows a check that could not run as its typed error', async () => {
    const b = testBridge(completedDetail());
    b.failWith('genCheckModel', { code: 'LLM_TRANSPORT_UNAVAILABLE', message: 'connection refused', retryable: true });
    await renderGenerate(b);
    await act(async () => {
      fireEvent.click(screen.getByTestId('gen-check-author'));
    });
    const error = await screen.findByTestId('gen-check-error-author');
    expect(error.getAttribute('data-code')).toBe('LLM_TRANSPORT_UNAVAILABLE');
    expect(error.textContent).toBe('LLM_TRANSPORT_UNAVAILABLE connection refused');
  });

  it('starts a task with the request and the filled budgets only, leaving the role models to the host, and opens it', async () => {
    const b = testBridge(completedDetail());
    await renderGenerate(b);
    expect((screen.getByTestId('gen-start') as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(screen.getByTestId('gen-request'), { target: { value: '法兰外径 120 mm，厚 12 mm\n中心孔 Ø40' } });
    fireEvent.change(screen.getByTestId('gen-budget-maxAuthorTurns'), { target: { value: '30' } });
    fireEvent.change(screen.getByTestId('gen-budget-maxWallMs'), { target: { value: '5' } });
    await act(async () => {
      fireEvent.click(screen.getByTestId('gen-start'));
    });
    expect(b.calls.genStart).toHaveBeenCalledWith({ request: '法兰外径 120 mm，厚 12 mm\n中心孔 Ø40', budgets: { maxAuthorTurns: 30, maxWallMs: 300_000 } });
    await waitFor(() => expect(screen.getByTestId('gen-task-view').getAttribute('data-task-id')).toBe(b.detail.task.taskId));
  });

  it('keeps Start disabled while a budget is out of range and names the field', async () => {
    const b = testBridge(completedDetail());
    await renderGenerate(b);
    fireEvent.change(screen.getByTestId('gen-request'), { target: { value: 'a plate' } });
    fireEvent.change(screen.getByTestId('gen-budget-maxPromptTokens'), { target: { value: '10' } });
    expect(screen.getByTestId('gen-budget-error').textContent).toContain('Prompt tokens');
    expect((screen.getByTestId('gen-start') as HTMLButtonElement).disabled).toBe(true);
  });

  it('sends a model picked instead of the role and shows a refused start as code and message', async () => {
    const b = testBridge(completedDetail());
    b.failWith('genStart', { code: 'CDSL_MODEL_STRUCTURED_OUTPUT_UNSUPPORTED', message: 'model openai/gpt-4.1-mini has not passed the generation conformance suite', retryable: false });
    await renderGenerate(b, 'zh-CN');
    fireEvent.change(screen.getByTestId('gen-request'), { target: { value: 'a plate' } });
    fireEvent.change(screen.getByTestId('gen-author-model'), { target: { value: 'openai/gpt-4.1-mini' } });
    await act(async () => {
      fireEvent.click(screen.getByTestId('gen-start'));
    });
    expect(b.calls.genStart).toHaveBeenCalledWith({ request: 'a plate', author: 'openai/gpt-4.1-mini' });
    const error = await screen.findByTestId('gen-start-error');
    expect(error.getAttribute('data-code')).toBe('CDSL_MODEL_STRUCTURED_OUTPUT_UNSUPPORTED');
    expect(error.textContent).toContain('无法开始');
    expect(screen.queryByTestId('gen-task-view')).toBeNull();
  });
});
