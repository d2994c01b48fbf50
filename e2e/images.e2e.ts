import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startScriptedProvider, type ScriptedProvider } from '../electron/testSupport/scriptedProvider/index';
import { countImageParts } from '../electron/testSupport/visionFixtures/harness';
import { lineArtPng, solidPng } from '../electron/testSupport/visionFixtures/images';
import { makePdf } from '../electron/testSupport/visionFixtures/pdf';
import { spawnVisionServer, textJson } from '../electron/testSupport/visionFixtures/mcpClient';
import { screenshotPath } from './support/browser';
import { useBrowserJourney } from './support/journey';

const KEY = `sk-images-e2e-${Date.now().toString(36)}`;
const REPLIES = [
  'The drawing shows a grid of lines, circles and a title block in the lower right.\nSUMMARY: A CAD line drawing with a title block',
  'Both images are technical sheets; the second one is a solid blue panel.',
  'The selected region contains several crossing lines and part of a circle.',
];

const journey = useBrowserJourney();
let workDir: string;
const providers: ScriptedProvider[] = [];

beforeAll(() => {
  workDir = mkdtempSync(path.join(tmpdir(), 'cadsight-images-e2e-'));
});
afterEach(async () => {
  await Promise.all(providers.splice(0).map((p) => p.close()));
});
afterAll(() => {
  rmSync(workDir, { recursive: true, force: true });
});

async function openApp(env: Record<string, string> = {}, dataDir?: string): Promise<Page> {
  const host = await journey.host({ env, ...(dataDir ? { dataDir } : {}) });
  const page = await journey.browser().newPage({ viewport: { width: 1400, height: 900 } });
  await page.goto(host.url);
  return page;
}

/** Adds a provider through the Settings form and makes it the vision default. */
async function addVisionProvider(page: Page, provider: { preset: string; id?: string; baseUrl?: string; models?: string; option: string }): Promise<void> {
  await page.getByTestId('nav-settings').click();
  await page.getByTestId('provider-add').click();
  await page.getByTestId('provider-preset').selectOption(provider.preset);
  if (provider.id) await page.getByTestId('provider-id').fill(provider.id);
  if (provider.baseUrl) await page.getByTestId('provider-base-url').fill(provider.baseUrl);
  if (provider.models) await page.getByTestId('provider-models').fill(provider.models);
  // A Custom provider on this machine (the scripted provider) needs the user's confirmation.
  if (provider.preset === 'custom') await page.getByTestId('provider-allow-local').check();
  await page.getByTestId('provider-save').click();
  await page.getByTestId('provider-form').waitFor({ state: 'detached' });
  await page.getByTestId('role-vision').selectOption({ label: provider.option });
  await expect.poll(() => page.getByTestId('role-vision').inputValue()).not.toBe('');
}

/** The data URIs of the images a captured provider request carried. */
function sentImages(body: unknown): string[] {
  return JSON.stringify(body).match(/data:image\/[a-z]+;base64,[A-Za-z0-9+/=]+/g) ?? [];
}

async function ask(page: Page, prompt: string, turns: number): Promise<void> {
  await page.getByTestId('vision-prompt').fill(prompt);
  await page.getByTestId('vision-send').click();
  await expect.poll(() => page.getByTestId('vision-reply').count(), { timeout: 30_000 }).toBe(turns);
}

