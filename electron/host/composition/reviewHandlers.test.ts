import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { ipcEvents } from '../../../shared/ipc/channels';
import { reviewChannels } from '../../../shared/ipc/contracts/review';
import { openDxfBackend, startJsonRpcLineServer } from '../../features/cadlink/index';
import { createEventBus } from '../../platform/events/eventBus';
import { createIpcRouter } from '../../platform/ipc/router';
import { startScriptedProvider } from '../../testSupport/scriptedProvider';
import { overlapReviewer } from '../../testSupport/reviewScripts/overlapReviewer';
import { createPlatformRuntime, type PlatformRuntime } from './platformRuntime';
import { createReviewHandlers, createReviewWorkspace, type ReviewWorkspace } from './reviewHandlers';
import { pngSize } from './reviewOverview';
import { ezdxfPython } from '../../testSupport/prereqs';

const repoRoot = path.resolve(__dirname, '../../..');
const resourcesDir = path.join(repoRoot, 'resources');
const sample = path.join(resourcesDir, 'samples/cadsight_sample_gb_a3_3frames.dxf');
const python = ezdxfPython('reviewHandlers.test ezdxf read-back');
/** Planted problems of the sample as frame:checklist item (resources/samples/README.md). */
const PLANTED = ['139:GEO-001', '139:GEO-002', '139:TB-001', '92:LAY-001', 'E9:DIM-001', 'E9:TXT-001'];

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

type Channel = keyof typeof reviewChannels;
interface App {
  platform: PlatformRuntime;
  workspace: ReviewWorkspace;
  events: { event: string; payload: any }[];
  call(channel: Channel, input?: unknown): Promise<any>;
  /** Calls and unwraps, failing the test with the typed error when the call fails. */
  ok(channel: Channel, input?: unknown): Promise<any>;
  waitFor(event: string, match: (payload: any) => boolean): Promise<any>;
}

/** The real platform (temp data folder, SQLite, settings) with the review handlers behind the router. */
function startApp(dataDir: string): App {
  const platform = createPlatformRuntime({ env: { CADSIGHT_DATA_DIR: dataDir }, systemLocale: 'en', logName: 'test.log' });
  const bus = createEventBus(ipcEvents, (error) => {
    throw error;
  });
  const events: App['events'] = [];
  const waiters: { event: string; match: (p: any) => boolean; resolve: (p: any) => void }[] = [];
  bus.subscribe((event, payload) => {
    events.push({ event, payload });
    for (const w of waiters.filter((w) => w.event === event && w.match(payload))) {
      waiters.splice(waiters.indexOf(w), 1);
      w.resolve(payload);
    }
  });
  const workspace = createReviewWorkspace(platform, { events: bus, version: 'test', resourcesDir });
  cleanups.push(() => {
    workspace.close();
    platform.close();
  });
  const router = createIpcRouter(reviewChannels, createReviewHandlers(workspace), (channel, error) => {
    throw new Error(`internal error in ${channel}: ${String(error)}`);
  });
  const call = (channel: Channel, input: unknown = {}) => router.dispatch(channel, input, { transport: 'test' });
  return {
    platform,
    workspace,
    events,
    call,
    async ok(channel, input) {
      const result = await call(channel, input);
      if (!result.ok) throw new Error(`${channel} failed: ${result.error.code} ${result.error.message}`);
      return result.value;
    },
    waitFor(event, match) {
      const seen = events.find((e) => e.event === event && match(e.payload));
      if (seen) return Promise.resolve(seen.payload);
      return new Promise((resolve) => waiters.push({ event, match, resolve }));
    },
  };
}

const tempDir = (): string => mkdtempSync(path.join(tmpdir(), 'review-handlers-'));
const planted = (findings: { frameId: string | null; checklistItemId: string }[]): string[] =>
  [...new Set(findings.map((f) => `${f.frameId}:${f.checklistItemId}`))].filter((k) => PLANTED.includes(k)).sort();

async function completedRun(app: App, input = { checklistPath: null, llm: false, model: null }): Promise<any> {
  const { runId } = await app.ok('reviewStart', input);
  await app.waitFor('reviewRunStatus', (p) => p.runId === runId && p.status !== 'running');
  return app.ok('reviewGetRun', { runId });
}

