import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ipcEvents } from '../../../shared/ipc/channels';
import { reviewChannels } from '../../../shared/ipc/contracts/review';
import { reviewSetChannels } from '../../../shared/ipc/contracts/reviewSet';
import { createEventBus } from '../../platform/events/eventBus';
import { createIpcRouter } from '../../platform/ipc/router';
import { createPlatformRuntime } from './platformRuntime';
import { createReviewHandlers, createReviewSetHandlers, createReviewWorkspace } from './reviewHandlers';

const repoRoot = path.resolve(__dirname, '../../..');
const resourcesDir = path.join(repoRoot, 'resources');
const sample = path.join(resourcesDir, 'samples/cadsight_sample_gb_a3_3frames.dxf');
const iso = path.join(repoRoot, 'electron/testSupport/fixtures/dxf/frame_iso_en_a3_titleblock.dxf');
const b64 = (file: string): string => readFileSync(file).toString('base64');

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0).reverse()) cleanup();
});

/** The real platform with the review and set handlers behind one router, and the events they emit. */
function startApp() {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'review-sets-'));
  const platform = createPlatformRuntime({ env: { CADSIGHT_DATA_DIR: dataDir }, systemLocale: 'en', logName: 'test.log' });
  const bus = createEventBus(ipcEvents, (error) => {
    throw error;
  });
  const events: { event: string; payload: any }[] = [];
  bus.subscribe((event, payload) => events.push({ event, payload }));
  const workspace = createReviewWorkspace(platform, { events: bus, version: 'test', resourcesDir });
  cleanups.push(() => {
    workspace.close();
    platform.close();
  });
  const channels = { ...reviewChannels, ...reviewSetChannels };
  const router = createIpcRouter(channels, { ...createReviewHandlers(workspace), ...createReviewSetHandlers(workspace) }, (channel, error) => {
    throw new Error(`internal error in ${channel}: ${String(error)}`);
  });
  const call = (channel: keyof typeof channels, input: unknown = {}): Promise<any> => router.dispatch(channel, input, { transport: 'test' });
  const ok = async (channel: keyof typeof channels, input: unknown = {}): Promise<any> => {
    const result = await call(channel, input);
    if (!result.ok) throw new Error(`${channel} failed: ${result.error.code} ${result.error.message}`);
    return result.value;
  };
  const ended = (setId: string) =>
    new Promise<any>((resolve) => {
      const timer = setInterval(() => {
        const end = events.find((e) => e.event === 'reviewSetStatus' && e.payload.setId === setId && e.payload.status !== 'running');
        if (end) {
          clearInterval(timer);
          resolve(end.payload);
        }
      }, 20);
    });
  return { call, ok, events, ended, setsDir: path.join(dataDir, 'sets') };
}

