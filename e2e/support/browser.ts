import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser } from 'playwright-core';

export const CHROMIUM = process.env.CADSIGHT_CHROMIUM ?? '/usr/bin/chromium';
export const ARTIFACTS = path.resolve('e2e/artifacts');

/**
 * Debian's Chromium, headless, with the flags this closed network needs (no background
 * networking, no component updates) and a fresh profile (Playwright makes one per launch).
 */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`Chromium not found at ${CHROMIUM}. Install Debian's chromium (apt-get install chromium) or set CADSIGHT_CHROMIUM.`);
  }
  return chromium.launch({
    executablePath: CHROMIUM,
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
