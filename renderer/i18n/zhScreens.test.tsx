import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { App } from '../App';
import { createAppStore } from '../store/appStore';
import { StoreProvider } from '../store/StoreContext';
import { englishLeft } from '../testSupport/englishLeft';
import { scriptedBridge } from '../testSupport/scriptedBridge';
import { bareSettings } from '../testSupport/bareSettings';

const ok = (value: unknown) => ({ ok: true as const, value });
const settings = bareSettings('zh-CN');

afterEach(cleanup);

describe('简体中文 on every view', () => {
  it('leaves no English words and no raw catalog keys on any view, failed calls included', async () => {
    // Calls this test does not script fail with a typed error: their banners and notices must be Chinese too.
    const { bridge, calls } = scriptedBridge({
      getAppInfo: () => ok({ version: '1.0.0', transport: 'browser', dataDir: '/data', systemLocale: 'zh-CN', startupNotices: [] }),
      getSettings: () => ok(settings),
      reviewListRuns: () => ok({ runs: [] }),
      visionListSessions: () => ok([]),
      genList: () => ok([]),
      cadgenListExamples: () => ok([]),
    });
    const store = createAppStore(bridge, 'zh-CN');
    await act(async () => {
      render(
        <StoreProvider store={store}>
          <App />
        </StoreProvider>,
      );
    });
    const left: Record<string, string[]> = {};
    for (const view of ['review', 'images', 'generate', 'settings'] as const) {
      await act(async () => {
        fireEvent.click(screen.getByTestId(`nav-${view}`));
        await new Promise((r) => setTimeout(r, 50));
      });
      // textContent, not what is painted: screen-reader-only text and folded details count too. Strict: any
      // word no Chinese message uses is English left over; the failed calls' host words (their channel names) are data.
      const english = englishLeft(document.body.textContent ?? '', ['/data', ...calls.map((c) => c.channel)], { strict: true });
      if (english.length > 0) left[view] = english;
    }
    expect(left).toEqual({});
  });
});