describe('review handlers on the bundled sample drawing', () => {
  it('asks for a drawing before anything else, then opens the sample with its tools, layers and three frames', async () => {
    const app = startApp(tempDir());
    expect(await app.ok('reviewGetDrawing')).toBeNull();
    expect((await app.call('reviewStart', { checklistPath: null, llm: false, model: null })).error.code).toBe('REVIEW_NO_DRAWING');

    const overview = await app.ok('reviewOpenSample');
    expect(overview.source).toMatchObject({ kind: 'sample', label: 'cadsight_sample_gb_a3_3frames.dxf' });
    expect(overview.source.path.startsWith(path.join(app.platform.layout.root, 'drawings'))).toBe(true);
    expect(overview.frames.map((f: any) => [f.id, f.sheetName, f.titleBlock.title])).toEqual([
      ['92', 'A3', '法兰盘'],
      ['E9', 'A3', '支架'],
      ['139', 'A3', '轴'],
    ]);
    const access = Object.fromEntries(overview.tools.map((t: any) => [t.name, t.access]));
    expect(access).toMatchObject({ get_screenshot: 'read', find_frames: 'read', add_leader_annotation: 'write', save_drawing: 'write' });
    expect(overview.layers.map((l: any) => l.name)).toContain('图框');
    expect(overview.info).toMatchObject({ version: 'AC1024', units: 'millimeters', entityCount: 155 });
    expect(overview.warnings).toEqual([]);

    const image = await app.ok('reviewFrameImage', { frameId: 'E9', maxEdge: 800 });
    expect(image.widthPx).toBe(800);
    expect(pngSize(Buffer.from(image.dataBase64, 'base64'))).toEqual({ widthPx: image.widthPx, heightPx: image.heightPx });
    expect((await app.call('reviewFrameImage', { frameId: 'nope' })).error.code).toBe('REVIEW_FRAME_NOT_FOUND');
    expect(await app.ok('reviewGetDrawing')).toEqual(overview);
  });

  it('serves the drawing viewer: whole layouts and tiles with the region they cover, hidden layers, picking and entity lookup', async () => {
    const app = startApp(tempDir());
    expect((await app.call('reviewViewImage', { layout: 'Model', maxEdge: 256, hiddenLayers: [] })).error.code).toBe('REVIEW_NO_DRAWING');
    const overview = await app.ok('reviewOpenSample');
    const whole = await app.ok('reviewViewImage', { layout: 'Model', maxEdge: 512, hiddenLayers: [] });
    expect(whole.image.widthPx).toBe(512);
    const frame = overview.frames.find((f: any) => f.id === 'E9');
    // The whole layout contains every frame.
    expect(whole.region.minX).toBeLessThanOrEqual(frame.bbox.minX);
    expect(whole.region.maxY).toBeGreaterThanOrEqual(frame.bbox.maxY);
    const tile = await app.ok('reviewViewImage', { layout: 'Model', bbox: frame.bbox, maxEdge: 300, hiddenLayers: [] });
    // The region covers the request (plus the backend's margin) and has the picture's aspect ratio.
    expect(tile.region.minX).toBeLessThanOrEqual(frame.bbox.minX);
    expect(tile.region.maxX).toBeGreaterThanOrEqual(frame.bbox.maxX);
    const aspect = (tile.region.maxX - tile.region.minX) / (tile.region.maxY - tile.region.minY);
    expect(Math.abs(aspect - tile.image.widthPx / tile.image.heightPx)).toBeLessThan(0.02);
    const hidden = await app.ok('reviewViewImage', { layout: 'Model', bbox: frame.bbox, maxEdge: 300, hiddenLayers: overview.layers.map((l: any) => l.name) });
    expect(hidden.image.dataBase64).not.toBe(tile.image.dataBase64);
    expect((await app.call('reviewViewImage', { layout: 'NoSuchLayout', maxEdge: 256, hiddenLayers: [] })).ok).toBe(false);

    const detail = await completedRun(app);
    const cited = detail.findings.flatMap((f: any) => f.evidenceRefs).find((r: string) => r.startsWith('entity:'))!.slice('entity:'.length);
    const entity = await app.ok('reviewGetEntity', { handle: cited });
    expect(entity.handle.toUpperCase()).toBe(cited.toUpperCase());
    expect(entity.bbox).not.toBeNull();
    expect(Object.keys(entity.properties)).not.toContain('handle');
    const { minX, minY, maxX, maxY } = entity.bbox;
    const cx = (minX + maxX) / 2;
    const cy = (minY + maxY) / 2;
    const picked = await app.ok('reviewPickEntities', { layout: 'Model', bbox: { minX: cx - 0.5, minY: cy - 0.5, maxX: cx + 0.5, maxY: cy + 0.5 } });
    expect(picked.total).toBeGreaterThanOrEqual(1);
    expect(picked.entities.length).toBeLessThanOrEqual(20);
    expect(picked.entities.map((e: any) => e.handle)).toContain(entity.handle);
    expect((await app.call('reviewGetEntity', { handle: 'FFFFFF' })).error.code).toBe('CAD_TOOL_ERROR');

    // The run's report downloads; its annotated drawing only once written.
    const report = await app.ok('reviewDownloadFile', { runId: detail.run.id, kind: 'markdown' });
    expect(report.fileName).toBe('report.md');
    expect(Buffer.from(report.dataBase64, 'base64').toString('utf8')).toEqual(readFileSync(detail.report.markdown, 'utf8'));
    expect((await app.ok('reviewDownloadFile', { runId: detail.run.id, kind: 'json' })).mimeType).toBe('application/json');
    expect((await app.call('reviewDownloadFile', { runId: detail.run.id, kind: 'dxf' })).error.code).toBe('REVIEW_FILE_NOT_FOUND');
    expect((await app.call('reviewDownloadFile', { runId: 'no-such-run', kind: 'json' })).error.code).toBe('REVIEW_RUN_NOT_FOUND');
  });

  it('runs a rules-only review in the background with progress and finds every planted problem', async () => {
    const app = startApp(tempDir());
    await app.ok('reviewOpenSample');
    const detail = await completedRun(app);
    expect(detail.run).toMatchObject({ status: 'completed', llm: false, framesDone: 3, framesTotal: 3 });
    expect(planted(detail.findings)).toEqual(PLANTED);
    expect(app.events.some((e) => e.event === 'progress' && e.payload.taskId === detail.run.id && e.payload.phase === 'frames')).toBe(true);
    expect(existsSync(detail.report.json) && existsSync(detail.report.markdown)).toBe(true);
    expect(detail.checklistItems.find((i: any) => i.id === 'DIM-001')).toMatchObject({ severity: 'blocking', mode: 'rule' });

    const frame = detail.frames.find((f: any) => f.frame.id === 'E9');
    expect(frame.status).toBe('done');
    expect(frame.counts.blocking).toBe(1);
    const shot = await app.ok('reviewRunImage', { runId: detail.run.id, file: frame.screenshot.file });
    expect([shot.widthPx, shot.heightPx]).toEqual([frame.screenshot.widthPx, frame.screenshot.heightPx]);
    expect((await app.call('reviewRunImage', { runId: detail.run.id, file: '../../settings.json' })).error.code).toBe('REVIEW_FILE_NOT_FOUND');

    const runs = await app.ok('reviewListRuns');
    expect(runs.runs[0]).toMatchObject({ id: detail.run.id, status: 'completed', findings: detail.findings.length });
  });

  it('binds approvals to the payload, moves anchors, and writes exactly the confirmed leaders to <name>.ai-review.dxf', async () => {
    const app = startApp(tempDir());
    await app.ok('reviewOpenSample');
    const detail = await completedRun(app);
    const runId = detail.run.id;
    const [a, b, c] = detail.findings;

    expect((await app.call('reviewDecide', { runId, findingId: a.id, decision: { kind: 'approve', payloadHash: 'f'.repeat(64) } })).error.code).toBe('REVIEW_APPROVAL_STALE');
    await app.ok('reviewDecide', { runId, findingId: a.id, decision: { kind: 'approve', payloadHash: a.payloadHash } });
    const anchor = { x: a.annotation.anchor.x + 5, y: a.annotation.anchor.y + 5 };
    const moved = await app.ok('reviewDecide', { runId, findingId: b.id, decision: { kind: 'edit', anchor, text: '请核对此处' } });
    expect(moved.annotation).toMatchObject({ state: 'edited', anchor, text: '请核对此处' });
    expect(moved.annotation.textAt.x - anchor.x).toBeCloseTo(b.annotation.textAt.x - b.annotation.anchor.x);
    expect((await app.ok('reviewDecide', { runId, findingId: c.id, decision: { kind: 'reject' } })).annotation.state).toBe('rejected');

    const plan = await app.ok('reviewPreviewWrite', { runId });
    expect(plan.items.map((i: any) => i.findingId).sort()).toEqual([a.id, b.id].sort());
    expect(plan.saveTo).toMatch(/cadsight_sample_gb_a3_3frames\.ai-review\.dxf$/);
    expect(plan.items.find((i: any) => i.findingId === b.id)).toMatchObject({ tool: 'add_leader_annotation', text: '请核对此处', points: [anchor, moved.annotation.textAt] });

    // A confirmation of another plan (here: one leader missing) writes nothing.
    expect((await app.call('reviewWriteApproved', { runId, payloadHashes: [plan.items[0].payloadHash] })).error.code).toBe('REVIEW_APPROVAL_STALE');
    const result = await app.ok('reviewWriteApproved', { runId, payloadHashes: plan.items.map((i: any) => i.payloadHash) });
    expect(result.written.sort()).toEqual([a.id, b.id].sort());
    expect(result.savedPath).toBe(plan.saveTo);
    const after = await app.ok('reviewGetRun', { runId });
    expect(after.savedDrawing).toBe(plan.saveTo);
    expect(after.findings.filter((f: any) => f.annotation.state === 'written').map((f: any) => f.id).sort()).toEqual([a.id, b.id].sort());
    expect(after.findings.find((f: any) => f.id === a.id).writtenAt).toEqual(expect.any(String));
    expect((await app.call('reviewWriteApproved', { runId, payloadHashes: plan.items.map((i: any) => i.payloadHash) })).error.code).toBe('REVIEW_NOTHING_TO_WRITE');
    expect((await app.call('reviewDecide', { runId, findingId: a.id, decision: { kind: 'reject' } })).error.code).toBe('REVIEW_ANNOTATION_WRITTEN');

    if (python) {
      const script = 'import ezdxf,sys,json; d=ezdxf.readfile(sys.argv[1]); a=d.audit(); m=d.modelspace(); print(json.dumps({"errors": len(a.errors), "leaders": len([e for e in m if e.dxf.layer=="AI_REVIEW" and e.dxftype()=="LEADER"]), "texts": sorted(e.plain_text() if e.dxftype()=="MTEXT" else e.dxf.text for e in m if e.dxf.layer=="AI_REVIEW" and e.dxftype() in ("MTEXT","TEXT"))}))';
      const readBack = JSON.parse(execFileSync(python, ['-c', script, result.savedPath], { encoding: 'utf8' }));
      expect(readBack).toEqual({ errors: 0, leaders: 2, texts: plan.items.map((i: any) => i.text).sort() });
    }
  });

  it('keeps leaders written in an earlier session when the same drawing is written again after a restart', async () => {
    const dataDir = tempDir();
    const first = startApp(dataDir);
    await first.ok('reviewOpenSample');
    const one = await completedRun(first);
    const [a, b] = one.findings;
    await first.ok('reviewDecide', { runId: one.run.id, findingId: a.id, decision: { kind: 'approve', payloadHash: a.payloadHash } });
    const plan1 = await first.ok('reviewPreviewWrite', { runId: one.run.id });
    await first.ok('reviewWriteApproved', { runId: one.run.id, payloadHashes: plan1.items.map((i: any) => i.payloadHash) });
    await cleanups.splice(0).reverse().reduce((p, f) => p.then(f), Promise.resolve());

    const second = startApp(dataDir);
    await second.ok('reviewOpenSample');
    const two = await completedRun(second);
    // Same drawing and checklist: the same findings, the written one still written.
    expect(two.findings.map((f: any) => f.id).sort()).toEqual(one.findings.map((f: any) => f.id).sort());
    expect(two.findings.find((f: any) => f.id === a.id).annotation.state).toBe('written');
    await second.ok('reviewDecide', { runId: two.run.id, findingId: b.id, decision: { kind: 'approve', payloadHash: b.payloadHash } });
    const plan2 = await second.ok('reviewPreviewWrite', { runId: two.run.id });
    expect(plan2.items.map((i: any) => i.findingId)).toEqual([b.id]);
    const saved = (await second.ok('reviewWriteApproved', { runId: two.run.id, payloadHashes: plan2.items.map((i: any) => i.payloadHash) })).savedPath;
    const text = readFileSync(saved, 'utf8');
    // Both ids live in XDATA (1001 CADSIGHT_REVIEW / 1000 <id>), none in the visible text.
    expect(text).toMatch(new RegExp(`1001\\r?\\nCADSIGHT_REVIEW\\r?\\n\\s*1000\\r?\\n${a.shortId}`));
    expect(text).toMatch(new RegExp(`1001\\r?\\nCADSIGHT_REVIEW\\r?\\n\\s*1000\\r?\\n${b.shortId}`));
    expect(text).not.toContain('[AI-R');
    const download = await second.ok('reviewDownloadFile', { runId: two.run.id, kind: 'dxf' });
    expect(download.fileName).toBe(path.basename(saved));
    expect(Buffer.from(download.dataBase64, 'base64')).toEqual(readFileSync(saved));

    // "Sample drawing" reopens the original, not the annotated copy: nothing of AI_REVIEW is drawn or counted.
    const reopened = await second.ok('reviewOpenSample');
    expect(reopened.source.path).not.toContain('.ai-review');
    expect(reopened.info.entityCount).toBe(155);
    expect(reopened.layers.map((l: any) => l.name)).not.toContain('AI_REVIEW');
  });

  it('resumes a cancelled run after a restart on its drawing and completes it', async () => {
    const dataDir = tempDir();
    const first = startApp(dataDir);
    await first.ok('reviewOpenSample');
    const { runId } = await first.ok('reviewStart', { checklistPath: null, llm: false, model: null });
    expect(await first.ok('reviewCancel', { runId })).toEqual({ cancelled: true });
    const status = await first.waitFor('reviewRunStatus', (p) => p.runId === runId && p.status !== 'running');
    expect(status.status).toBe('cancelled');
    await cleanups.splice(0).reverse().reduce((p, f) => p.then(f), Promise.resolve());

    const second = startApp(dataDir);
    expect((await second.ok('reviewListRuns')).runs[0]).toMatchObject({ id: runId, status: 'cancelled' });
    expect(await second.ok('reviewGetDrawing')).toBeNull();
    await second.ok('reviewResume', { runId });
    await second.waitFor('reviewRunStatus', (p) => p.runId === runId && p.status === 'completed');
    const detail = await second.ok('reviewGetRun', { runId });
    expect(planted(detail.findings)).toEqual(PLANTED);
    expect((await second.ok('reviewGetDrawing')).source.kind).toBe('sample');
    expect((await second.call('reviewResume', { runId: 'review-unknown' })).error.code).toBe('REVIEW_RUN_NOT_FOUND');
  });

  it('refuses an LLM review without a reviewer model and a custom checklist that is not one', async () => {
    const app = startApp(tempDir());
    await app.ok('reviewOpenSample');
    expect((await app.call('reviewStart', { checklistPath: null, llm: true, model: null })).error.code).toBe('LLM_NOT_CONFIGURED');
    const bad = await app.call('reviewStart', { checklistPath: path.join(app.platform.layout.root, 'missing.json'), llm: false, model: null });
    expect(bad.error.code).toBe('REVIEW_CHECKLIST_INVALID');
  });
});

