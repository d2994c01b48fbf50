import type { Browser } from 'playwright-core';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { launchChromium } from './browser';
import { startHost, type RunningHost } from './host';

export interface BrowserJourney {
  /** The Chromium of this test file (launched once before its tests). */
  browser(): Browser;
  /** Starts a browser-mode host that is stopped after the current test. */
  host(options?: Parameters<typeof startHost>[0]): Promise<RunningHost>;
  /** Stops every host started so far (also runs after each test). */
  stopHosts(): Promise<void>;
}

/**
 * Registers the hooks every browser-mode journey needs: one Chromium per file, hosts stopped
 * after each test, Chromium closed at the end.
 */
export function useBrowserJourney(): BrowserJourney {
  let browser: Browser | undefined;
  const hosts: RunningHost[] = [];
  const stopHosts = async (): Promise<void> => {
    await Promise.all(hosts.splice(0).map((h) => h.stop()));
  };
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterEach(stopHosts);
  afterAll(async () => {
    await browser?.close();
  });
  return {
    browser() {
      if (!browser) throw new Error('Chromium is not running: call browser() inside a test');
      return browser;
    },
    async host(options) {
      const running = await startHost(options);
      hosts.push(running);
      return running;
    },
    stopHosts,
  };
}
