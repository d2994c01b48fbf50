import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { toolPath } from '../../electron/testSupport/prereqs';

export const ARTIFACTS = path.resolve('e2e/artifacts');

/**
 * The Chromium `npm test` found (Debian's, CADSIGHT_CHROMIUM, or Playwright's download), headless, with the flags this closed network needs (no background
 * networking, no component updates) and a fresh profile (Playwright makes one per launch).
 */
export async function launchChromium(): Promise<Browser> {
  const executablePath = toolPath('chromium');
  if (!executablePath) {
    throw new Error("Chromium not found. Run `node scripts/test-prereqs.mjs` (npm test's first step): it installs or names what is missing.");
  }
  return chromium.launch({
    executablePath,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-dev-shm-usage',
    ],
  });
}

/** Where journeys save screenshots for people to look at. */
export function screenshotPath(name: string): string {
  mkdirSync(ARTIFACTS, { recursive: true });
  return path.join(ARTIFACTS, `${name}.png`);
}