describe('LLM review with the reviewer model from Settings', () => {
  it('runs the LLM checklist items through the model and shows its findings next to the rule findings', async () => {
    const provider = await startScriptedProvider({
      script: overlapReviewer,
    });
    cleanups.push(() => provider.close());
    const app = startApp(tempDir());
    app.platform.settings.saveProvider({ id: 'scripted', label: 'Scripted', preset: 'custom', protocol: 'chat-completions', baseUrl: provider.apiBaseUrl, allowLocalNetwork: true, models: ['scripted-model'], forceStreaming: false });
    app.platform.settings.setRoleModel({ role: 'reviewer', value: { providerId: 'scripted', model: 'scripted-model' } });
    await app.ok('reviewOpenSample');

    const detail = await completedRun(app, { checklistPath: null, llm: true, model: null });
    expect(detail.run).toMatchObject({ status: 'completed', llm: true });
    expect(detail.findings.filter((f: any) => f.source === 'llm').map((f: any) => `${f.frameId}:${f.checklistItemId}`)).toEqual(['E9:LLM-002']);
    expect(planted(detail.findings)).toEqual(PLANTED);
    expect(provider.requests).toHaveLength(1 + 3 + 1); // the tool-call check, one per frame, one evidence re-ask on E9
    expect(detail.findings.find((f: any) => f.source === 'llm').hypothesis).toBe(true);
    expect((await app.call('reviewStart', { checklistPath: null, llm: true, model: { providerId: 'scripted', model: 'other' } })).error.code).toBe('SETTINGS_NOT_FOUND');
  });
});

