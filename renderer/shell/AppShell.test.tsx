import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { Result } from '../../shared/errors';
import type { AppBridge } from '../../shared/ipc/channels';
import { App } from '../App';
import { createAppStore } from '../store/appStore';
import { StoreProvider } from '../store/StoreContext';
import { bareSettings } from '../testSupport/bareSettings';

const settings = bareSettings('en');

/** A bridge answering from plain functions: the renderer only ever sees AppBridge. */
function bridgeWith(overrides: Partial<Record<keyof AppBridge, (input: unknown) => Promise<Result<unknown>>>>): AppBridge {
  const ok = (value: unknown) => async () => ({ ok: true as const, value });
  const base: Record<string, unknown> = {
    getAppInfo: ok({ version: '9.9.9', transport: 'browser', dataDir: '/data', systemLocale: 'en-US', startupNotices: [] }),
    getSettings: ok(settings),
    setLocale: async (input: { locale: 'en' | 'zh-CN' }) => ({ ok: true, value: { ...settings, locale: input.locale } }),
    on: () => () => {},
    ...overrides,
  };
  // Channels a test does not script answer with a typed error (as a real host would for a
  // failing call), so every view can mount without crashing.
  return new Proxy(base, {
    get: (target, name: string) =>
      name in target ? target[name] : async () => ({ ok: false, error: { code: 'TEST_NOT_SCRIPTED', message: `not scripted: ${name}`, retryable: false } }),
  }) as unknown as AppBridge;
}

afterEach(cleanup);

async function renderApp(bridge: AppBridge) {
  const store = createAppStore(bridge, 'en');
  await act(async () => {
    render(
      <StoreProvider store={store}>
        <App />
      </StoreProvider>,
    );
  });
  return store;
}

describe('app shell', () => {
  it('shows the four areas and switches between them', async () => {
    await renderApp(bridgeWith({}));
    for (const area of ['images', 'review', 'generate', 'settings']) {
      fireEvent.click(screen.getByTestId(`nav-${area}`));
      expect(screen.getByTestId(`view-${area}`)).toBeTruthy();
      expect(screen.getByTestId(`nav-${area}`).getAttribute('aria-current')).toBe('page');
    }
    expect(screen.getByTestId('status-bar').textContent).toContain('v9.9.9');
  });

  it('shows start-up notices and failed calls as typed errors in the banner', async () => {
    await renderApp(
      bridgeWith({
        getAppInfo: async () => ({
          ok: true,
          value: { version: '1', transport: 'browser', dataDir: '/d', systemLocale: 'en', startupNotices: [{ code: 'STORE_CORRUPT_MOVED_ASIDE', message: 'moved to /d/x' }] },
        }),
        getSettings: async () => ({ ok: false, error: { code: 'SETTINGS_TOO_NEW', message: 'Settings file is newer than this app.', retryable: false } }),
      }),
    );
    const codes = screen.getAllByTestId('error-banner').map((b) => b.getAttribute('data-code'));
    expect(codes).toEqual(expect.arrayContaining(['STORE_CORRUPT_MOVED_ASIDE', 'SETTINGS_TOO_NEW']));
    const before = screen.getAllByTestId('error-banner').length;
    fireEvent.click(screen.getAllByText('Dismiss')[0]!);
    expect(screen.getAllByTestId('error-banner')).toHaveLength(before - 1);
  });

  it('says in the banner that the disk is full, which folder and how much is needed, in English and Chinese, when a call meets a full disk', async () => {
    const full = { code: 'STORAGE_FULL', message: '/data/sets has no free space left: at least 2.0 MB more is needed.', retryable: true, data: { folder: '/data/sets', neededBytes: 2 * 1048576, errno: 'ENOSPC' } };
    const store = await renderApp(bridgeWith({ reviewSetCreate: async () => ({ ok: false, error: full }) }));
    await act(async () => {
      await store.getState().createSet('drawings', [new File(['0\nSECTION\n'], 'a.dxf')]);
    });
    const banner = screen.getAllByTestId('error-banner').find((b) => b.getAttribute('data-code') === 'STORAGE_FULL')!;
    expect(banner.textContent).toContain('Not enough disk space for /data/sets (at least 2.0 MB more is needed)');
    expect(banner.textContent).toContain('Nothing already saved was lost');
    await act(async () => store.getState().setLocaleLocal('zh-CN'));
    expect(screen.getAllByTestId('error-banner').find((b) => b.getAttribute('data-code') === 'STORAGE_FULL')!.textContent).toContain('/data/sets 所在磁盘空间不足（至少还需要 2.0 MB）');
  });

  it('switches every label to Simplified Chinese when the user picks it', async () => {
    await renderApp(bridgeWith({}));
    fireEvent.click(screen.getByTestId('nav-settings'));
    await act(async () => {
      fireEvent.click(screen.getByTestId('locale-zh-CN'));
    });
    expect(screen.getByTestId('nav-settings').textContent).toContain('设置');
    expect(screen.getByTestId('nav-review').textContent).toContain('审图');
  });

  it('shows an error only on the view that raised it, says what failed in the user\'s language, and keeps the host\'s wording under Details', async () => {
    const store = await renderApp(bridgeWith({}));
    await act(async () => {
      store.getState().setLocaleLocal('zh-CN');
      store.getState().reportError({ code: 'REVIEW_SOMETHING_NEW', message: 'dxf reader: group code 999 unexpected', retryable: true }, 'error', { view: 'review', action: 'banner.action.openDrawing' });
    });
    const banner = screen.getByTestId('error-banner');
    expect(banner.getAttribute('data-view')).toBe('review');
    expect(banner.querySelector('strong')!.textContent).toBe('打开图纸失败： 此操作暂时未能完成，请重试。');
    expect(banner.querySelector('details')!.textContent).toContain('group code 999');
    fireEvent.click(screen.getByTestId('nav-images'));
    expect(screen.queryByTestId('error-banner')).toBeNull();
    fireEvent.click(screen.getByTestId('nav-review'));
    fireEvent.click(screen.getByTestId('error-banner-dismiss'));
    expect(screen.queryByTestId('error-banner')).toBeNull();
  });
});
