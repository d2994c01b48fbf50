import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AppBridge } from '../../../shared/ipc/channels';
import type { SystemCheckReport } from '../../../shared/ipc/contracts/platform';
import type { Locale } from '../../i18n/messages';
import { createAppStore } from '../../store/appStore';
import { StoreProvider } from '../../store/StoreContext';
import { SystemCheckPanel } from './SystemCheckPanel';

const report: SystemCheckReport = {
  checkedAt: '2026-12-01T10:00:00.000Z',
  ok: false,
  items: [
    { id: 'kernel', group: 'kernel', label: 'OpenCascade kernel', status: 'pass', detail: 'kernel started in 700 ms', durationMs: 710 },
    { id: 'provider:qwen', group: 'provider', label: 'Provider qwen (settings)', status: 'fail', detail: '[LLM_AUTH] the provider rejected the key', durationMs: 40 },
    { id: 'future-check', group: 'runtime', label: 'Something new', status: 'warn', detail: 'optional', durationMs: 1 },
  ],
};

function renderPanel(runSystemCheck: AppBridge['runSystemCheck'], locale: Locale = 'en') {
  const store = createAppStore({ runSystemCheck, on: () => () => {} } as unknown as AppBridge, locale);
  render(
    <StoreProvider store={store}>
      <SystemCheckPanel />
    </StoreProvider>,
  );
}

afterEach(cleanup);

describe('Settings → System check', () => {
  it('runs without model calls by default and lists each row with its translated label and result', async () => {
    const run = vi.fn(async () => ({ ok: true as const, value: report }));
    renderPanel(run);
    await act(async () => fireEvent.click(screen.getByTestId('system-check-run')));
    expect(run).toHaveBeenCalledWith({ liveModels: false });
    expect(screen.getByTestId('system-check-summary').textContent).toContain('1 check(s) failed.');
    expect(screen.getByTestId('system-check-provider:qwen').textContent).toContain('Provider qwen');
    expect(screen.getByTestId('system-check-provider:qwen').textContent).toContain('[LLM_AUTH]');
    expect(screen.getByTestId('system-check-future-check').textContent).toContain('Something new');
  });

  it('sends the model-call choice and shows a transport failure as a typed error, in Chinese', async () => {
    const run = vi.fn(async () => ({ ok: false as const, error: { code: 'IPC_DISCONNECTED', message: 'host gone', retryable: true } }));
    renderPanel(run, 'zh-CN');
    fireEvent.click(screen.getByTestId('system-check-live'));
    await act(async () => fireEvent.click(screen.getByText('运行系统检查')));
    expect(run).toHaveBeenCalledWith({ liveModels: true });
    expect(screen.getByTestId('system-check-error').textContent).toBe('IPC_DISCONNECTED: host gone');
  });
});