describe('AI review with a model that cannot call tools', () => {
  it('runs with the rules only and says why the AI step did not run', async () => {
    const provider = await startScriptedProvider({ script: () => ({ text: 'I will just describe the drawing.' }) });
    cleanups.push(() => provider.close());
    const app = startApp(tempDir());
    app.platform.settings.saveProvider({ id: 'scripted', label: 'Scripted', preset: 'custom', protocol: 'chat-completions', baseUrl: provider.apiBaseUrl, allowLocalNetwork: true, models: ['scripted-model'], forceStreaming: false });
    app.platform.settings.setRoleModel({ role: 'reviewer', value: { providerId: 'scripted', model: 'scripted-model' } });
    await app.ok('reviewOpenSample');
    const detail = await completedRun(app, { checklistPath: null, llm: true, model: null });
    expect(detail.run.status).toBe('completed_with_errors');
    expect(planted(detail.findings)).toEqual(PLANTED);
    expect(provider.requests).toHaveLength(1);
  });
});

describe('opening DXF files sent over IPC', () => {
  it('opens a DXF from its bytes, and refuses DWG and text that is not base64 with typed errors', async () => {
    const app = startApp(tempDir());
    const bytes = readFileSync(sample);
    const overview = await app.ok('reviewOpenDxf', { fileName: 'my plan.dxf', dataBase64: bytes.toString('base64') });
    expect(overview.source).toMatchObject({ kind: 'dxf', label: 'my plan.dxf' });
    expect(path.basename(overview.source.path)).toBe('my_plan.dxf');
    expect(readFileSync(overview.source.path)).toEqual(bytes);
    expect(overview.frames).toHaveLength(3);

    const dwg = Buffer.concat([Buffer.from('AC1032'), Buffer.alloc(200)]);
    expect((await app.call('reviewOpenDxf', { fileName: 'plan.dwg', dataBase64: dwg.toString('base64') })).error.code).toBe('CAD_DWG_UNSUPPORTED');
    expect((await app.call('reviewOpenDxf', { fileName: 'x.dxf', dataBase64: 'not*base64' })).error.code).toBe('REVIEW_UPLOAD_INVALID');
    expect((await app.call('reviewOpenDxf', { fileName: 'x.dxf', dataBase64: '====' })).error.code).toBe('REVIEW_UPLOAD_INVALID');
    // A failed open leaves the previous drawing current.
    expect((await app.ok('reviewGetDrawing')).source.label).toBe('my plan.dxf');
  });

  it('never opens what is not strict base64, whatever the text', async () => {
    const app = startApp(tempDir());
    await fc.assert(
      fc.asyncProperty(fc.string({ minLength: 1, maxLength: 40 }).filter((s) => !/^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(s)), async (text) => {
        const result = await app.call('reviewOpenDxf', { fileName: 'x.dxf', dataBase64: text });
        expect(result.ok).toBe(false);
        expect(result.error.code).toBe('REVIEW_UPLOAD_INVALID');
      }),
      { numRuns: 50 },
    );
  });
});

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const port = (probe.address() as { port: number }).port;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

