import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AppBridge } from '../../../shared/ipc/channels';
import { createAppStore } from '../../store/appStore';
import { StoreProvider } from '../../store/StoreContext';
import { SourcePanel } from './SourcePanel';

function renderPanel(locale: 'en' | 'zh-CN' = 'en') {
  const reviewConnectCad = vi.fn(async () => ({ ok: false as const, error: { code: 'CAD_NOT_CONNECTED', message: 'nothing listens in this test', retryable: true } }));
  const store = createAppStore({ reviewConnectCad, on: () => () => {} } as unknown as AppBridge, locale);
  render(
    <StoreProvider store={store}>
      <SourcePanel />
    </StoreProvider>,
  );
  return reviewConnectCad;
}

afterEach(cleanup);

describe('Review → connecting to AutoCAD', () => {
  it('connects to this machine at once', async () => {
    const connect = renderPanel();
    await act(async () => fireEvent.click(screen.getByTestId('cad-connect')));
    expect(connect).toHaveBeenCalledWith({ host: '127.0.0.1', port: 8080 });
    expect(screen.queryByTestId('cad-remote-confirm')).toBeNull();
  });

  it('asks before connecting to another computer and sends confirmRemote only after the user agreed', async () => {
    const connect = renderPanel();
    fireEvent.change(screen.getByTestId('cad-host'), { target: { value: '10.0.0.5' } });
    await act(async () => fireEvent.click(screen.getByTestId('cad-connect')));
    expect(connect).not.toHaveBeenCalled();
    expect(screen.getByTestId('cad-remote-confirm').textContent).toContain('10.0.0.5:8080 is another computer');
    fireEvent.click(screen.getByTestId('cad-remote-cancel'));
    expect(screen.queryByTestId('cad-remote-confirm')).toBeNull();
    expect(connect).not.toHaveBeenCalled();
    await act(async () => fireEvent.click(screen.getByTestId('cad-connect')));
    await act(async () => fireEvent.click(screen.getByTestId('cad-remote-ok')));
    expect(connect).toHaveBeenCalledWith({ host: '10.0.0.5', port: 8080, confirmRemote: true });
  });

  it('asks in Simplified Chinese too', async () => {
    renderPanel('zh-CN');
    fireEvent.change(screen.getByTestId('cad-host'), { target: { value: 'cad.example' } });
    await act(async () => fireEvent.click(screen.getByTestId('cad-connect')));
    expect(screen.getByTestId('cad-remote-confirm').textContent).toContain('cad.example:8080 是另一台计算机');
  });
});
