import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startDxfServerProcess, type DxfServerProcess } from '../electron/testSupport/cadPeers/dxfServerProcess';
import { startScriptedProvider, type ScriptedProvider } from '../electron/testSupport/scriptedProvider';
import { screenshotPath } from './support/browser';
import { useBrowserJourney } from './support/journey';

const journey = useBrowserJourney();
const DRAWING = path.resolve('electron/testSupport/fixtures/dxf/mech_flange_3frames_modelspace_DERIVED.dxf');
let dxfServer: DxfServerProcess | undefined;
let provider: ScriptedProvider | undefined;
afterEach(async () => {
  await dxfServer?.stop();
  await provider?.close();
  dxfServer = undefined;
  provider = undefined;
});

/** `cadsight dxf-server` on a free port: the stand-in for AutoCAD's plugin at the Settings address. */
async function startDxfServer(): Promise<number> {
  dxfServer = await startDxfServerProcess([DRAWING]);
  return dxfServer.port;
}

describe('Settings → System check', () => {
  it('shows the kernel, fonts, data folder and the AutoCAD address as working, in English and Chinese', async () => {
    const port = await startDxfServer();
    const h = await journey.host({ env: { CADSIGHT_CAD_HOST: '127.0.0.1', CADSIGHT_CAD_PORT: String(port) } });
    const page = await journey.browser().newPage({ viewport: { width: 1280, height: 1000 } });
    await page.goto(h.url);
    await page.getByTestId('nav-settings').click();
    await page.getByTestId('system-check-run').click();
    const summary = page.getByTestId('system-check-summary');
    await summary.waitFor({ timeout: 60_000 });
    expect(await summary.textContent()).toContain('Everything you configured works.');
    for (const id of ['node', 'kernel', 'fonts', 'data', 'cad']) {
      expect(await page.getByTestId(`system-check-${id}`).getAttribute('class'), id).toBe('status-pass');
    }
    expect(await page.getByTestId('system-check-cad').textContent()).toMatch(/: all \d+ plugin checks pass\./);
    expect(await page.getByTestId('system-check-provider:none').textContent()).toContain('Warning');
    await page.getByTestId('system-check').screenshot({ path: screenshotPath('settings-system-check') });

    await page.getByTestId('locale-zh-CN').click();
    await expect.poll(() => summary.textContent()).toContain('已配置的各项均可正常使用');
    expect(await page.getByTestId('system-check-kernel').textContent()).toContain('OpenCascade 几何内核');
    // The rows' findings too, not the CLI's English detail.
    expect(await page.getByTestId('system-check-kernel').textContent()).toMatch(/几何内核已启动，用时 \d+ 毫秒/);
    await page.getByTestId('system-check').screenshot({ path: screenshotPath('settings-system-check-zh-CN') });
    await page.close();
  });

  it('marks a closed AutoCAD address named in the environment as failed, with its error code', async () => {
    const h = await journey.host({ env: { CADSIGHT_CAD_HOST: '127.0.0.1', CADSIGHT_CAD_PORT: '9' } });
    const page = await journey.browser().newPage();
    await page.goto(h.url);
    await page.getByTestId('nav-settings').click();
    await page.getByTestId('system-check-run').click();
    await page.getByTestId('system-check-summary').waitFor({ timeout: 60_000 });
    expect(await page.getByTestId('system-check-summary').textContent()).toContain('1 check failed.');
    expect(await page.getByTestId('system-check-cad').getAttribute('class')).toBe('status-fail');
    expect(await page.getByTestId('system-check-cad').textContent()).toContain('The check stopped with error CAD_');
    await page.close();
  });

  it('fails a provider whose address answers HTTP 404, says why in the user\'s language and opens it for editing', async () => {
    provider = await startScriptedProvider({ script: [], apiKey: 'sk-e2e-system-check-4242' });
    const h = await journey.host({
      env: {
        CADSIGHT_REVIEWER_PROVIDER: 'custom',
        CADSIGHT_REVIEWER_BASE_URL: `${provider.baseUrl}/wrong/v1`,
        CADSIGHT_REVIEWER_MODEL: 'scripted-model',
        CADSIGHT_KEY_CUSTOM: 'sk-e2e-system-check-4242',
      },
    });
    const page = await journey.browser().newPage({ viewport: { width: 1280, height: 1000 } });
    await page.goto(h.url);
    await page.getByTestId('nav-settings').click();
    // Overridden settings are named, not shown as field paths.
    const overrides = (await page.getByTestId('settings-env-overrides').textContent()) ?? '';
    expect(overrides).toBe('Set by environment variable: provider Custom (OpenAI-compatible) (custom), Reviewer model');
    await page.getByTestId('system-check-run').click();
    await page.getByTestId('system-check-summary').waitFor({ timeout: 60_000 });
    const row = page.getByTestId('system-check-provider:custom');
    expect(await row.getAttribute('class')).toBe('status-fail');
    const text = (await row.textContent()) ?? '';
    expect(text).toContain('Provider Custom (OpenAI-compatible) (custom)');
    expect(text).toContain(`${new URL(provider.baseUrl).host} answered "not found" (HTTP 404)`);
    expect(text).not.toMatch(/reachable|cadsight /);
    expect(provider.requests.map((r) => r.path)).toEqual(['/wrong/v1/chat/completions']);
    await page.getByTestId('system-check').screenshot({ path: screenshotPath('settings-system-check-provider-404') });
    await page.getByTestId('locale-zh-CN').click();
    await expect.poll(() => row.textContent()).toContain('返回“未找到”（HTTP 404）');
    await page.getByTestId('system-check').screenshot({ path: screenshotPath('settings-system-check-provider-404-zh-CN') });
    await page.getByTestId('system-check-edit-custom').click();
    await page.getByTestId('provider-form').waitFor();
    await page.close();
  });
});
