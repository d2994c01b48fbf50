import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { screenshotPath } from './support/browser';
import { useBrowserJourney } from './support/journey';

const journey = useBrowserJourney();
/** The host shares two cores with other work: wait generously for UI state, never for a fixed time. */
const POLL = { timeout: 30_000 };
const SLOW = { timeout: 120_000 };

const sample = readFileSync('resources/samples/cadsight_sample_gb_a3_3frames.dxf');
const fixture = (name: string): Buffer => readFileSync(`electron/testSupport/fixtures/dxf/${name}`);
/** Four sheets: the sample and a copy of it (every 图号 twice), an ISO sheet and a QCAD flange drawing. */
const SET = [
  { name: 'sample.dxf', mimeType: 'application/dxf', buffer: sample },
  { name: 'sample-copy.dxf', mimeType: 'application/dxf', buffer: sample },
  { name: 'iso.dxf', mimeType: 'application/dxf', buffer: fixture('frame_iso_en_a3_titleblock.dxf') },
  { name: 'flange.dxf', mimeType: 'application/dxf', buffer: fixture('mech_flange_layouts.dxf') },
];

describe('Drawing set journey (browser mode)', () => {
  it('uploads four DXF files as a set, reviews them, shows the duplicate 图号 and opens a file’s report, in English and Chinese', async () => {
    const host = await journey.host();
    const page = await journey.browser().newPage({ viewport: { width: 1600, height: 1100 } });
    await page.goto(host.url);
    await page.getByTestId('view-review').waitFor();
    await page.getByTestId('review-sets').waitFor();

    await page.getByTestId('set-files-input').setInputFiles(SET);
    await expect.poll(() => page.getByTestId('set-view').getAttribute('data-status'), POLL).toBe('draft');
    expect(await page.getByTestId('set-file').count()).toBe(4);
    await page.screenshot({ path: screenshotPath('review-set-draft') });

    await page.getByTestId('set-start').click();
    await expect.poll(() => page.getByTestId('set-view').getAttribute('data-status'), SLOW).toBe('completed');
    const states = await page.getByTestId('set-file').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-state')));
    expect(states).toEqual(['done', 'done', 'done', 'done']);
    const cross = page.locator('[data-testid="set-cross-item"][data-kind="duplicate_drawing_no"]');
    await expect.poll(() => cross.count(), POLL).toBe(3);
    expect(await cross.first().textContent()).toContain('CS-2026-001');
    expect(await cross.first().textContent()).toContain('sample-copy.dxf#92');
    expect(await page.getByTestId('set-sheets').locator('tbody tr').count()).toBeGreaterThanOrEqual(6);
    await page.screenshot({ path: screenshotPath('review-set-report'), fullPage: true });

    // The set report downloads with the set's name.
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('set-download-markdown').click()]);
    expect(download.suggestedFilename()).toMatch(/set-report\.md$/);

    // A file's own report opens as a run with its frames and findings; back returns to the set.
    await page.getByTestId('set-file').filter({ hasText: 'sample.dxf' }).last().getByTestId('set-file-open').click();
    await expect.poll(() => page.getByTestId('run-view').getAttribute('data-status'), POLL).toBe('completed');
    await expect.poll(() => page.locator('[data-testid^="finding-"][data-item]').count(), POLL).toBeGreaterThan(0);
    await page.screenshot({ path: screenshotPath('review-set-file-run') });
    await page.getByTestId('back-to-set').click();
    await page.getByTestId('set-view').waitFor();

    // The same screen in Simplified Chinese.
    await page.getByTestId('nav-settings').click();
    await page.getByTestId('locale-zh-CN').click();
    await page.getByTestId('nav-review').click();
    await expect.poll(() => page.getByTestId('set-status').textContent(), POLL).toBe('已完成');
    await page.screenshot({ path: screenshotPath('review-set-report-zh-CN'), fullPage: true });

    // Dropping several files makes another set (a single file would open as the drawing).
    const transfer = await page.evaluateHandle((texts: string[]) => {
      const dt = new DataTransfer();
      texts.forEach((text, i) => dt.items.add(new File([text], `drop-${i + 1}.dxf`, { type: 'application/dxf' })));
      return dt;
    }, [sample.toString('latin1'), fixture('frame_iso_en_a3_titleblock.dxf').toString('latin1')]);
    await page.dispatchEvent('[data-testid="review-view"]', 'drop', { dataTransfer: transfer });
    await expect.poll(() => page.getByTestId('set-item').count(), POLL).toBe(2);
    await expect.poll(() => page.getByTestId('set-file').count(), POLL).toBe(2);
    await page.close();
  }, 300_000);
});