describe('AutoCAD over real TCP (a cad_mcp_frame-compatible server on 127.0.0.1)', () => {
  it('connects with the host/port from settings, reviews, writes an approved leader, and reports the drop clearly', async () => {
    const server = await startJsonRpcLineServer({ port: 0, handler: await openDxfBackend(sample) });
    let serverOpen = true;
    cleanups.push(() => (serverOpen ? server.close() : undefined));
    const app = startApp(tempDir());
    app.platform.settings.setGeneral({ cad: { host: '127.0.0.1', port: server.port } });

    const overview = await app.ok('reviewConnectCad', {});
    expect(overview.source).toEqual({ kind: 'cad', label: `127.0.0.1:${server.port}`, host: '127.0.0.1', port: server.port });
    expect(overview.connection.state).toBe('connected');
    // The plugin has no save tool on purpose (the user saves in AutoCAD): nothing the review needs is missing.
    expect(overview.missingCapabilities).toEqual([]);
    expect(overview.frames).toHaveLength(3);
    expect(app.events.some((e) => e.event === 'cadConnection' && e.payload.state === 'connected')).toBe(true);

    const detail = await completedRun(app);
    expect(planted(detail.findings)).toEqual(PLANTED);
    const target = detail.findings.find((f: any) => f.checklistItemId === 'DIM-001');
    await app.ok('reviewDecide', { runId: detail.run.id, findingId: target.id, decision: { kind: 'approve', payloadHash: target.payloadHash } });
    const plan = await app.ok('reviewPreviewWrite', { runId: detail.run.id });
    expect(plan.saveTo).toBeNull();
    const result = await app.ok('reviewWriteApproved', { runId: detail.run.id, payloadHashes: plan.items.map((i: any) => i.payloadHash) });
    expect(result).toMatchObject({ written: [target.id], failed: [], savedPath: null });

    await server.close();
    serverOpen = false;
    await app.waitFor('cadConnection', (p) => p.state === 'backoff' || p.state === 'disconnected');
    const refreshed = await app.call('reviewRefreshDrawing');
    expect(refreshed.ok).toBe(false);
    expect(refreshed.error.code).toMatch(/^CAD_(NOT_CONNECTED|DISCONNECTED)$/);
    expect(refreshed.error.message).not.toMatch(/\n\s+at /);
  });

  it('says nothing listens when AutoCAD is not running', async () => {
    const app = startApp(tempDir());
    const result = await app.call('reviewConnectCad', { host: '127.0.0.1', port: await freePort() });
    expect(result.error.code).toBe('CAD_NOT_CONNECTED');
    expect(await app.ok('reviewGetDrawing')).toBeNull();
  });
});

