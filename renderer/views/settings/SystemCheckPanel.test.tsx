import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AppBridge } from '../../../shared/ipc/channels';
import type { SystemCheckReport } from '../../../shared/ipc/contracts/platform';
import type { Locale } from '../../i18n/messages';
import { englishLeft } from '../../testSupport/englishLeft';
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
    expect(screen.getByTestId('system-check-summary').textContent).toContain('1 check failed.');
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

describe('Settings → System check, provider rows', () => {
  const providerReport: SystemCheckReport = {
    checkedAt: '2026-12-01T10:00:00.000Z',
    ok: false,
    items: [
      { id: 'provider:gw-a', group: 'provider', label: 'Provider Custom (OpenAI-compatible) (settings)', status: 'fail', detail: 'model m1: [LLM_NOT_FOUND] …', durationMs: 40, provider: { id: 'gw-a', name: 'Custom (OpenAI-compatible)', model: 'm1' }, problem: { code: 'not-found', status: 404, host: 'gw.example:8080', action: 'edit-provider' } },
      { id: 'provider:gw-b', group: 'provider', label: 'Provider Custom (OpenAI-compatible) (settings)', status: 'fail', detail: 'model m2: [LLM_AUTH] …', durationMs: 30, provider: { id: 'gw-b', name: 'Custom (OpenAI-compatible)', model: 'm2' }, problem: { code: 'key-refused', status: 401, host: 'other.example', action: 'edit-provider' } },
      { id: 'provider:qwen', group: 'provider', label: 'Provider Qwen (settings)', status: 'pass', detail: 'model qwen-vl-max answered an authenticated call; CAD protocol schemas not checked (run cadsight gen check …)', durationMs: 300, provider: { id: 'qwen', name: 'Qwen (DashScope)', model: 'qwen-vl-max' } },
    ],
  };

  function renderWith(locale: Locale, onEditProvider = vi.fn()) {
    const store = createAppStore({ runSystemCheck: async () => ({ ok: true as const, value: providerReport }), on: () => () => {} } as unknown as AppBridge, locale);
    render(
      <StoreProvider store={store}>
        <SystemCheckPanel onEditProvider={onEditProvider} />
      </StoreProvider>,
    );
    return onEditProvider;
  }

  it('tells two providers of the same preset apart by id and words 404 and 401 as failures with their reason, not CLI advice', async () => {
    const onEdit = renderWith('en');
    await act(async () => fireEvent.click(screen.getByTestId('system-check-run')));
    const a = screen.getByTestId('system-check-provider:gw-a').textContent ?? '';
    const b = screen.getByTestId('system-check-provider:gw-b').textContent ?? '';
    expect(a).toContain('Custom (OpenAI-compatible) (gw-a)');
    expect(b).toContain('Custom (OpenAI-compatible) (gw-b)');
    expect(a).toContain('gw.example:8080 answered "not found" (HTTP 404)');
    expect(b).toContain('other.example refused the API key (HTTP 401)');
    expect(a).toContain('Failed');
    const qwen = screen.getByTestId('system-check-provider:qwen').textContent ?? '';
    expect(qwen).toContain('Model qwen-vl-max answered.');
    expect(qwen).not.toContain('cadsight');
    fireEvent.click(screen.getByTestId('system-check-edit-gw-b'));
    expect(onEdit).toHaveBeenCalledWith('gw-b');
    expect(screen.queryByTestId('system-check-edit-qwen')).toBeNull();
  });

  it('says the same in Chinese', async () => {
    renderWith('zh-CN');
    await act(async () => fireEvent.click(screen.getByTestId('system-check-run')));
    const b = screen.getByTestId('system-check-provider:gw-b').textContent ?? '';
    expect(b).toContain('other.example 拒绝了 API 密钥（HTTP 401）');
    expect(b).toContain('编辑服务商');
  });
});

