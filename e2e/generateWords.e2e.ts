import { readFileSync } from 'node:fs';
import { unzipSync } from 'fflate';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { GenFixture } from '../electron/testSupport/cadgenPlayer/player';
import type { ScriptedProvider } from '../electron/testSupport/scriptedProvider';
import { screenshotPath } from './support/browser';
import { gatedCadgenModels, generationRolesEnv } from './support/gatedModels';
import { useBrowserJourney } from './support/journey';

// "Describe a part" journeys: the built app in browser mode, its author and reviewer roles set
// from the environment (CADSIGHT_AUTHOR_* / CADSIGHT_REVIEWER_*) to a scripted provider that this
// test process serves over real HTTP and that plays the flange fixture through the CDSL v3
// protocol. Gates hold the scripted model at chosen points so the test can look at the UI there.

const journey = useBrowserJourney();
const POLL = { timeout: 30_000 };
const SLOW = { timeout: 120_000 };
const fixture = JSON.parse(readFileSync('resources/evals/cadgen/v1/flange.json', 'utf8')) as GenFixture;
const FLANGE = 'flange OD 120 mm, 12 mm thick, Ø40 centre bore, 4×Ø10 through holes on PCD 90';

async function openDescribe(env: Record<string, string>): Promise<Page> {
  const host = await journey.host({ env });
  const page = await journey.browser().newPage({ viewport: { width: 1600, height: 1100 }, acceptDownloads: true });
  await page.goto(host.url);
  await page.getByTestId('nav-generate').click();
  await page.getByTestId('generate-view').waitFor();
  // "Describe a part" is the Generate area's default tab.
  expect(await page.getByTestId('gen-tab-words').getAttribute('aria-selected')).toBe('true');
  await page.getByTestId('gen-new-form').waitFor();
  return page;
}

/** Runs the conformance check of both role models from the form (the first time a model is used). */
async function checkModels(page: Page): Promise<void> {
  await expect.poll(() => page.getByTestId('gen-author-model').inputValue(), POLL).toBe('custom/scripted-author');
  expect(await page.getByTestId('gen-reviewer-model').inputValue()).toBe('custom/scripted-reviewer');
  for (const role of ['author', 'reviewer']) {
    const status = page.getByTestId(`gen-model-status-${role}`);
    await expect.poll(() => status.getAttribute('data-status'), POLL).toMatch(/^(unchecked|passed)$/);
    if ((await status.getAttribute('data-status')) === 'unchecked') await page.getByTestId(`gen-check-${role}`).click();
    await expect.poll(() => status.getAttribute('data-status'), SLOW).toBe('passed');
  }
}

const taskState = (page: Page): Promise<string | null> => page.getByTestId('gen-task-view').getAttribute('data-state');
const revisionCount = async (page: Page): Promise<number> => Number((await page.getByTestId('gen-revisions').getAttribute('data-count')) ?? '0');

/** Waits for the viewer to show a loaded part (the three.js canvas wrapper reports ready). */
async function viewerReady(page: Page): Promise<void> {
  await expect.poll(() => page.getByTestId('gen-part-canvas').getAttribute('data-state'), SLOW).toBe('ready');
}

/** Every deterministic claim of the contract shows `pass`. */
async function deterministicClaims(page: Page): Promise<string[]> {
  return page.locator('[data-testid^="gen-claim-"][data-deterministic="true"]').evaluateAll((nodes) => nodes.map((n) => n.getAttribute('data-status') ?? ''));
}

/** Every deterministic claim shown passes (and at least one is shown). */
async function allPass(page: Page): Promise<boolean> {
  const statuses = await deterministicClaims(page);
  return statuses.length > 0 && statuses.every((s) => s === 'pass');
}