describe('custom checklist paths named over IPC', () => {
  it('reads only regular files under the allowed folders, caps their size and never quotes them in the error', async () => {
    const app = startApp(tempDir());
    await app.ok('reviewOpenSample');
    const start = (checklistPath: string) => app.call('reviewStart', { checklistPath, llm: false, model: null });
    const refused = await start('/etc/passwd');
    expect(refused.error).toMatchObject({ code: 'REVIEW_CHECKLIST_INVALID', data: { reason: 'not-allowed' } });
    expect(refused.error.message).not.toMatch(/root:|nologin/);

    const allowed = mkdtempSync(path.join(tmpdir(), 'allowed-checklists-'));
    const secret = path.join(allowed, 'secret.txt');
    writeFileSync(secret, 'root:x:0:0:TOP-SECRET-LINE\n');
    const big = path.join(allowed, 'big.json');
    writeFileSync(big, Buffer.alloc(1024 * 1024 + 1, 0x20));
    const fifo = path.join(allowed, 'pipe.json');
    execFileSync('mkfifo', [fifo]);
    copyFileSync(path.join(resourcesDir, 'checklist/review_checklist.json'), path.join(allowed, 'mine.json'));
    app.platform.settings.setGeneral({ allowedRoots: [allowed, '/dev'] });

    const notJson = await start(secret);
    expect(notJson.error.code).toBe('REVIEW_CHECKLIST_INVALID');
    expect(JSON.stringify(notJson.error)).not.toContain('TOP-SECRET');
    // Character devices and FIFOs are refused before a byte is read (/dev/zero never ends, a FIFO blocks).
    expect((await start('/dev/zero')).error).toMatchObject({ code: 'REVIEW_CHECKLIST_INVALID', data: { reason: 'not-a-file' } });
    expect((await start(fifo)).error).toMatchObject({ code: 'REVIEW_CHECKLIST_INVALID', data: { reason: 'not-a-file' } });
    expect((await start(big)).error).toMatchObject({ code: 'REVIEW_CHECKLIST_INVALID', data: { reason: 'too-large' } });
    expect((await start(`${allowed}/../${path.basename(allowed)}/../../etc/passwd`)).error).toMatchObject({ data: { reason: 'not-allowed' } });
    expect((await start('relative/mine.json')).error).toMatchObject({ data: { reason: 'not-absolute' } });
    const run = await app.ok('reviewStart', { checklistPath: path.join(allowed, 'mine.json'), llm: false, model: null });
    expect(run.runId).toMatch(/^review-/);
    await app.waitFor('reviewRunStatus', (p) => p.runId === run.runId && p.status !== 'running');
  });
});

