import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startScriptedProvider, type ScriptedProvider } from '../electron/testSupport/scriptedProvider/index';
import { launchChromium, screenshotPath } from './support/browser';
import { startHost, type RunningHost } from './support/host';

const CANARY = `sk-canary-${Math.random().toString(36).slice(2)}-${Date.now().toString(36)}-do-not-leak`;

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? filesUnder(full) : [full];
  });
}

let browser: Browser;
let provider: ScriptedProvider;
let host: RunningHost;

beforeAll(async () => {
  browser = await launchChromium();
  // The second request fails with a provider error that echoes the key, as some gateways do.
  provider = await startScriptedProvider({
    apiKey: CANARY,
    script: (_request, index) => (index === 0 ? { text: 'OK' } : { error: { status: 400, body: { error: { message: `bad request for key ${CANARY}` } } } }),
  });
  host = await startHost({ env: { CADSIGHT_KEY_SCRIPTED: CANARY } });
});
afterAll(async () => {
  await host?.stop();
  await provider?.close();
  await browser?.close();
});

describe('API keys', () => {
  it('are used for provider calls but appear nowhere: not in the data folder, logs, host output, page or IPC frames', async () => {
    const page = await browser.newPage();
    const frames: string[] = [];
    page.on('websocket', (ws) => {
      ws.on('framereceived', (f) => frames.push(String(f.payload)));
      ws.on('framesent', (f) => frames.push(String(f.payload)));
    });
    await page.goto(host.url);
    await page.getByTestId('nav-settings').click();
    await page.getByTestId('provider-add').click();
    await page.getByTestId('provider-preset').selectOption('custom');
    await page.getByTestId('provider-id').fill('scripted');
    await page.getByTestId('provider-label').fill('Scripted test provider');
    await page.getByTestId('provider-base-url').fill(provider.apiBaseUrl);
    await page.getByTestId('provider-models').fill('scripted-model');
    // The scripted provider listens on 127.0.0.1: a Custom provider there needs the user's confirmation.
    await page.getByTestId('provider-allow-local').check();
    await page.screenshot({ path: screenshotPath('settings-provider-allow-local') });
    await page.getByTestId('provider-save').click();
    const row = page.getByTestId('provider-scripted');
    await row.waitFor();
    expect(await row.textContent()).toContain('Key configured (environment)');

    await row.getByRole('button', { name: 'Test connection' }).click();
    await expect.poll(() => row.textContent()).toContain('Connected to scripted-model');
    expect(provider.requests[0]?.authMatched).toBe(true);

    await row.getByRole('button', { name: 'Test connection' }).click();
    await page.getByTestId('provider-test-error').waitFor();
    expect(await page.getByTestId('provider-test-error').textContent()).toContain('LLM_BAD_REQUEST');
    await page.screenshot({ path: screenshotPath('settings-canary') });
    await page.getByTestId('cad-allow-remote').scrollIntoViewIfNeeded();
    await page.screenshot({ path: screenshotPath('settings-cad-allow-remote') });

    const pageText = await page.content();
    await page.close();
    await host.stop();

    const leaks: string[] = [];
    for (const file of filesUnder(host.dataDir)) if (readFileSync(file).includes(CANARY)) leaks.push(file);
    if ([...host.stdoutLines, ...host.stderr].join('\n').includes(CANARY)) leaks.push('host output');
    if (pageText.includes(CANARY)) leaks.push('page');
    if (frames.some((f) => f.includes(CANARY))) leaks.push('IPC frames');
    expect(frames.length).toBeGreaterThan(0);
    const names = filesUnder(host.dataDir).map((f) => path.relative(host.dataDir, f));
    expect(names).toEqual(expect.arrayContaining(['cadsight.db', 'settings.json', path.join('logs', 'browser.log')]));
    expect(leaks).toEqual([]);
  });
});
