import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { _electron as electron } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { screenshotPath } from './support/browser';
import { tempDataDir } from './support/host';

const require = createRequire(import.meta.url);

function electronBinary(): string | null {
  try {
    const binary = require('electron') as unknown;
    return typeof binary === 'string' && existsSync(binary) ? binary : null;
  } catch {
    return null;
  }
}

const binary = electronBinary();
if (!binary) {
  process.stdout.write('SKIP Electron journey: no Electron binary installed (ELECTRON_SKIP_BINARY_DOWNLOAD=1 or the download failed); browser-mode journeys cover the UI.\n');
}

describe.skipIf(!binary)('desktop app (Electron)', () => {
  it('opens a hardened window on the app origin whose bridge answers through IPC', async () => {
    const app = await electron.launch({ executablePath: binary!, args: ['.'], env: { ...process.env, CADSIGHT_DATA_DIR: tempDataDir() } });
    const window = await app.firstWindow();
    await window.getByTestId('status-transport').waitFor();
    expect(await window.getByTestId('status-transport').textContent()).toMatch(/Desktop app|桌面应用/);
    expect(window.url()).toMatch(/^app:\/\/cadsight\//);
    const exposure = await window.evaluate(() => ({
      hasRequire: typeof (globalThis as { require?: unknown }).require,
      hasProcess: typeof (globalThis as { process?: unknown }).process,
      bridgeKeys: Object.keys((globalThis as { cadsight?: object }).cadsight ?? {}).length,
    }));
    expect(exposure).toMatchObject({ hasRequire: 'undefined', hasProcess: 'undefined' });
    expect(exposure.bridgeKeys).toBeGreaterThan(3);
    await window.getByTestId('nav-settings').click();
    await window.getByTestId('settings-view').waitFor();
    await window.screenshot({ path: screenshotPath('electron-settings') });
    await app.close();
  });
});