describe('the annotated copy next to the user\'s own drawing (desktop app)', () => {
  it('saves <name>.ai-review.dxf next to the picked file, leaving the original untouched, once the host has checked the path holds the picked bytes', async () => {
    const app = startApp(tempDir());
    const handlers = createReviewHandlers(app.workspace);
    const userDir = mkdtempSync(path.join(tmpdir(), 'user-drawings-'));
    const original = path.join(userDir, 'plan 7.dxf');
    const bytes = readFileSync(sample);
    writeFileSync(original, bytes);
    const overview = await handlers.reviewOpenDxf({ fileName: 'plan 7.dxf', dataBase64: bytes.toString('base64'), originalPath: original }, { transport: 'electron' });
    expect(overview.source).toMatchObject({ kind: 'dxf', besideOriginal: original });

    const detail = await completedRun(app);
    const [first] = detail.findings;
    await app.ok('reviewDecide', { runId: detail.run.id, findingId: first.id, decision: { kind: 'approve', payloadHash: first.payloadHash } });
    const plan = await app.ok('reviewPreviewWrite', { runId: detail.run.id });
    expect(plan.saveTo).toBe(path.join(userDir, 'plan 7.ai-review.dxf'));
    const result = await app.ok('reviewWriteApproved', { runId: detail.run.id, payloadHashes: plan.items.map((i: any) => i.payloadHash) });
    expect(result.savedPath).toBe(plan.saveTo);
    expect(readFileSync(result.savedPath, 'latin1')).toContain('AI_REVIEW');
    expect(readFileSync(original)).toEqual(bytes);
  });

  it('refuses a path from browser mode, a path that is not the picked file, and one that is not a DXF, each with its reason', async () => {
    const app = startApp(tempDir());
    const handlers = createReviewHandlers(app.workspace);
    const userDir = mkdtempSync(path.join(tmpdir(), 'user-drawings-'));
    const bytes = readFileSync(sample);
    const original = path.join(userDir, 'a.dxf');
    writeFileSync(original, bytes);
    const other = path.join(userDir, 'b.dxf');
    writeFileSync(other, Buffer.concat([bytes, Buffer.from('\n')]));
    const open = (originalPath: string, transport: 'electron' | 'browser' = 'electron') =>
      handlers.reviewOpenDxf({ fileName: 'a.dxf', dataBase64: bytes.toString('base64'), originalPath }, { transport });
    await expect(open(original, 'browser')).rejects.toMatchObject({ code: 'REVIEW_ORIGINAL_PATH_REFUSED', data: { reason: 'browser-mode' } });
    await expect(open(other)).rejects.toMatchObject({ code: 'REVIEW_ORIGINAL_PATH_REFUSED', data: { reason: 'changed' } });
    await expect(open(path.join(userDir, 'missing.dxf'))).rejects.toMatchObject({ code: 'REVIEW_ORIGINAL_PATH_REFUSED', data: { reason: 'missing' } });
    await expect(open('relative/a.dxf')).rejects.toMatchObject({ code: 'REVIEW_ORIGINAL_PATH_REFUSED', data: { reason: 'not-a-dxf-path' } });
    await expect(open(path.join(userDir, 'a.txt'))).rejects.toMatchObject({ code: 'REVIEW_ORIGINAL_PATH_REFUSED', data: { reason: 'not-a-dxf-path' } });
    // Nothing was opened by a refused request.
    expect(await app.ok('reviewGetDrawing')).toBeNull();
  });
});

