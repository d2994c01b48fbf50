import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { englishLeft } from '../renderer/testSupport/englishLeft';
import { seriousViolations } from './support/axe';
import { screenshotPath } from './support/browser';
import type { RunningHost } from './support/host';
import { useBrowserJourney } from './support/journey';

const journey = useBrowserJourney();
/** The host shares two cores with other work: wait generously for UI state, never for a fixed time. */
const POLL = { timeout: 30_000 };
const SLOW = { timeout: 90_000 };
const SAMPLE = 'cadsight_sample_gb_a3_3frames';
const SIZES = [
  { width: 1024, height: 768 },
  { width: 1440, height: 900 },
] as const;

/** English catalog words on screen (drawing file names and paths are data, not fallbacks), and raw catalog keys. */
async function englishLeftOnScreen(page: Page, data: string[]): Promise<string[]> {
  return englishLeft(await page.locator('body').innerText(), data);
}

async function openPage(host: RunningHost, size: { width: number; height: number }): Promise<Page> {
  const page = await journey.browser().newPage({ viewport: size });
  await page.goto(host.url);
  await page.getByTestId('view-review').waitFor();
  return page;
}

async function setLocale(page: Page, locale: 'en' | 'zh-CN'): Promise<void> {
  await page.getByTestId('nav-settings').click();
  await page.getByTestId(`locale-${locale}`).click();
  await expect.poll(() => page.locator('html').getAttribute('lang'), POLL).toBe(locale);
  await page.getByTestId('nav-review').click();
}

const box = async (locator: Locator) => (await locator.boundingBox())!;

/** Drawing and findings side by side, both inside the window, and the selected finding's marker near the drawing's centre. */
async function expectSideBySideAndCentred(page: Page, size: { width: number; height: number }): Promise<void> {
  const stage = await box(page.getByTestId('frame-viewer').getByTestId('viewer-stage'));
  const findings = await box(page.getByTestId('findings-panel'));
  expect(stage.x + stage.width).toBeLessThanOrEqual(findings.x);
  expect(findings.x + findings.width).toBeLessThanOrEqual(size.width);
  expect(stage.width).toBeGreaterThan(300);
  expect(findings.width).toBeGreaterThanOrEqual(250);
  expect(stage.y + 200).toBeLessThan(size.height);
  expect(findings.y + 200).toBeLessThan(size.height);
  const marker = page.locator('.viewer-stage .marker.selected');
  await expect.poll(async () => {
    const m = await marker.boundingBox();
    if (!m) return Infinity;
    return Math.hypot(m.x + m.width / 2 - (stage.x + stage.width / 2), m.y + m.height / 2 - (stage.y + stage.height / 2));
    // The marker sits beside its arrow tip (which is centred), never on the value it flags.
  }, POLL).toBeLessThan(60);
}

