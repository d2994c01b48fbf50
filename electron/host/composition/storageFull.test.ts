import { mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ipcEvents } from '../../../shared/ipc/channels';
import { platformChannels } from '../../../shared/ipc/contracts/platform';
import { reviewChannels } from '../../../shared/ipc/contracts/review';
import { reviewSetChannels } from '../../../shared/ipc/contracts/reviewSet';
import { createArtifactStore } from '../../platform/artifacts/artifactStore';
import { createEventBus } from '../../platform/events/eventBus';
import { createIpcRouter } from '../../platform/ipc/router';
import { fillUp, mountSmallTmpfs, type SmallTmpfs } from '../../testSupport/smallTmpfs';
import { createPlatformHandlers } from './platformHandlers';
import { createPlatformRuntime } from './platformRuntime';
import { createReviewHandlers, createReviewSetHandlers, createReviewWorkspace } from './reviewHandlers';

const repoRoot = path.resolve(__dirname, '../../..');
const resourcesDir = path.join(repoRoot, 'resources');
const sample = readFileSync(path.join(resourcesDir, 'samples/cadsight_sample_gb_a3_3frames.dxf')).toString('base64');
const iso = readFileSync(path.join(repoRoot, 'electron/testSupport/fixtures/dxf/frame_iso_en_a3_titleblock.dxf')).toString('base64');

/** Every file under `dir`, relative. */
const walk = (dir: string, prefix = ''): string[] =>
  readdirSync(path.join(dir, prefix), { withFileTypes: true }).flatMap((entry) => {
    const rel = prefix ? `${prefix}/${entry.name}` : entry.name;
    return entry.isDirectory() ? walk(dir, rel) : [rel];
  });

// A real 32 MB file system that really fills up: the data folder of the real platform, review and set handlers.
const fs: SmallTmpfs = mountSmallTmpfs(32 * 1024 * 1024);
if (!fs.mounted) console.warn(`storageFull.test: skipping the tmpfs journey: ${fs.reason} (the injected file-system tests in platform/dataDir/storageFull.test.ts still run)`);

describe.skipIf(!fs.mounted)('a data folder on a disk that fills up (real tmpfs)', () => {
  const dataDir = fs.mounted ? path.join(fs.dir, 'data') : '';
  const filler = fs.mounted ? path.join(fs.dir, 'filler.bin') : '';
  let close = (): void => undefined;
  let call: (channel: string, input?: unknown) => Promise<any>;
  let setId = '';

  beforeAll(() => {
    mkdirSync(dataDir);
    const platform = createPlatformRuntime({ env: { CADSIGHT_DATA_DIR: dataDir }, systemLocale: 'en', logName: 'test.log' });
    const bus = createEventBus(ipcEvents, (error) => {
      throw error;
    });
    const workspace = createReviewWorkspace(platform, { events: bus, version: 'test', resourcesDir });
    const channels = { ...platformChannels, ...reviewChannels, ...reviewSetChannels };
    const handlers = {
      ...createPlatformHandlers(platform, { version: 'test', transport: 'browser', systemLocale: 'en' }, () => Promise.reject(new Error('not part of this test'))),
      ...createReviewHandlers(workspace),
      ...createReviewSetHandlers(workspace),
    };
    const router = createIpcRouter(channels, handlers, (channel, error) => {
      throw new Error(`internal error in ${channel}: ${String(error)}`);
    }, { storageFolder: dataDir });
    call = (channel, input = {}) => router.dispatch(channel, input, { transport: 'test' });
    close = () => {
      workspace.close();
      platform.close();
    };
  });
  afterAll(() => {
    close();
    if (fs.mounted) fs.unmount();
  });

  it('keeps what was acknowledged before the disk filled', async () => {
    expect(await call('setLocale', { locale: 'en' })).toMatchObject({ ok: true });
    const created = await call('reviewSetCreate', { name: 'before' });
    expect(created).toMatchObject({ ok: true });
    setId = created.value.setId;
    expect(await call('reviewSetAddFile', { setId, fileName: 'sample.dxf', dataBase64: sample })).toMatchObject({ ok: true, value: { files: 1 } });
    expect(fillUp(filler)).toBeGreaterThan(0);
  });

  it.each([
    ['reviewSetCreate', () => ({ name: 'after' })],
    ['reviewSetAddFile', () => ({ setId, fileName: 'iso.dxf', dataBase64: iso })],
    ['reviewOpenDxf', () => ({ fileName: 'opened.dxf', dataBase64: iso })],
    ['setLocale', () => ({ locale: 'zh-CN' })],
  ] as const)('answers %s on the full disk with a retryable STORAGE_FULL naming the folder and the size needed', async (channel, input) => {
    const result = await call(channel, input());
    expect(result).toMatchObject({ ok: false, error: { code: 'STORAGE_FULL', retryable: true, data: { folder: expect.stringContaining(dataDir), neededBytes: expect.any(Number), errno: 'ENOSPC' } } });
    expect(result.error.message).toContain(dataDir);
    expect(result.error.message).toMatch(/at least [\d.]+ [KM]B more is needed/);
  });

  it('stores no artifact and leaves no staging file on the full disk', async () => {
    const store = createArtifactStore(path.join(dataDir, 'artifacts'));
    await expect(store.put(Buffer.alloc(256 * 1024, 1))).rejects.toMatchObject({ code: 'STORAGE_FULL', retryable: true, data: { folder: path.join(dataDir, 'artifacts'), neededBytes: 256 * 1024 } });
  });

  it('left no temp file behind and lost nothing acknowledged', async () => {
    expect(walk(dataDir).filter((file) => /\.tmp-|\.staging\/.+\.tmp$/.test(file))).toEqual([]);
    expect(await call('reviewGetSet', { setId })).toMatchObject({ ok: true, value: { files: [expect.objectContaining({ file: 'sample.dxf' })] } });
    expect(statSync(path.join(dataDir, 'settings.json')).size).toBeGreaterThan(0);
    expect(await call('getSettings', {})).toMatchObject({ ok: true, value: { locale: 'en' } });
    const sets = await call('reviewListSets', {});
    expect(sets.value.sets.map((s: { name: string }) => s.name)).toEqual(['before']);
  });

  it('succeeds on the same calls once space is freed (the error was retryable)', async () => {
    rmSync(filler);
    expect(await call('reviewSetCreate', { name: 'after' })).toMatchObject({ ok: true });
    expect(await call('reviewSetAddFile', { setId, fileName: 'iso.dxf', dataBase64: iso })).toMatchObject({ ok: true, value: { files: 2 } });
    expect(await call('setLocale', { locale: 'zh-CN' })).toMatchObject({ ok: true, value: { locale: 'zh-CN' } });
    expect(await call('reviewOpenDxf', { fileName: 'opened.dxf', dataBase64: iso })).toMatchObject({ ok: true });
  });
});