describe('Settings → System check, rows other than providers', () => {
  const folder = '/home/li/.cadsight';
  const findings: SystemCheckReport = {
    checkedAt: '2026-12-01T10:00:00.000Z',
    ok: false,
    items: [
      { id: 'node', group: 'runtime', label: 'Node.js', status: 'pass', detail: 'v20.19.0', durationMs: 0, finding: { code: 'node-version', params: { version: '20.19.0' } } },
      { id: 'electron', group: 'runtime', label: 'Desktop app', status: 'warn', detail: 'no Electron binary …', durationMs: 2, finding: { code: 'electron-missing', params: {} } },
      { id: 'kernel', group: 'kernel', label: 'OpenCascade kernel', status: 'pass', detail: 'kernel started in 700 ms', durationMs: 710, finding: { code: 'kernel-started', params: { ms: 700 } } },
      { id: 'ffmpeg', group: 'runtime', label: 'ffmpeg (video)', status: 'warn', detail: '"ffmpeg" does not run …', durationMs: 3, finding: { code: 'ffmpeg-missing', params: { path: 'ffmpeg' } } },
      { id: 'fonts', group: 'runtime', label: 'CJK font (screenshots)', status: 'pass', detail: '/usr/share/fonts/wqy.ttc', durationMs: 40, finding: { code: 'font-loaded', params: { file: '/usr/share/fonts/wqy.ttc' } } },
      { id: 'data', group: 'data', label: 'Data folder', status: 'pass', detail: `${folder}: writable, 1.5 MB in 12 files; …`, durationMs: 5, finding: { code: 'data-ok', params: { folder, megabytes: 1.5, files: 12, busyMs: 5000 } } },
      { id: 'provider:none', group: 'provider', label: 'Model providers', status: 'warn', detail: 'none configured: …', durationMs: 0, finding: { code: 'providers-none', params: {} } },
      { id: 'provider:environment', group: 'provider', label: 'Providers (environment)', status: 'fail', detail: '[LLM_NOT_CONFIGURED] CHAT_BASE_URL is missing', durationMs: 0, finding: { code: 'check-error', params: { code: 'LLM_NOT_CONFIGURED' } } },
      { id: 'cad', group: 'cad', label: 'AutoCAD plugin address', status: 'warn', detail: '127.0.0.1:8080: not reachable (CAD_UNREACHABLE); …', durationMs: 9, finding: { code: 'cad-unreachable', params: { address: '127.0.0.1:8080', code: 'CAD_UNREACHABLE' } } },
    ],
  };

  async function rows(locale: Locale): Promise<string> {
    renderPanel(async () => ({ ok: true as const, value: findings }), locale);
    await act(async () => fireEvent.click(screen.getByTestId('system-check-run')));
    return screen.getByTestId('system-check').textContent ?? '';
  }

  it('words every finding from the catalog in Chinese, leaving only paths, versions, codes and names', async () => {
    const text = await rows('zh-CN');
    expect(text).toContain('几何内核已启动，用时 700 毫秒。');
    expect(text).toContain(`${folder} 可以写入：12 个文件，共 1.5 MB。`);
    expect(text).toContain('模型服务商（环境变量）');
    expect(text).toContain('检查因错误 LLM_NOT_CONFIGURED 中止。');
    const data = [folder, '/usr/share/fonts/wqy.ttc', 'LLM_NOT_CONFIGURED', 'CAD_UNREACHABLE', 'FFMPEG_PATH', 'DEFAULT_PROVIDER'];
    expect(englishLeft(text, data, { strict: true })).toEqual([]);
    expect(text).not.toMatch(/\bms\b/);
  });

  it('says the same in English with plural forms, not the CLI\'s wording', async () => {
    const text = await rows('en');
    expect(text).toContain(`${folder} is writable: 1.5 MB in 12 files.`);
    expect(text).toContain('Nothing answers at 127.0.0.1:8080 (CAD_UNREACHABLE).');
    expect(text).toContain('(710 ms)');
    expect(text).not.toContain('none configured');
  });
});