describe('Review at 1024 and 1440 px, by keyboard, in both languages (browser mode)', () => {
  it('keeps drawing and findings side by side with the selected finding centred, groups findings by rule, and moves through them by keyboard', async () => {
    const host = await journey.host();
    let page = await openPage(host, SIZES[0]);
    await expect.poll(() => page.getByTestId('review-source-current').getAttribute('data-kind'), POLL).toBe('sample');
    await page.getByTestId('review-start').click();
    await expect.poll(() => page.getByTestId('run-view').getAttribute('data-status'), SLOW).toBe('completed');

    // Grouped by rule: each head says how many findings it has, and the cards under it carry that rule.
    const groups = page.locator('[data-testid^="finding-group-"][data-count]');
    await expect.poll(() => groups.count(), POLL).toBeGreaterThan(2);
    let total = 0;
    for (const head of await groups.all()) {
      const rule = (await head.getAttribute('data-testid'))!.replace('finding-group-', '');
      const count = Number(await head.getAttribute('data-count'));
      expect(await head.getByTestId('finding-group-count').textContent()).toMatch(new RegExp(`^${count} finding${count === 1 ? '' : 's'}$`));
      expect(await page.locator(`.finding[data-item="${rule}"]`).count()).toBe(count);
      total += count;
    }
    expect(await page.locator('.finding').count()).toBe(total);

    // The keyboard: one Tab reaches the list; arrows walk it; Enter selects and centres the drawing on the finding.
    const firstHead = page.getByTestId('finding-group-toggle').first();
    await firstHead.focus();
    await page.keyboard.press('ArrowDown');
    const focusedId = await page.evaluate(() => document.activeElement?.getAttribute('data-testid'));
    expect(focusedId).toMatch(/^finding-\d+$/);
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByTestId(focusedId!).getAttribute('aria-current'), POLL).toBe('true');
    const n = focusedId!.replace('finding-', '');
    await expect.poll(() => page.getByTestId(`marker-${n}`).getAttribute('data-selected'), POLL).toBe('true');
    await expectSideBySideAndCentred(page, SIZES[0]);
    await page.getByTestId('frame-viewer').getByTestId('viewer-base').waitFor(POLL);
    await page.screenshot({ path: screenshotPath('review-1024x768-en') });
    // Tab from the list leaves it (one stop for the whole list, not four per card).
    const tabStopsInList = await page.getByTestId('finding-groups').evaluate((list) => Array.from(list.querySelectorAll<HTMLElement>('button, [tabindex]')).filter((el) => el.tabIndex >= 0).length);
    expect(tabStopsInList).toBeLessThanOrEqual(6);

    // Approve a whole rule at once.
    const approvable = page.locator('[data-testid^="finding-group-"][data-count]').filter({ has: page.locator('[data-testid="group-approve"]:not([disabled])') }).first();
    const rule = (await approvable.getAttribute('data-testid'))!.replace('finding-group-', '');
    await approvable.getByTestId('group-approve').click();
    await expect.poll(() => page.locator(`.finding[data-item="${rule}"][data-state="proposed"]`).count(), POLL).toBe(0);
    expect(await page.locator(`.finding[data-item="${rule}"][data-state="approved"]`).count()).toBeGreaterThan(0);

    // The divider resizes the split from the keyboard, and both panes stay visible.
    const divider = page.getByTestId('run-split-divider');
    const before = (await box(page.getByTestId('findings-panel'))).width;
    await divider.focus();
    for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowLeft');
    await expect.poll(async () => (await box(page.getByTestId('findings-panel'))).width, POLL).toBeGreaterThan(before);

    // The write dialog, in the user's terms: no hash ids, tool names or coordinates.
    await page.getByTestId('write-open').click();
    await page.getByTestId('write-dialog').waitFor();
    const dialog = (await page.getByTestId('write-dialog').innerText()).toLowerCase();
    expect(dialog).not.toMatch(/add_leader|[0-9a-f]{8,}|\(\d+(\.\d+)?, \d+(\.\d+)?\)/);
    expect(dialog).toContain('download');
    await expect.poll(() => page.getByTestId('write-thumb').count(), POLL).toBeGreaterThan(0);
    await page.screenshot({ path: screenshotPath('review-write-dialog-1024') });
    await page.keyboard.press('Escape');
    await page.close();

    // The same run at 1440 × 900 (the side panel stays open at this width).
    page = await openPage(host, SIZES[1]);
    await page.getByTestId('run-item').first().click();
    await page.getByTestId('run-view').waitFor(POLL);
    await page.getByTestId('finding-3').click();
    await expect.poll(() => page.getByTestId('marker-3').getAttribute('data-selected'), POLL).toBe('true');
    await expectSideBySideAndCentred(page, SIZES[1]);
    await page.screenshot({ path: screenshotPath('review-1440x900-en') });

    // 简体中文 at both sizes.
    await setLocale(page, 'zh-CN');
    await page.getByTestId('finding-4').click();
    await expect.poll(() => page.getByTestId('marker-4').getAttribute('data-selected'), POLL).toBe('true');
    await expectSideBySideAndCentred(page, SIZES[1]);
    expect(await page.getByTestId('finding-group-count').first().textContent()).toMatch(/^\d+ 个问题$/);
    await page.screenshot({ path: screenshotPath('review-1440x900-zh-CN') });
    await page.close();
    page = await openPage(host, SIZES[0]);
    await page.getByTestId('run-item').first().click();
    await page.getByTestId('run-view').waitFor(POLL);
    // Below 1400 px the side panel folds away while a run is open.
    expect(await page.getByTestId('side-toggle').getAttribute('aria-expanded')).toBe('false');
    await page.getByTestId('finding-2').click();
    await expect.poll(() => page.getByTestId('marker-2').getAttribute('data-selected'), POLL).toBe('true');
    await expectSideBySideAndCentred(page, SIZES[0]);
    await page.screenshot({ path: screenshotPath('review-1024x768-zh-CN') });
    await page.close();
  }, 240_000);

  it('shows a failed action in the banner of its own view only, in the user\'s language, and lets the user dismiss it', async () => {
    const host = await journey.host();
    const page = await openPage(host, SIZES[0]);
    await setLocale(page, 'zh-CN');
    await page.getByTestId('dxf-input').setInputFiles({ name: 'plan.dwg', mimeType: 'application/octet-stream', buffer: Buffer.concat([Buffer.from('AC1032'), Buffer.alloc(512)]) });
    const banner = page.getByTestId('error-banner');
    await banner.waitFor(POLL);
    expect(await banner.getAttribute('data-view')).toBe('review');
    expect(await banner.getByTestId('error-banner-action').textContent()).toContain('打开图纸失败');
    await page.getByTestId('nav-images').click();
    expect(await page.getByTestId('error-banner').count()).toBe(0);
    await page.getByTestId('nav-review').click();
    await banner.waitFor(POLL);
    await page.getByTestId('error-banner-dismiss').click();
    expect(await page.getByTestId('error-banner').count()).toBe(0);
    await page.close();
  });

  it('has no serious accessibility violations on any view, and 简体中文 leaves no English catalog words on screen', async () => {
    const host = await journey.host();
    const page = await openPage(host, SIZES[1]);
    await expect.poll(() => page.getByTestId('review-source-current').getAttribute('data-kind'), POLL).toBe('sample');
    const problems: Record<string, string[]> = {};
    const check = async (name: string, locale: 'en' | 'zh-CN'): Promise<void> => {
      const violations = await seriousViolations(page);
      if (violations.length > 0) problems[`${name} axe`] = violations;
      if (locale === 'zh-CN') {
        const english = await englishLeftOnScreen(page, [`${SAMPLE}.ai-review.dxf`, SAMPLE, 'report.md', 'report.json', host.dataDir]);
        if (english.length > 0) problems[`${name} English`] = english;
      }
    };
    for (const locale of ['en', 'zh-CN'] as const) {
      await setLocale(page, locale);
      await page.getByTestId('viewer-base').waitFor(POLL);
      await check(`review drawing (${locale})`, locale);
      await page.getByTestId('review-start').click();
      await expect.poll(() => page.getByTestId('run-view').getAttribute('data-status'), SLOW).toBe('completed');
      await page.getByTestId('finding-1').click();
      await page.getByTestId('frame-viewer').getByTestId('viewer-base').waitFor(POLL);
      await check(`review run (${locale})`, locale);
      // A new run of the same drawing keeps the earlier decisions: approve only when there is something to approve.
      const approve = page.getByTestId('finding-1').getByTestId('finding-approve');
      if (await approve.isEnabled()) await approve.click();
      await expect.poll(() => page.getByTestId('write-open').isEnabled(), POLL).toBe(true);
      await page.getByTestId('write-open').click();
      await page.getByTestId('write-dialog').waitFor();
      await check(`write dialog (${locale})`, locale);
      await page.keyboard.press('Escape');
      for (const view of ['images', 'generate', 'settings'] as const) {
        await page.getByTestId(`nav-${view}`).click();
        await page.getByTestId(`view-${view}`).waitFor();
        await check(`${view} (${locale})`, locale);
      }
      await page.getByTestId('nav-review').click();
      await page.getByTestId('open-sample').click();
      await page.getByTestId('drawing-panel').waitFor(POLL);
    }
    expect(problems).toEqual({});
    await page.close();
  }, 300_000);
});