describe('Images view journey', () => {
  it('uploads and drops images, asks, follows up, zooms into a dragged region, and shows answers with latency and usage', async () => {
    const provider = await startScriptedProvider({ apiKey: KEY, script: REPLIES.map((text) => ({ text })) });
    providers.push(provider);
    const page = await openApp({ CADSIGHT_KEY_SCRIPTED: KEY });
    await addVisionProvider(page, { preset: 'custom', id: 'scripted', baseUrl: provider.apiBaseUrl, models: 'scripted-vision', option: 'Custom (OpenAI-compatible) · scripted-vision' });

    await page.getByTestId('nav-images').click();
    const drawing = path.join(workDir, 'flange-sheet.png');
    writeFileSync(drawing, await lineArtPng(1600, 1200));
    await page.getByTestId('vision-file-input').setInputFiles(drawing);
    await expect.poll(() => page.getByTestId('vision-pending').count()).toBe(1);
    await page.screenshot({ path: screenshotPath('images-pending') });

    await ask(page, 'What does this drawing show?', 1);
    expect(await page.getByTestId('vision-reply').first().textContent()).toContain('grid of lines');
    expect(await page.getByTestId('vision-turn-usage').first().textContent()).toMatch(/^\d+ ms · \d+ → \d+ tokens · \d+ KB sent$/);
    expect(countImageParts(provider.requests[0]!.body)).toBe(1);
    await expect.poll(() => page.locator('[data-testid^="vision-session-vs_"]').count()).toBe(1);
    expect(await page.locator('[data-testid^="vision-session-vs_"]').textContent()).toContain('A CAD line drawing with a title block');

    // A second image arrives by a real drop event carrying a File, as from the desktop.
    const blue = Buffer.from(await solidPng(320, 200, [20, 60, 200])).toString('base64');
    const dataTransfer = await page.evaluateHandle((base64) => {
      const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
      const transfer = new DataTransfer();
      transfer.items.add(new File([bytes], 'blue-panel.png', { type: 'image/png' }));
      return transfer;
    }, blue);
    await page.dispatchEvent('[data-testid="vision-dropzone"]', 'drop', { dataTransfer });
    await expect.poll(() => page.getByTestId('vision-pending').count()).toBe(1);

    // A truncated PNG (a cut-off download) is flagged on drop by its name and never joins the tray.
    const truncated = blue.slice(0, Math.floor(blue.length / 2 / 4) * 4);
    const badTransfer = await page.evaluateHandle((base64) => {
      const transfer = new DataTransfer();
      transfer.items.add(new File([Uint8Array.from(atob(base64), (c) => c.charCodeAt(0))], 'broken-scan.png', { type: 'image/png' }));
      return transfer;
    }, truncated);
    await page.dispatchEvent('[data-testid="vision-dropzone"]', 'drop', { dataTransfer: badTransfer });
    await page.getByTestId('vision-error').waitFor();
    expect(await page.getByTestId('vision-error').textContent()).toContain('broken-scan.png');
    expect(await page.getByTestId('vision-pending').count()).toBe(1);
    await page.screenshot({ path: screenshotPath('images-bad-file') });

    await ask(page, 'Compare it with this second image.', 2);
    // The follow-up re-sends the first image next to the new one: the model sees both.
    expect(countImageParts(provider.requests[1]!.body)).toBe(2);
    const [firstTurnImage] = sentImages(provider.requests[0]!.body);
    expect(sentImages(provider.requests[1]!.body)).toContain(firstTurnImage);
    expect(JSON.stringify(provider.requests[1]!.body)).toContain('What does this drawing show?');

    // The lightbox: the original at full resolution, zoomed with keys and the wheel, panned by dragging.
    await page.getByTestId('vision-zoom-open-0').click();
    const stage = page.getByTestId('vision-zoom-stage');
    await stage.locator('img').waitFor();
    expect(await stage.locator('img').evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(1600);
    const fitted = (await stage.boundingBox())!;
    await page.keyboard.press('+');
    await expect.poll(async () => (await stage.boundingBox())!.width).toBeGreaterThan(fitted.width * 1.2);
    await page.mouse.move(fitted.x + fitted.width / 2, fitted.y + fitted.height / 2);
    await page.mouse.wheel(0, -400);
    await expect.poll(async () => (await stage.boundingBox())!.width).toBeGreaterThan(fitted.width * 2);
    const zoomed = (await stage.boundingBox())!;
    await page.mouse.down();
    await page.mouse.move(fitted.x + fitted.width / 2 + 120, fitted.y + fitted.height / 2 + 40, { steps: 4 });
    await page.mouse.up();
    expect((await stage.boundingBox())!.x).toBeCloseTo(zoomed.x + 120, -1);
    await page.screenshot({ path: screenshotPath('images-lightbox') });
    await page.keyboard.press('0');
    await expect.poll(async () => Math.round((await stage.boundingBox())!.width)).toBe(Math.round(fitted.width));

    // The region question inside the lightbox.
    await page.getByTestId('vision-zoom-select').click();
    const box = (await stage.boundingBox())!;
    await page.mouse.move(box.x + box.width * 0.2, box.y + box.height * 0.3);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width * 0.45, box.y + box.height * 0.5, { steps: 5 });
    await page.mouse.move(box.x + box.width * 0.6, box.y + box.height * 0.7, { steps: 5 });
    await page.mouse.up();
    await page.getByTestId('vision-zoom-box').waitFor();
    expect(await page.getByTestId('vision-zoom-region').textContent()).toMatch(/x 2\d(\.\d)?%, y 3\d(\.\d)?%, 4\d(\.\d)?% × 4\d(\.\d)?%/);
    await page.getByTestId('vision-zoom-prompt').fill('What is in this region?');
    await page.screenshot({ path: screenshotPath('images-zoom-select') });
    await page.getByTestId('vision-zoom-send').click();
    await expect.poll(() => page.getByTestId('vision-reply').count(), { timeout: 30_000 }).toBe(3);
    // The crop travels with the session images it belongs to.
    expect(countImageParts(provider.requests[2]!.body)).toBeGreaterThanOrEqual(2);
    expect(await page.getByTestId('vision-reply').nth(2).textContent()).toContain('crossing lines');
    expect(await page.getByTestId('vision-session-usage').textContent()).toMatch(/Session total: 3 calls/);
    expect(await page.getByTestId('vision-last-turn').textContent()).toContain('scripted · scripted-vision');
    await page.getByTestId('vision-zoom').focus();
    await page.keyboard.press('Escape');
    await page.getByTestId('vision-zoom').waitFor({ state: 'detached' });

    // Ctrl+V of a screenshot: a paste event carrying an image file adds it to the next question.
    await page.evaluate((base64) => {
      const transfer = new DataTransfer();
      transfer.items.add(new File([Uint8Array.from(atob(base64), (c) => c.charCodeAt(0))], '', { type: 'image/png' }));
      window.dispatchEvent(new ClipboardEvent('paste', { clipboardData: transfer }));
    }, blue);
    await expect.poll(() => page.getByTestId('vision-pending').count()).toBe(1);
    expect(await page.getByTestId('vision-pending').textContent()).toContain('pasted-1.png');
    await page.screenshot({ path: screenshotPath('images-conversation'), fullPage: true });
    expect(provider.requests.every((r) => r.authMatched)).toBe(true);
    await page.close();
  });

  it('analyses a PDF page by page, renders the Markdown answer, keeps the zoom box under the pointer, renames and deletes the session', async () => {
    const provider = await startScriptedProvider({
      apiKey: KEY,
      script: [
        { text: '## Sheets\n- **Sheet 1**: flange DN50\n- **Sheet 2**: section `A-A`\n<summary>Flange drawing set</summary>' },
        { text: 'The title reads *Flange DN50*.' },
      ],
    });
    providers.push(provider);
    const page = await openApp({ CADSIGHT_KEY_SCRIPTED: KEY });
    await addVisionProvider(page, { preset: 'custom', id: 'scripted', baseUrl: provider.apiBaseUrl, models: 'scripted-vision', option: 'Custom (OpenAI-compatible) · scripted-vision' });
    await page.getByTestId('nav-images').click();
    const pdf = path.join(workDir, 'flange-set.pdf');
    writeFileSync(pdf, makePdf([{ text: 'Flange DN50 sheet 1' }, { text: 'Section A-A sheet 2' }]));
    await page.getByTestId('vision-file-input').setInputFiles(pdf);
    await page.getByTestId('vision-pending-pdf').waitFor();
    await ask(page, 'What is in this drawing set?', 1);
    // One image per page went to the model, each with its text layer.
    expect(countImageParts(provider.requests[0]!.body)).toBe(2);
    expect(JSON.stringify(provider.requests[0]!.body)).toContain('Section A-A sheet 2');
    await page.getByTestId('vision-zoom-open-1').locator('img').waitFor();
    expect(await page.getByTestId('vision-zoom-open-1').textContent()).toContain('flange-set.pdf p.2/2');
    const reply = page.getByTestId('vision-reply').first();
    expect(await reply.locator('li strong').first().textContent()).toBe('Sheet 1');
    expect(await reply.textContent()).not.toContain('summary');
    expect(await page.locator('.images-title').textContent()).toBe('Flange drawing set');
    expect(await page.getByTestId('vision-turn-0').locator('.vision-bubble.user').textContent()).not.toContain('SUMMARY');
    await page.screenshot({ path: screenshotPath('images-pdf-markdown'), fullPage: true });

    await page.getByTestId('vision-zoom-open-0').click();
    const stage = page.getByTestId('vision-zoom-stage');
    await stage.locator('img').waitFor();
    await page.getByTestId('vision-zoom-select').click();
    const before = (await stage.boundingBox())!;
    const press = { x: before.x + before.width * 0.1, y: before.y + before.height * 0.1 };
    await page.mouse.move(press.x, press.y);
    await page.mouse.down();
    await page.mouse.move(press.x + before.width * 0.3, press.y + before.height * 0.2, { steps: 6 });
    await page.mouse.up();
    const drawn = (await page.getByTestId('vision-zoom-box').boundingBox())!;
    const after = (await stage.boundingBox())!;
    // The box starts where the button went down, and the image did not move during the drag.
    expect(Math.abs(drawn.x - press.x)).toBeLessThanOrEqual(3);
    expect(Math.abs(drawn.y - press.y)).toBeLessThanOrEqual(3);
    expect(Math.abs(after.y - before.y)).toBeLessThanOrEqual(1);
    await page.getByTestId('vision-zoom-prompt').fill('What does the title say?');
    await page.getByTestId('vision-zoom-send').click();
    await expect.poll(() => page.getByTestId('vision-reply').count(), { timeout: 30_000 }).toBe(2);
    await page.getByTestId('vision-zoom').getByRole('button', { name: 'Close' }).click();

    const row = page.locator('[data-testid^="vision-session-row-"]');
    await row.getByTestId('vision-rename').click();
    await page.getByTestId('vision-rename-input').fill('Flange DN50 — issue B');
    await page.getByTestId('vision-rename-save').click();
    await expect.poll(() => row.textContent()).toContain('Flange DN50 — issue B');
    await expect.poll(() => page.locator('.images-title').textContent()).toBe('Flange DN50 — issue B');
    await page.screenshot({ path: screenshotPath('images-renamed') });
    await row.getByTestId('vision-delete').click();
    await row.getByTestId('vision-delete').click();
    await expect.poll(() => page.locator('[data-testid^="vision-session-row-"]').count()).toBe(0);
    await page.close();
  });

  it('shows the missing-model state and a typed no-key error, each with a link to Settings', async () => {
    const page = await openApp({ DASHSCOPE_API_KEY: '', CADSIGHT_KEY_QWEN: '' });
    await page.getByTestId('nav-images').click();
    await page.getByTestId('vision-not-configured').waitFor();
    await page.screenshot({ path: screenshotPath('images-not-configured') });
    await page.getByTestId('vision-open-settings').click();
    await page.getByTestId('settings-view').waitFor();

    // A hosted provider without its key: the turn is refused before anything is sent.
    await addVisionProvider(page, { preset: 'qwen', option: 'Qwen (DashScope) · qwen-vl-max' });
    await page.getByTestId('nav-images').click();
    const image = path.join(workDir, 'red.png');
    writeFileSync(image, await solidPng(64, 64));
    await page.getByTestId('vision-file-input').setInputFiles(image);
    await page.getByTestId('vision-prompt').fill('What colour is this?');
    await page.getByTestId('vision-send').click();
    const error = page.getByTestId('vision-error');
    await error.waitFor();
    expect(await error.getAttribute('data-code')).toBe('LLM_NOT_CONFIGURED');
    expect(await error.textContent()).toContain('Error code: LLM_NOT_CONFIGURED');
    await page.screenshot({ path: screenshotPath('images-no-key') });
    await error.getByTestId('vision-open-settings').click();
    await page.getByTestId('settings-view').waitFor();

    await page.getByTestId('locale-zh-CN').click();
    await page.getByTestId('nav-images').click();
    await expect.poll(() => page.getByTestId('images-view').textContent()).toContain('将图像拖到这里');
    await page.screenshot({ path: screenshotPath('images-zh-CN') });
    await page.close();
  });

  it('lists a session an agent created through cadsight-vision in the same data folder, with its images and answer', async () => {
    const server = await spawnVisionServer([{ text: 'A green square on a white page.\nSUMMARY: Green square shown to an agent' }]);
    try {
      const shot = path.join(server.dir, 'agent-shot.png');
      writeFileSync(shot, await solidPng(200, 120, [20, 160, 60]));
      const result = await server.call('analyze_images', { image_sources: [shot], prompt: 'What is on this page?' });
      const sessionId = textJson(result).session_id as string;
      const page = await openApp({}, path.join(server.dir, 'data'));
      await page.getByTestId('nav-images').click();
      await page.getByTestId(`vision-session-${sessionId}`).click();
      await expect.poll(() => page.getByTestId('vision-reply').first().textContent()).toContain('A green square on a white page.');
      expect(await page.getByTestId(`vision-session-${sessionId}`).textContent()).toContain('Green square shown to an agent');
      await page.getByTestId('vision-conversation').getByTestId('vision-image-0').first().waitFor();
      await page.screenshot({ path: screenshotPath('images-mcp-session') });
      await page.close();
    } finally {
      await journey.stopHosts();
      await server.close();
    }
  });
});