describe('drawing sets in the app', () => {
  it('reviews uploaded files as a set with progress per file, a set report, and each file’s run openable', async () => {
    const app = startApp();
    const { setId } = await app.ok('reviewSetCreate', { name: 'Pump sheets' });
    for (const [name, file] of [['sample.dxf', sample], ['sample-copy.dxf', sample], ['iso.dxf', iso]] as const) await app.ok('reviewSetAddFile', { setId, fileName: name, dataBase64: b64(file) });
    expect((await app.ok('reviewGetSet', { setId })).set).toMatchObject({ status: 'draft', files: 3, done: 0 });
    expect(await app.ok('reviewSetStart', { setId, checklistPath: null, llm: false, model: null })).toEqual({ setId, total: 3 });
    expect((await app.call('reviewSetAddFile', { setId, fileName: 'late.dxf', dataBase64: b64(iso) })).error?.code).toBe('REVIEW_SET_BUSY');
    expect(await app.ended(setId)).toMatchObject({ status: 'completed', error: null });

    const progress = app.events.filter((e) => e.event === 'reviewSetProgress').map((e) => e.payload);
    expect(progress.filter((p) => p.file.state === 'reviewing')).toHaveLength(3);
    expect(progress.filter((p) => p.file.state === 'done').map((p) => p.done)).toEqual([1, 2, 3]);
    const detail = await app.ok('reviewGetSet', { setId });
    expect(detail.set).toMatchObject({ status: 'completed', files: 3, done: 3, exitCode: 1 });
    expect(detail.report.crossSheet.filter((c: any) => c.kind === 'duplicate_drawing_no').map((c: any) => c.drawingNo)).toEqual(['CS-2026-001', 'CS-2026-002', 'CS-2026-003']);
    expect(detail.report.sheets.filter((s: any) => s.file === 'sample.dxf').map((s: any) => s.drawingNo)).toEqual(['CS-2026-001', 'CS-2026-002', 'CS-2026-003']);

    // A file's run opens like any run (frames, findings, report, screenshots) but is listed with its set only.
    const file = detail.files.find((f: any) => f.file === 'sample.dxf');
    const run = await app.ok('reviewGetRun', { runId: file.runId });
    expect(run.findings.length).toBe(file.findings);
    expect(run.report.markdown).toContain(path.join('out', 'reports', 'sample', 'report.md'));
    const shot = run.frames.find((f: any) => f.screenshot)?.screenshot.file;
    expect((await app.ok('reviewRunImage', { runId: file.runId, file: shot })).mimeType).toBe('image/png');
    expect((await app.ok('reviewListRuns')).runs.map((r: any) => r.id)).not.toContain(file.runId);

    const md = await app.ok('reviewSetDownload', { setId, kind: 'markdown' });
    expect(md.fileName).toBe('Pump_sheets.set-report.md');
    expect(Buffer.from(md.dataBase64, 'base64').toString('utf8')).toContain('Drawing number CS-2026-001 is used twice or more: sample-copy.dxf#92, sample.dxf#92.');
    expect((await app.ok('reviewListSets')).sets.map((s: any) => s.id)).toEqual([setId]);
  }, 120_000);

  it('resumes a started set: only the files added since are reviewed', async () => {
    const app = startApp();
    const { setId } = await app.ok('reviewSetCreate', { name: 'Resume' });
    await app.ok('reviewSetAddFile', { setId, fileName: 'a.dxf', dataBase64: b64(iso) });
    await app.ok('reviewSetStart', { setId, checklistPath: null, llm: false, model: null });
    await app.ended(setId);
    await app.ok('reviewSetAddFile', { setId, fileName: 'b.dxf', dataBase64: b64(iso) });
    expect((await app.ok('reviewGetSet', { setId })).set.status).toBe('interrupted');
    app.events.length = 0;
    await app.ok('reviewSetStart', { setId, checklistPath: null, llm: false, model: null });
    await app.ended(setId);
    const reviewing = app.events.filter((e) => e.event === 'reviewSetProgress' && e.payload.file.state === 'reviewing').map((e) => e.payload.file.file);
    expect(reviewing).toEqual(['b.dxf']);
    expect((await app.ok('reviewGetSet', { setId })).report.files).toHaveLength(2);
  }, 120_000);

  it('stops a running set when cancelled and continues it on the next start', async () => {
    const app = startApp();
    const { setId } = await app.ok('reviewSetCreate', { name: 'Stop' });
    for (let i = 1; i <= 6; i++) await app.ok('reviewSetAddFile', { setId, fileName: `s${i}.dxf`, dataBase64: b64(iso) });
    await app.ok('reviewSetStart', { setId, checklistPath: null, llm: false, model: null });
    expect(await app.ok('reviewSetCancel', { setId })).toEqual({ cancelled: true });
    expect(await app.ended(setId)).toMatchObject({ status: 'cancelled', error: { code: 'REVIEW_CANCELLED' } });
    const stopped = await app.ok('reviewGetSet', { setId });
    expect(stopped.set.status).toBe('cancelled');
    expect(stopped.report).toBeNull();
    const kept = stopped.files.filter((f: any) => f.state === 'done').map((f: any) => f.file);
    app.events.length = 0;
    await app.ok('reviewSetStart', { setId, checklistPath: null, llm: false, model: null });
    expect(await app.ended(setId)).toMatchObject({ status: 'completed' });
    const again = app.events.filter((e) => e.event === 'reviewSetProgress' && e.payload.file.state === 'reviewing').map((e) => e.payload.file.file);
    expect(again.filter((f: string) => kept.includes(f))).toEqual([]);
    expect((await app.ok('reviewGetSet', { setId })).report.files).toHaveLength(6);
    expect((await app.ok('reviewSetCancel', { setId })).cancelled).toBe(false);
  }, 120_000);

  it('keeps two uploads whose sanitised names collide as two files and shows each under the name it was uploaded as', async () => {
    const app = startApp();
    const { setId } = await app.ok('reviewSetCreate', { name: 'collisions' });
    expect(await app.ok('reviewSetAddFile', { setId, fileName: 'a b.dxf', dataBase64: b64(sample) })).toEqual({ files: 1 });
    expect(await app.ok('reviewSetAddFile', { setId, fileName: 'a_b.dxf', dataBase64: b64(iso) })).toEqual({ files: 2 });
    expect(await app.ok('reviewSetAddFile', { setId, fileName: 'A?B.dxf', dataBase64: b64(iso) })).toEqual({ files: 3 });
    // The same uploaded name again replaces that one file.
    expect(await app.ok('reviewSetAddFile', { setId, fileName: 'a b.dxf', dataBase64: b64(iso) })).toEqual({ files: 3 });
    const { files } = await app.ok('reviewGetSet', { setId });
    expect(files.map((f: { file: string; name: string }) => [f.file, f.name]).sort()).toEqual([
      ['A_B-3.dxf', 'A?B.dxf'],
      ['a_b-2.dxf', 'a_b.dxf'],
      ['a_b.dxf', 'a b.dxf'],
    ]);
  });

  it('lists the other sets when one set\'s record is damaged', async () => {
    const app = startApp();
    const { setId: good } = await app.ok('reviewSetCreate', { name: 'good' });
    const { setId: broken } = await app.ok('reviewSetCreate', { name: 'broken' });
    writeFileSync(path.join(app.setsDir, broken, 'set.json'), '{"id": "set-');
    expect((await app.ok('reviewListSets', {})).sets.map((s: { id: string }) => s.id)).toEqual([good]);
  });

  it('refuses files that are not DXF drawings and unknown sets with typed errors', async () => {
    const app = startApp();
    const { setId } = await app.ok('reviewSetCreate', { name: 'Refusals' });
    expect((await app.call('reviewSetAddFile', { setId, fileName: 'part.dwg', dataBase64: b64(iso) })).error?.code).toBe('CAD_DWG_UNSUPPORTED');
    expect((await app.call('reviewSetAddFile', { setId, fileName: 'notes.txt', dataBase64: 'aGVsbG8=' })).error?.code).toBe('REVIEW_UPLOAD_INVALID');
    expect((await app.call('reviewSetAddFile', { setId, fileName: 'x.dxf', dataBase64: '***' })).error?.code).toBe('REVIEW_UPLOAD_INVALID');
    expect((await app.call('reviewSetStart', { setId, checklistPath: null, llm: false, model: null })).error?.code).toBe('REVIEW_SET_EMPTY');
    expect((await app.call('reviewGetSet', { setId: 'set-00000000-0000-0000-0000-000000000000' })).error?.code).toBe('REVIEW_SET_NOT_FOUND');
    expect((await app.call('reviewSetDownload', { setId, kind: 'json' })).error?.code).toBe('REVIEW_FILE_NOT_FOUND');
  });
});
