import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AppBridge } from '../../../shared/ipc/channels';
import { createAppStore } from '../../store/appStore';
import { StoreProvider } from '../../store/StoreContext';
import { ProviderForm } from './ProviderForm';

const refused = { code: 'SETTINGS_BASE_URL_NOT_ALLOWED', message: 'not saved in this test', retryable: false };

function renderForm(locale: 'en' | 'zh-CN' = 'en') {
  const saveProvider = vi.fn(async () => ({ ok: false as const, error: refused }));
  const store = createAppStore({ saveProvider, on: () => () => {} } as unknown as AppBridge, locale);
  render(
    <StoreProvider store={store}>
      <ProviderForm existing={null} onDone={() => undefined} />
    </StoreProvider>,
  );
  return saveProvider;
}

const type = (testId: string, value: string) => fireEvent.change(screen.getByTestId(testId), { target: { value } });

afterEach(cleanup);

describe('Settings → provider form, local addresses', () => {
  it('asks a Custom provider on a private address for the confirmation and sends it only when ticked', async () => {
    const save = renderForm();
    type('provider-preset', 'custom');
    type('provider-base-url', 'https://gateway.example/v1');
    expect(screen.queryByTestId('provider-allow-local')).toBeNull();
    type('provider-base-url', 'http://192.168.1.9:8000/v1');
    type('provider-models', 'qwen2-vl');
    expect(screen.getByTestId('provider-form').textContent).toContain('Allow this local or private address');
    await act(async () => fireEvent.click(screen.getByTestId('provider-save')));
    expect(save).toHaveBeenLastCalledWith(expect.objectContaining({ baseUrl: 'http://192.168.1.9:8000/v1', allowLocalNetwork: false }));
    fireEvent.click(screen.getByTestId('provider-allow-local'));
    await act(async () => fireEvent.click(screen.getByTestId('provider-save')));
    expect(save).toHaveBeenLastCalledWith(expect.objectContaining({ allowLocalNetwork: true }));
    expect(screen.getByTestId('provider-form-error').textContent).toContain('SETTINGS_BASE_URL_NOT_ALLOWED');
  });

  it('never offers it to Ollama or a hosted preset, even on a local address', async () => {
    const save = renderForm('zh-CN');
    type('provider-preset', 'ollama');
    expect(screen.queryByTestId('provider-allow-local')).toBeNull();
    type('provider-preset', 'openai');
    type('provider-base-url', 'http://127.0.0.1:9/v1');
    expect(screen.queryByTestId('provider-allow-local')).toBeNull();
    await act(async () => fireEvent.click(screen.getByTestId('provider-save')));
    expect(save).toHaveBeenLastCalledWith(expect.objectContaining({ preset: 'openai', allowLocalNetwork: false }));
    type('provider-preset', 'custom');
    type('provider-base-url', 'http://127.0.0.1:9/v1');
    expect(screen.getByTestId('provider-form').textContent).toContain('允许此本机或内网地址');
  });
});
