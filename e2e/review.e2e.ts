import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { screenshotPath } from './support/browser';
import type { RunningHost } from './support/host';
import { useBrowserJourney } from './support/journey';
import { startScriptedProvider } from '../electron/testSupport/scriptedProvider';
import { openDxfBackend, startJsonRpcLineServer } from '../electron/features/cadlink/index';
import { ezdxfPython } from '../electron/testSupport/prereqs';

const journey = useBrowserJourney();
/** The host shares two cores with other work: wait generously for UI state, never for a fixed time. */
const POLL = { timeout: 30_000 };
const SLOW = { timeout: 90_000 };
const python = ezdxfPython('review.e2e ezdxf read-back');

async function openApp(env?: Record<string, string>): Promise<{ host: RunningHost; page: Page }> {
  const host = await journey.host(env ? { env } : {});
  const page = await journey.browser().newPage({ viewport: { width: 1600, height: 1000 } });
  await page.goto(host.url);
  return { host, page };
}

describe('Review view journey (browser mode)', () => {
  it('opens the sample, runs a rules-only review, approves two, rejects one and writes them to <name>.ai-review.dxf', async () => {
    const { page } = await openApp();
    // The Review view is the start screen and a new user gets the bundled sample.
    await page.getByTestId('view-review').waitFor();
    await expect.poll(() => page.getByTestId('review-source-current').getAttribute('data-kind'), POLL).toBe('sample');
    await expect.poll(() => page.locator('.frame-card img').count(), POLL).toBe(3);
    await page.screenshot({ path: screenshotPath('review-drawing') });

    // The viewer: a frame card zooms to its frame; the wheel zooms further and tiles arrive at that zoom.
    await page.getByTestId('frame-card-E9').click();
    const stage = page.getByTestId('viewer-stage');
    await stage.hover();
    for (let i = 0; i < 4; i++) await page.mouse.wheel(0, -200);
    await expect.poll(async () => Number(await stage.getAttribute('data-tiles')), SLOW).toBeGreaterThan(0);
    await page.screenshot({ path: screenshotPath('review-viewer-zoomed') });
    // Hiding a layer re-renders without it; a click lists the entity under the pointer with its handle.
    await page.getByTestId('layer-toggle-图框').uncheck();
    await page.getByTestId('viewer-base').waitFor();
    await page.screenshot({ path: screenshotPath('review-viewer-layer-hidden') });
    await page.getByTestId('layer-toggle-图框').check();
    await page.getByTestId('viewer-tools-fit').click();
    const box = (await stage.boundingBox())!;
    await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
    await page.getByTestId('entity-inspector').or(page.getByTestId('inspector-empty')).waitFor();
    await page.screenshot({ path: screenshotPath('review-viewer-inspect') });

    await page.getByTestId('review-start').click();
    await expect.poll(() => page.getByTestId('run-view').getAttribute('data-status'), SLOW).toBe('completed');
    await expect.poll(() => page.getByTestId('report-paths').textContent(), POLL).toContain('report.md');
    const items = await page.locator('[data-testid^="finding-"][data-item]').evaluateAll((nodes) => nodes.map((n) => n.getAttribute('data-item')));
    expect(items).toEqual(expect.arrayContaining(['LAY-001', 'DIM-001', 'TXT-001', 'TB-001', 'GEO-001', 'GEO-002']));

    // Clicking a finding highlights its marker on the frame screenshot; a marker click selects its finding.
    await page.getByTestId('finding-2').click();
    await expect.poll(() => page.getByTestId('marker-2').getAttribute('data-selected'), POLL).toBe('true');
    await page.screenshot({ path: screenshotPath('review-finding-selected') });
    await page.getByTestId('marker-2').click();
    await page.getByTestId('finding-1').click();
    await expect.poll(() => page.getByTestId('marker-1').getAttribute('data-selected'), POLL).toBe('true');
    await page.getByTestId('marker-1').click();
    await expect.poll(() => page.getByTestId('finding-1').getAttribute('class'), POLL).toContain('selected');

    await page.getByTestId('finding-1').getByTestId('finding-approve').click();
    await expect.poll(() => page.getByTestId('finding-1').getAttribute('data-state'), POLL).toBe('approved');
    await page.getByTestId('finding-2').getByTestId('finding-approve').click();
    await expect.poll(() => page.getByTestId('finding-2').getAttribute('data-state'), POLL).toBe('approved');
    await page.getByTestId('finding-3').getByTestId('finding-reject').click();
    await expect.poll(() => page.getByTestId('finding-3').getAttribute('data-state'), POLL).toBe('rejected');

    // Before writing, the approved leaders are previewed on the drawing (dashed).
    await expect.poll(() => page.locator('[data-testid^="leader-preview-"]').count(), POLL).toBeGreaterThan(0);
    await page.screenshot({ path: screenshotPath('review-leader-preview') });
    await page.getByTestId('write-open').click();
    await page.getByTestId('write-dialog').waitFor();
    expect(await page.getByTestId('write-item').count()).toBe(2);
    expect(await page.getByTestId('write-dialog').textContent()).toContain('.ai-review.dxf');
    await page.screenshot({ path: screenshotPath('review-write-confirm') });
    await page.getByTestId('write-confirm').click();
    await page.getByTestId('write-result').waitFor();
    const saved = (await page.getByTestId('saved-path').textContent())!;
    expect(saved).toMatch(/cadsight_sample_gb_a3_3frames\.ai-review\.dxf$/);
    await page.screenshot({ path: screenshotPath('review-written') });
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByTestId('finding-1').getAttribute('data-state'), POLL).toBe('written');
    expect(await page.getByTestId('finding-2').getAttribute('data-state')).toBe('written');
    expect(await page.getByTestId('finding-3').getAttribute('data-state')).toBe('rejected');
    // The run names the annotated copy (its folder in the tooltip) and offers it as a download.
    expect(await page.getByTestId('saved-drawing').textContent()).toContain(path.basename(saved));
    // The annotated DXF and the report download from the browser.
    const [dxfDownload] = await Promise.all([page.waitForEvent('download'), page.getByTestId('download-dxf').click()]);
    expect(dxfDownload.suggestedFilename()).toBe('cadsight_sample_gb_a3_3frames.ai-review.dxf');
    expect(readFileSync((await dxfDownload.path())!)).toEqual(readFileSync(saved));
    const [reportDownload] = await Promise.all([page.waitForEvent('download'), page.getByTestId('download-markdown').click()]);
    expect(reportDownload.suggestedFilename()).toBe('report.md');
    // Written leaders are drawn solid over the drawing.
    await expect.poll(() => page.locator('[data-testid^="leader-written-"]').count(), POLL).toBeGreaterThan(0);
    await page.screenshot({ path: screenshotPath('review-written-status') });

    // Moving an arrow: "Move arrow", then a click on the drawing places the tip there (edited = approved with the new payload);
    // the marker sits just beside the new tip, not on it.
    const moved = page.getByTestId('finding-4');
    await moved.click();
    const before = (await page.getByTestId('marker-4').boundingBox())!;
    await moved.getByTestId('finding-move').click();
    await page.getByTestId('moving-banner').waitFor();
    const frameStage = (await page.getByTestId('frame-viewer').getByTestId('viewer-stage').boundingBox())!;
    const target = { x: frameStage.x + frameStage.width * 0.3, y: frameStage.y + frameStage.height * 0.4 };
    await page.mouse.click(target.x, target.y);
    await expect.poll(() => moved.getAttribute('data-state'), POLL).toBe('edited');
    const after = (await page.getByTestId('marker-4').boundingBox())!;
    const distance = Math.hypot(after.x + after.width / 2 - target.x, after.y + after.height / 2 - target.y);
    expect(distance).toBeGreaterThan(10);
    expect(distance).toBeLessThan(60);
    expect(after.x).not.toBeCloseTo(before.x, 0);

    // And from the keyboard: arrows move the tip, Enter places it.
    const keyed = page.getByTestId('finding-5');
    await keyed.click();
    await keyed.getByTestId('finding-move').click();
    await page.getByTestId('viewer-crosshair').waitFor();
    for (let i = 0; i < 5; i++) await page.keyboard.press('ArrowRight');
    await page.keyboard.press('Enter');
    await expect.poll(() => keyed.getAttribute('data-state'), POLL).toBe('edited');
    await page.screenshot({ path: screenshotPath('review-arrow-moved') });

    // The same screen in Simplified Chinese.
    await page.getByTestId('nav-settings').click();
    await page.getByTestId('locale-zh-CN').click();
    await page.getByTestId('nav-review').click();
    await expect.poll(() => page.getByTestId('write-open').textContent(), POLL).toContain('写入已批准的批注');
    // Back on Review, the pictures are there again (not stuck on "Rendering…").
    await page.getByTestId('frame-viewer').getByTestId('viewer-base').waitFor(POLL);
    await page.screenshot({ path: screenshotPath('review-zh-CN') });
    await page.getByTestId('open-sample').click();
    await page.getByTestId('drawing-panel').waitFor();
    await page.getByTestId('viewer-base').waitFor();
    await page.screenshot({ path: screenshotPath('review-drawing-zh-CN') });

    if (python) {
      const script =
        'import ezdxf,sys,json; d=ezdxf.readfile(sys.argv[1]); a=d.audit(); m=d.modelspace(); print(json.dumps({"errors": len(a.errors), "leaders": len([e for e in m if e.dxf.layer=="AI_REVIEW" and e.dxftype()=="LEADER"])}))';
      expect(JSON.parse(execFileSync(python, ['-c', script, saved], { encoding: 'utf8' }))).toEqual({ errors: 0, leaders: 2 });
    }
    await page.close();
  }, 180_000);

  it('runs a second review with the reviewer model and shows the LLM findings with their evidence', async () => {
    // The scripted provider (real HTTP, test support only) answers every frame through the forced submit tool.
    const provider = await startScriptedProvider({
      script: (request) => {
        const frameId = /frameId \\"([^\\"]+)\\"/.exec(JSON.stringify(request.body))?.[1] ?? '';
        const findings =
          frameId === 'E9'
            ? [{ checklistItemId: 'LLM-002', message: '注释“注：安装孔配钻。”与尺寸线距离过近，易误读。', location: { kind: 'point', x: 600, y: 150 }, evidenceRefs: ['screenshot:E9/overview'], annotationText: '注释与尺寸线过近' }]
            : [];
        return { toolCall: { name: 'submit_findings', arguments: { frameId, findings } } };
      },
    });
    try {
      const { page } = await openApp({ CADSIGHT_REVIEWER_PROVIDER: 'custom', CADSIGHT_REVIEWER_BASE_URL: provider.apiBaseUrl, CADSIGHT_REVIEWER_MODEL: 'scripted-model' });
      await expect.poll(() => page.getByTestId('review-source-current').getAttribute('data-kind'), POLL).toBe('sample');
      await page.getByTestId('review-start').click();
      await expect.poll(() => page.getByTestId('run-view').getAttribute('data-status'), SLOW).toBe('completed');
      expect(await page.getByTestId('finding-llm').count()).toBe(0);

      await page.getByTestId('llm-toggle').check();
      expect(await page.getByTestId('llm-model').textContent()).toContain('scripted-model');
      await page.getByTestId('review-start').click();
      await expect.poll(() => page.getByTestId('run-item').count(), POLL).toBe(2);
      await expect.poll(() => page.getByTestId('run-view').getAttribute('data-status'), SLOW).toBe('completed');
      await expect.poll(() => page.getByTestId('finding-llm').count(), POLL).toBe(1);
      const llmFinding = page.locator('[data-item="LLM-002"]');
      await llmFinding.click();
      expect(await llmFinding.textContent()).toContain('安装孔配钻');
      expect(await llmFinding.getByTestId('finding-evidence').textContent()).toContain('screenshot:E9/overview');
      const n = (await llmFinding.getAttribute('data-testid'))!.replace('finding-', '');
      await expect.poll(() => page.getByTestId(`marker-${n}`).getAttribute('data-selected'), POLL).toBe('true');
      await page.screenshot({ path: screenshotPath('review-llm-findings') });
      // The tool-call check, one request per frame, and one evidence re-ask on E9: the finding cites only
      // the screenshot, so it stays a hypothesis shown apart.
      expect(provider.requests.length).toBe(1 + 3 + 1);
      expect(await llmFinding.getByTestId('finding-hypothesis').count()).toBe(1);
      await page.close();
    } finally {
      await provider.close();
    }
  }, 180_000);

  it('connects to AutoCAD (a cad_mcp_frame-compatible server), lists its tools and frames, and says clearly when it goes away', async () => {
    const server = await startJsonRpcLineServer({ port: 0, handler: await openDxfBackend('resources/samples/cadsight_sample_gb_a3_3frames.dxf') });
    let open = true;
    try {
      const { page } = await openApp();
      await expect.poll(() => page.getByTestId('review-source-current').getAttribute('data-kind'), POLL).toBe('sample');
      // Another computer is only reached after the user confirmed it; cancelling sends nothing.
      await page.getByTestId('cad-host').fill('10.0.0.5');
      await page.getByTestId('cad-connect').click();
      await page.getByTestId('cad-remote-confirm').waitFor();
      await page.screenshot({ path: screenshotPath('review-autocad-remote-confirm') });
      await page.getByTestId('cad-remote-cancel').click();
      expect(await page.getByTestId('review-source-current').getAttribute('data-kind')).toBe('sample');
      await page.getByTestId('cad-host').fill('127.0.0.1');
      await page.getByTestId('cad-port').fill(String(server.port));
      await page.getByTestId('cad-connect').click();
      await expect.poll(() => page.getByTestId('review-source-current').getAttribute('data-kind'), POLL).toBe('cad');
      expect(await page.getByTestId('cad-state').getAttribute('data-state')).toBe('connected');
      await expect.poll(() => page.locator('.frame-card img').count(), POLL).toBe(3);
      await page.getByTestId('tool-list').locator('summary').click();
      expect(await page.getByTestId('tool-list').textContent()).toContain('add_leader_annotation');
      await page.screenshot({ path: screenshotPath('review-autocad-connected') });

      await server.close();
      open = false;
      await expect.poll(() => page.getByTestId('cad-state').getAttribute('data-state'), POLL).not.toBe('connected');
      await page.getByTestId('cad-lost').waitFor();
      await page.getByTestId('drawing-refresh').click();
      const banner = page.getByTestId('error-banner');
      await banner.waitFor();
      expect(await banner.getAttribute('data-code')).toMatch(/^CAD_(NOT_CONNECTED|DISCONNECTED)$/);
      await page.screenshot({ path: screenshotPath('review-autocad-lost') });
      await page.close();
    } finally {
      if (open) await server.close();
    }
  });

  it('keeps "Write approved annotations" on screen for a drawing with a very long file name, and opening another DXF leaves the run', async () => {
    const { page } = await openApp();
    await expect.poll(() => page.getByTestId('review-source-current').getAttribute('data-kind'), POLL).toBe('sample');
    const longName = `${'very_long_drawing_name_from_a_supplier_with_revision_and_date_'.repeat(3)}2026-11-30.dxf`;
    await page.getByTestId('dxf-input').setInputFiles({ name: longName, mimeType: 'application/dxf', buffer: readFileSync('resources/samples/cadsight_sample_gb_a3_3frames.dxf') });
    await expect.poll(() => page.getByTestId('review-source-current').getAttribute('data-kind'), POLL).toBe('dxf');
    await page.getByTestId('review-start').click();
    await expect.poll(() => page.getByTestId('run-view').getAttribute('data-status'), SLOW).toBe('completed');
    const button = (await page.getByTestId('write-open').boundingBox())!;
    expect(button.x).toBeGreaterThanOrEqual(0);
    expect(button.x + button.width).toBeLessThanOrEqual(1600);
    await page.screenshot({ path: screenshotPath('review-long-name') });
    await page.getByTestId('open-sample').click();
    await expect.poll(() => page.getByTestId('review-source-current').getAttribute('data-kind'), POLL).toBe('sample');
    await page.getByTestId('drawing-panel').waitFor();
    expect(await page.getByTestId('run-view').count()).toBe(0);
    await page.close();
  });

  it('shows a clear typed error when a DWG file is opened, and keeps the drawing that was open', async () => {
    const { page } = await openApp();
    await expect.poll(() => page.getByTestId('review-source-current').getAttribute('data-kind'), POLL).toBe('sample');
    await page.getByTestId('dxf-input').setInputFiles({ name: 'plan.dwg', mimeType: 'application/octet-stream', buffer: Buffer.concat([Buffer.from('AC1032'), Buffer.alloc(512)]) });
    const banner = page.getByTestId('error-banner');
    await banner.waitFor();
    expect(await banner.getAttribute('data-code')).toBe('CAD_DWG_UNSUPPORTED');
    expect(await page.getByTestId('review-source-current').getAttribute('data-kind')).toBe('sample');
    await page.screenshot({ path: screenshotPath('review-dwg-refused') });
    await page.close();
  });
});