describe('connecting to AutoCAD on another host', () => {
  it('refuses hosts other than this machine from browser mode before opening any connection', async () => {
    const app = startApp(tempDir());
    const handlers = createReviewHandlers(app.workspace);
    for (const host of ['10.0.0.5', '192.168.1.20', 'intranet.example', '169.254.169.254']) {
      await expect(handlers.reviewConnectCad({ host, port: 8080, confirmRemote: true }, { transport: 'browser' })).rejects.toMatchObject({ code: 'CAD_HOST_NOT_ALLOWED', data: { reason: 'browser-mode' } });
    }
    expect(app.events.filter((e) => e.event === 'cadConnection')).toEqual([]);
    // Loopback from the browser is the normal journey; it fails here only because nothing listens.
    await expect(handlers.reviewConnectCad({ host: '127.0.0.1', port: 9 }, { transport: 'browser' })).rejects.toMatchObject({ code: 'CAD_NOT_CONNECTED' });
  });

  it.each(['electron', 'browser'] as const)('over the %s transport reaches another host only once allowed and confirmed', async (transport) => {
    const app = startApp(tempDir());
    const handlers = createReviewHandlers(app.workspace);
    if (transport === 'browser') {
      const view = app.platform.settings.setGeneral({ cad: { host: '127.0.0.1', port: 8080, allowRemote: true } });
      expect(view.cad.allowRemote).toBe(true);
    }
    // 0.0.0.0 is not a loopback name, yet connecting to it on Linux reaches this machine, where nothing listens on port 9.
    await expect(handlers.reviewConnectCad({ host: '0.0.0.0', port: 9 }, { transport })).rejects.toMatchObject({ code: 'CAD_HOST_NOT_ALLOWED', data: { reason: 'needs-confirmation' } });
    expect(app.events.filter((e) => e.event === 'cadConnection')).toEqual([]);
    await expect(handlers.reviewConnectCad({ host: '0.0.0.0', port: 9, confirmRemote: true }, { transport })).rejects.toMatchObject({ code: 'CAD_NOT_CONNECTED' });
  });

  it('keeps the remote permission when only host and port are saved', () => {
    const app = startApp(tempDir());
    app.platform.settings.setGeneral({ cad: { host: '127.0.0.1', port: 8080, allowRemote: true } });
    expect(app.platform.settings.setGeneral({ cad: { host: '127.0.0.1', port: 8081 } }).cad).toEqual({ host: '127.0.0.1', port: 8081, allowRemote: true });
  });
});
