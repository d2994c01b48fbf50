import { execFileSync } from 'node:child_process';
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

    await page.getByTestId('frame-card-E9').click();
    await page.getByTestId('frame-enlarged').locator('img').waitFor();
    await page.getByTestId('frame-enlarged').locator('.panzoom-frame').hover();
    await page.mouse.wheel(0, -300);
    await page.screenshot({ path: screenshotPath('review-frame-enlarged') });
    await page.keyboard.press('Escape');

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
    expect(await page.getByTestId('saved-drawing').textContent()).toContain(saved);
    await page.screenshot({ path: screenshotPath('review-written-status') });

    // Moving an arrow: "Move arrow", then a click on the screenshot places the tip there (edited = approved with the new payload).
    const moved = page.getByTestId('finding-4');
    await moved.click();
    const before = await page.getByTestId('marker-4').boundingBox();
    await moved.getByTestId('finding-move').click();
    await page.getByTestId('moving-banner').waitFor();
    const shot = (await page.getByTestId('frame-shot').locator('img').boundingBox())!;
    await page.mouse.click(shot.x + shot.width * 0.3, shot.y + shot.height * 0.4);
    await expect.poll(() => moved.getAttribute('data-state'), POLL).toBe('edited');
    const after = (await page.getByTestId('marker-4').boundingBox())!;
    expect(Math.abs(after.x + after.width / 2 - (shot.x + shot.width * 0.3))).toBeLessThan(3);
    expect(Math.abs(after.y + after.height / 2 - (shot.y + shot.height * 0.4))).toBeLessThan(3);
    expect(after.x).not.toBeCloseTo(before!.x, 0);

    // The same screen in Simplified Chinese.
    await page.getByTestId('nav-settings').click();
    await page.getByTestId('locale-zh-CN').click();
    await page.getByTestId('nav-review').click();
    await expect.poll(() => page.getByTestId('write-open').textContent(), POLL).toContain('写入已批准的批注');
    await page.screenshot({ path: screenshotPath('review-zh-CN') });

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