describe('Generate → Describe a part (browser mode, scripted author and reviewer over HTTP)', () => {
  it('builds the flange from words: requirements, frozen contract, three actions in the viewer, passing claims, STEP and zip downloads, then its GB drawing', { timeout: 420_000 }, async () => {
    const models = await gatedCadgenModels(fixture);
    try {
      const page = await openDescribe(generationRolesEnv(models.provider, 'en'));
      await checkModels(page);
      await page.getByTestId('gen-request').fill(FLANGE);
      await page.screenshot({ path: screenshotPath('gen-words-form') });

      // Hold the reviewer on the drafts, the author before its first action and at each accepted revision.
      const drafts = models.hold((f) => f.state === 'REVIEWING_REQUIREMENTS');
      const frozen = models.hold((f) => f.state === 'AWAITING_ACTION' && f.head_revision === null);
      const pending = models.hold((f) => f.state === 'ACTION_PENDING');
      const reviewing = models.hold((f) => f.state === 'CANDIDATE_REVIEW');
      const landed = [1, 2, 3].map((n) => models.hold((f) => f.state === 'AWAITING_ACTION' && f.head_revision === `rev_00${n}`));
      const final = models.hold((f) => f.state === 'FINAL_VALIDATION');
      const phase = (): Promise<string | null> => page.getByTestId('gen-activity').getAttribute('data-phase');
      await page.getByTestId('gen-start').click();
      await page.getByTestId('gen-task-view').waitFor();
      const taskId = (await page.getByTestId('gen-task-view').getAttribute('data-task-id'))!;
      expect(taskId).toMatch(/^task_/);
      // The task opens first; the list is reloaded right after.
      await expect.poll(() => page.getByTestId(`gen-task-row-${taskId}`).count(), POLL).toBe(1);
      expect(await page.getByTestId('gen-source').textContent()).toContain('PCD 90');

      await drafts.reached;
      await expect.poll(() => page.locator('[data-testid^="gen-draft-"]').count(), POLL).toBe(fixture.requirements.length);
      // The drafts can show before the view's debounced refresh has seen the reviewer's turn start.
      await expect.poll(() => taskState(page), POLL).toBe('REVIEWING_REQUIREMENTS');
      await expect.poll(phase, POLL).toBe('reviewing_requirements');
      await page.screenshot({ path: screenshotPath('gen-words-drafts') });
      drafts.release();

      await frozen.reached;
      await page.getByTestId('gen-contract').waitFor(POLL);
      await expect.poll(() => page.locator('[data-testid^="gen-requirement-"]').count(), POLL).toBe(fixture.requirements.length);
      expect(await deterministicClaims(page)).toEqual(expect.arrayContaining(['pending']));
      await page.screenshot({ path: screenshotPath('gen-words-contract') });
      frozen.release();

      await pending.reached;
      await page.getByTestId('gen-pending-action').waitFor(POLL);
      await expect.poll(() => page.getByTestId('gen-pending-action').textContent(), POLL).toContain(fixture.actions[0]!.atomic_id);
      await expect.poll(phase, POLL).toBe('writing_fragment');
      pending.release();
      // The candidate is built and now under review: the pending card stays until it is accepted.
      await reviewing.reached;
      await expect.poll(phase, POLL).toBe('reviewing');
      expect(await page.getByTestId('gen-pending-action').count()).toBe(1);
      await page.screenshot({ path: screenshotPath('gen-words-candidate-review') });
      reviewing.release();

      // Each accepted action lands in the UI (revision count, viewer, claims) before the author moves on.
      for (const [i, gate] of landed.entries()) {
        await gate.reached;
        await expect.poll(() => revisionCount(page), POLL).toBe(i + 1);
        await expect.poll(() => page.getByTestId('gen-revisions').getAttribute('data-shown'), POLL).toBe(`rev_00${i + 1}`);
        await viewerReady(page);
        await page.screenshot({ path: screenshotPath(`gen-words-rev${i + 1}`) });
        gate.release();
      }
      await final.reached;
      await expect.poll(phase, POLL).toBe('final_validation');
      final.release();

      await expect.poll(() => taskState(page), SLOW).toBe('COMPLETED');
      await expect.poll(() => allPass(page), POLL).toBe(true);
      await expect.poll(() => page.locator('[data-testid^="gen-ledger-event-"][data-type="accepted"]').count(), POLL).toBe(3);
      await expect.poll(() => page.getByTestId(`gen-task-row-${taskId}`).getAttribute('data-state'), POLL).toBe('COMPLETED');
      await viewerReady(page);
      await page.screenshot({ path: screenshotPath('gen-words-completed') });
      // The panels below the fold, each scrolled into view: contract with evidence, drawings, history, usage.
      await page.getByTestId('cdsl-drawings').locator('img').first().waitFor(POLL);
      for (const [testId, name] of [['gen-contract', 'contract-passed'], ['cdsl-drawings', 'drawings'], ['gen-ledger', 'ledger'], ['gen-usage', 'usage']] as const) {
        await page.getByTestId(testId).screenshot({ path: screenshotPath(`gen-words-${name}`) });
      }
      // A claim's faces light up in the viewer; hovering the part names the face under the pointer.
      const boreClaim = page.locator('[data-testid^="gen-claim-faces-"]').first();
      await boreClaim.click();
      expect(await boreClaim.getAttribute('aria-pressed')).toBe('true');
      const canvas = (await page.getByTestId('gen-part-canvas').boundingBox())!;
      await page.mouse.move(canvas.x + canvas.width / 2, canvas.y + canvas.height * 0.62);
      await expect.poll(() => page.getByTestId('gen-face-info').getAttribute('data-token'), POLL).toMatch(/^fc_/);
      await page.getByTestId('gen-revisions').screenshot({ path: screenshotPath('gen-words-viewer-hover') });

      // An earlier revision from the slider: its own claim statuses, the viewer reloads it.
      await page.getByTestId('gen-revision-slider').fill('0');
      await expect.poll(() => page.getByTestId('gen-revisions').getAttribute('data-shown'), POLL).toBe('rev_001');
      await expect.poll(async () => (await deterministicClaims(page)).some((s) => s !== 'pass'), POLL).toBe(true);
      await viewerReady(page);
      await page.getByTestId('gen-revision-slider').fill('2');
      await expect.poll(() => page.getByTestId('gen-revisions').getAttribute('data-shown'), POLL).toBe('rev_003');

      const [step] = await Promise.all([page.waitForEvent('download'), page.getByTestId('gen-download-step').click()]);
      expect(step.suggestedFilename()).toBe(`${taskId}-rev_003.step`);
      expect(readFileSync((await step.path())!, 'latin1').startsWith('ISO-10303-21')).toBe(true);
      const [glb] = await Promise.all([page.waitForEvent('download'), page.getByTestId('gen-download-glb').click()]);
      expect(readFileSync((await glb.path())!).subarray(0, 4).toString('latin1')).toBe('glTF');
      const [requirements] = await Promise.all([page.waitForEvent('download'), page.getByTestId('gen-download-requirements').click()]);
      expect(readFileSync((await requirements.path())!, 'utf8')).toContain('req_001');
      const [zip] = await Promise.all([page.waitForEvent('download'), page.getByTestId('gen-download-zip').click()]);
      expect(zip.suggestedFilename()).toBe(`${taskId}-rev_003.zip`);
      const entries = unzipSync(readFileSync((await zip.path())!));
      expect(Object.keys(entries)).toEqual(expect.arrayContaining(['requirements.md', 'actions/action-ledger.jsonl', 'revisions/rev_003/model.step']));
      expect(Buffer.from(entries['revisions/rev_003/model.step']!).toString('latin1')).toBe(readFileSync((await step.path())!, 'latin1'));

      // "Drawing": the GB sheet of the shown revision with the default choices, previewed, self-reviewed and downloadable.
      await page.getByTestId('gen-drawing-open').click();
      expect(await page.getByTestId('gen-drawing-sheet').inputValue()).toBe('auto');
      expect(await page.getByTestId('gen-drawing-projection').inputValue()).toBe('first-angle');
      await page.getByTestId('gen-drawing-make').click();
      await page.getByTestId('gen-drawing-result').waitFor(SLOW);
      expect(await page.getByTestId('gen-drawing-result').getAttribute('data-blocking')).toBe('false');
      const preview = page.getByTestId('gen-drawing-preview');
      await preview.waitFor(POLL);
      await expect.poll(() => preview.evaluate((img) => (img as HTMLImageElement).naturalWidth), POLL).toBeGreaterThan(1000);
      await page.getByTestId('gen-drawing').screenshot({ path: screenshotPath('gen-words-drawing') });
      const [dxf] = await Promise.all([page.waitForEvent('download'), page.getByTestId('gen-drawing-dxf').click()]);
      expect(dxf.suggestedFilename()).toBe(`${taskId}-rev_003-drawing.dxf`);
      const dxfText = readFileSync((await dxf.path())!, 'utf8');
      expect(dxfText).toMatch(/^\s*0\r?\nSECTION\r?\n\s*2\r?\nHEADER\r?\n/);
      expect(dxfText).toContain('DIMENSION');
      const [pdf] = await Promise.all([page.waitForEvent('download'), page.getByTestId('gen-drawing-pdf').click()]);
      expect(readFileSync((await pdf.path())!).subarray(0, 5).toString('latin1')).toBe('%PDF-');
      await page.close();
    } finally {
      await models.provider.close();
    }
  });

  it('asks the user a question (zh-CN), takes the answer typed in the UI and continues to COMPLETED; a task cancelled after one action keeps its last good revision exportable', { timeout: 300_000 }, async () => {
    const question = 'The request gives no thickness: is the flange 12 mm thick?';
    const models = await gatedCadgenModels(fixture, { askUserOnce: { reason_code: 'missing_dimension', text: question, draftIndex: 0 } });
    try {
      const page = await openDescribe(generationRolesEnv(models.provider, 'zh-CN'));
      await checkModels(page);
      await page.getByTestId('gen-request').fill('法兰外径 120 mm，中心孔 Ø40，PCD 90 上均布 4×Ø10 通孔');
      await page.screenshot({ path: screenshotPath('gen-words-zh-form') });
      await page.getByTestId('gen-start').click();
      await page.getByTestId('gen-task-view').waitFor();
      await expect.poll(() => taskState(page), SLOW).toBe('WAITING_FOR_USER');
      const card = page.getByTestId('gen-question');
      expect(await card.textContent()).toContain(question);
      expect(await card.getAttribute('data-reason')).toBe('missing_dimension');
      await page.screenshot({ path: screenshotPath('gen-words-zh-question') });

      await page.getByTestId('gen-answer-input').fill('是的，厚度 12 mm。');
      await page.getByTestId('gen-answer-send').click();
      await expect.poll(() => page.getByTestId('gen-question').count(), POLL).toBe(0);
      await expect.poll(() => page.getByTestId('gen-source').textContent(), POLL).toContain('厚度 12 mm');
      await expect.poll(() => taskState(page), SLOW).toBe('COMPLETED');
      await expect.poll(() => allPass(page), POLL).toBe(true);
      await viewerReady(page);
      await page.screenshot({ path: screenshotPath('gen-words-zh-completed') });
      await page.getByTestId('gen-ledger').screenshot({ path: screenshotPath('gen-words-zh-ledger') });

      // A second task cancelled after its first accepted action: FAILED (CANCELLED), the last good revision still shown and exportable.
      const held = models.hold((f) => f.state === 'AWAITING_ACTION' && f.head_revision === 'rev_001');
      await page.getByTestId('gen-new').click();
      await page.getByTestId('gen-request').fill(FLANGE);
      await page.getByTestId('gen-start').click();
      await held.reached;
      await page.getByTestId('gen-cancel').click();
      await expect.poll(() => taskState(page), POLL).toBe('FAILED');
      held.release();
      expect(await page.getByTestId('gen-failed-notice').getAttribute('data-reason')).toBe('CANCELLED');
      await expect.poll(() => revisionCount(page), POLL).toBe(1);
      await viewerReady(page);
      await page.screenshot({ path: screenshotPath('gen-words-zh-failed') });
      const failedId = (await page.getByTestId('gen-task-view').getAttribute('data-task-id'))!;
      const [zip] = await Promise.all([page.waitForEvent('download'), page.getByTestId('gen-download-zip').click()]);
      expect(zip.suggestedFilename()).toBe(`${failedId}-rev_001.zip`);
      const entries = unzipSync(readFileSync((await zip.path())!));
      expect(Buffer.from(entries['revisions/rev_001/model.step']!).toString('latin1').startsWith('ISO-10303-21')).toBe(true);
      await page.getByTestId('gen-task-filter').selectOption('COMPLETED');
      await expect.poll(() => page.locator('[data-testid^="gen-task-row-"]').count(), POLL).toBe(1);
      await page.close();
    } finally {
      await models.provider.close();
    }
  });

  it('waits for the provider when it goes down mid-run (zh-CN), and Resume completes once it is back on the same port', { timeout: 300_000 }, async () => {
    const first = await gatedCadgenModels(fixture);
    const port = first.provider.port;
    let back: ScriptedProvider | undefined;
    try {
      const page = await openDescribe(generationRolesEnv(first.provider, 'zh-CN'));
      await checkModels(page);
      await page.getByTestId('gen-request').fill('法兰外径 120 mm，厚 12 mm，中心孔 Ø40，PCD 90 上均布 4×Ø10 通孔');
      // After the first accepted action the provider goes away: the connection drops, then nothing listens.
      const running = first.hold((f) => f.state === 'AWAITING_ACTION' && f.head_revision === 'rev_001', () => {
        void first.provider.close();
        return { dropConnection: true };
      });
      await page.getByTestId('gen-start').click();
      await page.getByTestId('gen-task-view').waitFor();
      await running.reached;
      await expect.poll(() => revisionCount(page), POLL).toBe(1);
      await viewerReady(page);
      await page.screenshot({ path: screenshotPath('gen-words-zh-running') });
      running.release();

      await expect.poll(() => taskState(page), SLOW).toBe('WAITING_RETRY');
      const notice = page.getByTestId('gen-retry-notice');
      expect(await notice.textContent()).toContain('CDSL_AUTHOR_TRANSPORT_UNAVAILABLE');
      await page.screenshot({ path: screenshotPath('gen-words-zh-waiting-retry') });

      back = (await gatedCadgenModels(fixture, {}, port)).provider;
      expect(back.apiBaseUrl).toBe(first.provider.apiBaseUrl);
      await page.getByTestId('gen-resume').click();
      await expect.poll(() => taskState(page), SLOW).toBe('COMPLETED');
      expect(await page.getByTestId('gen-retry-notice').count()).toBe(0);
      expect(await revisionCount(page)).toBe(3);
      await expect.poll(() => allPass(page), POLL).toBe(true);
      await expect.poll(() => page.locator('[data-testid^="gen-ledger-event-"]').evaluateAll((nodes) => nodes.map((n) => n.getAttribute('data-type'))), POLL).toEqual(expect.arrayContaining(['accepted']));
      await viewerReady(page);
      await page.screenshot({ path: screenshotPath('gen-words-zh-resumed-completed') });
      await page.close();
    } finally {
      await first.provider.close().catch(() => undefined);
      await back?.close();
    }
  });
});
