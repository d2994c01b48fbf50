import { describe, expect, it } from 'vitest';
import { screenshotPath } from './support/browser';
import { tempDataDir } from './support/host';
import { useBrowserJourney } from './support/journey';

const journey = useBrowserJourney();

describe('browser mode shell', () => {
  it('prints exactly one ready line on stdout and serves the shell with the token', async () => {
    const h = await journey.host();
    expect(h.stdoutLines).toHaveLength(1);
    const page = await journey.browser().newPage();
    await page.goto(h.url);
    await expect.poll(() => page.getByTestId('status-transport').textContent()).toBe('Browser mode');
    // The token never lands in a cookie (cookies reach every port on 127.0.0.1) nor stays in the address bar.
    expect((await page.context().cookies()).map((c) => c.value)).not.toContain(h.token);
    expect(page.url()).not.toContain(h.token);
    await page.reload();
    await expect.poll(() => page.getByTestId('status-transport').textContent()).toBe('Browser mode');
    for (const area of ['images', 'review', 'generate', 'settings'] as const) {
      await page.getByTestId(`nav-${area}`).click();
      await page.getByTestId(`view-${area}`).waitFor();
      await page.screenshot({ path: screenshotPath(`shell-${area}`) });
    }
    await page.close();
  });

  it('refuses the page, the assets and the IPC socket without the right token', async () => {
    const h = await journey.host();
    const noToken = await fetch(`${h.origin}/`);
    expect(noToken.status).toBe(403);
    const wrongToken = await fetch(`${h.origin}/?token=${'0'.repeat(64)}`);
    expect(wrongToken.status).toBe(403);
    const asset = await fetch(`${h.origin}/index.html`);
    expect(asset.status).toBe(403);

    const page = await journey.browser().newPage();
    const response = await page.goto(`${h.origin}/?token=deadbeef`);
    expect(response?.status()).toBe(403);
    expect(await page.textContent('body')).toContain('missing or wrong access token');
    const socketRefused = await page.evaluate(
      (origin) =>
        new Promise<boolean>((resolve) => {
          const ws = new WebSocket(`${origin.replace('http', 'ws')}/ipc`);
          ws.onopen = () => resolve(false);
          ws.onerror = () => resolve(true);
        }),
      h.origin,
    );
    expect(socketRefused).toBe(true);
    await page.close();
  });

  it('keeps a provider added in Settings across a restart of the host', async () => {
    const dataDir = tempDataDir();
    const first = await journey.host({ dataDir });
    const page = await journey.browser().newPage();
    await page.goto(first.url);
    await page.getByTestId('nav-settings').click();
    await page.getByTestId('provider-add').click();
    await page.getByTestId('provider-preset').selectOption('deepseek');
    await page.getByTestId('provider-save').click();
    await page.getByTestId('provider-deepseek').waitFor();
    await page.getByTestId('role-reviewer').selectOption({ label: 'DeepSeek · deepseek-chat' });
    await page.screenshot({ path: screenshotPath('settings-provider-added') });
    await first.stop();

    const second = await journey.host({ dataDir });
    await page.goto(second.url);
    await page.getByTestId('nav-settings').click();
    await page.getByTestId('provider-deepseek').waitFor();
    expect(await page.getByTestId('provider-deepseek').textContent()).toContain('https://api.deepseek.com/v1');
    expect(await page.getByTestId('role-reviewer').inputValue()).toContain('deepseek-chat');
    await page.close();
  });

  it('switches the interface to Simplified Chinese and keeps that choice', async () => {
    const dataDir = tempDataDir();
    const h = await journey.host({ dataDir });
    const page = await journey.browser().newPage();
    await page.goto(h.url);
    await page.getByTestId('nav-settings').click();
    await page.getByTestId('locale-zh-CN').click();
    await expect.poll(() => page.getByTestId('nav-settings').textContent()).toContain('设置');
    await page.screenshot({ path: screenshotPath('settings-zh-CN') });
    await page.reload();
    await expect.poll(() => page.getByTestId('nav-review').textContent()).toContain('审图');
    await page.close();
  });

  it('shows a typed error in the banner when the host goes away', async () => {
    const h = await journey.host();
    const page = await journey.browser().newPage();
    await page.goto(h.url);
    await page.getByTestId('nav-settings').click();
    await page.getByTestId('settings-view').waitFor();
    await h.stop();
    await page.getByTestId('locale-en').click();
    const banner = page.getByTestId('error-banner');
    await banner.waitFor();
    expect(await banner.getAttribute('data-code')).toBe('IPC_DISCONNECTED');
    await page.screenshot({ path: screenshotPath('banner-disconnected') });
    await page.close();
  });
});
