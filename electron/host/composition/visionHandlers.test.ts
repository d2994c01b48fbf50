import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterEach, describe, expect, it } from 'vitest';
import { ipcEvents } from '../../../shared/ipc/channels';
import { VISION_MAX_UPLOAD_BYTES, visionChannels } from '../../../shared/ipc/contracts/vision';
import { createEventBus } from '../../platform/events/eventBus';
import { createIpcRouter, type IpcRouter } from '../../platform/ipc/router';
import { startScriptedProvider, type Script, type ScriptedProvider } from '../../testSupport/scriptedProvider';
import { builtPdfWorker, countImageParts } from '../../testSupport/visionFixtures/harness';
import { makePdf } from '../../testSupport/visionFixtures/pdf';
import { solidPng } from '../../testSupport/visionFixtures/images';
import { spawnVisionServer, textJson } from '../../testSupport/visionFixtures/mcpClient';
import { createPlatformRuntime, type PlatformRuntime } from './platformRuntime';
import { createVisionHandlers } from './visionHandlers';

const KEY = 'sk-test-images-view-0123456789';
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

interface App {
  router: IpcRouter;
  platform: PlatformRuntime;
  events: { event: string; payload: any }[];
  call(channel: keyof typeof visionChannels, input: unknown): Promise<any>;
}

/** The real platform (temp data folder, SQLite, settings) with the vision handlers behind the router. */
function startApp(dataDir: string, clock?: { now: () => number }): App {
  const platform = createPlatformRuntime({ env: { CADSIGHT_DATA_DIR: dataDir, CADSIGHT_KEY_SCRIPTED: KEY, CADSIGHT_KEY_OTHER: KEY }, systemLocale: 'en', logName: 'test.log' });
  cleanups.push(() => platform.close());
  const bus = createEventBus(ipcEvents, (error) => {
    throw error;
  });
  const events: App['events'] = [];
  bus.subscribe((event, payload) => events.push({ event, payload }));
  const handlers = createVisionHandlers(platform, { events: bus, pdfWorkerScript: builtPdfWorker, retry: { maxAttempts: 1, baseDelayMs: 1, maxDelayMs: 1, totalBudgetMs: 5_000 }, ...(clock ? { clock } : {}) });
  const router = createIpcRouter(visionChannels, handlers, (channel, error) => {
    throw new Error(`internal error in ${channel}: ${String(error)}`);
  });
  return { router, platform, events, call: (channel, input) => router.dispatch(channel, input, { transport: 'test' }) };
}

async function scripted(script: Script): Promise<ScriptedProvider> {
  const provider = await startScriptedProvider({ script, apiKey: KEY });
  cleanups.push(() => provider.close());
  return provider;
}

function addProvider(app: App, id: string, provider: ScriptedProvider): void {
  app.platform.settings.saveProvider({ id, label: id, preset: 'custom', protocol: 'chat-completions', baseUrl: provider.apiBaseUrl, allowLocalNetwork: true, models: ['scripted-model'] });
}

function tempDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'cadsight-vision-handlers-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

const upload = async (name: string, width = 64, height = 48) => ({ name, mimeType: 'image/png', dataBase64: Buffer.from(await solidPng(width, height)).toString('base64') });

describe('vision handlers', () => {
  it('refuse a turn with LLM_NOT_CONFIGURED before decoding anything when no vision model is chosen', async () => {
    const provider = await scripted([{ text: 'never' }]);
    const app = startApp(tempDir());
    const result = await app.call('visionAnalyze', { images: [await upload('a.png')], prompt: 'What is this?' });
    expect(result).toMatchObject({ ok: false, error: { code: 'LLM_NOT_CONFIGURED', retryable: false } });
    expect(provider.requests).toHaveLength(0);
    expect(await app.call('visionListSessions', {})).toEqual({ ok: true, value: [] });
  });

  it('run a session: first turn, a follow-up that re-sends the image, a zoom, with usage, labels, progress and change events', async () => {
    const provider = await scripted([
      { text: 'A red rectangle on nothing.\nSUMMARY: A red rectangle', usage: { promptTokens: 120, completionTokens: 9 } },
      { text: 'It is red.', usage: { promptTokens: 150, completionTokens: 4 } },
      { text: 'The corner is red too.' },
    ]);
    const app = startApp(tempDir());
    addProvider(app, 'scripted', provider);
    app.platform.settings.setRoleModel({ role: 'vision', value: { providerId: 'scripted', model: 'scripted-model' } });

    const first = await app.call('visionAnalyze', { images: [await upload('C:\\drawings\\sheet-1.png', 640, 480)], prompt: 'What is this?', requestId: 'req1' });
    expect(first.ok).toBe(true);
    const sessionId = first.value.sessionId as string;
    expect(first.value).toMatchObject({ summary: 'A red rectangle', description: 'A red rectangle on nothing.', providerId: 'scripted', model: 'scripted-model', imageIndexes: [0] });
    expect(first.value.usage).toMatchObject({ calls: 1, promptTokens: 120, completionTokens: 9 });
    expect(first.value.usage.contextBytes).toBeGreaterThan(1000);
    expect(countImageParts(provider.requests[0]!.body)).toBe(1);
    expect(app.events.filter((e) => e.event === 'progress').map((e) => e.payload.phase)).toEqual(['prepare', 'prepare', 'ask']);
    expect(app.events.every((e) => e.event !== 'progress' || e.payload.taskId === 'vision:req1')).toBe(true);
    expect(app.events.at(-1)).toEqual({ event: 'visionSessionChanged', payload: { sessionId } });

    const followUp = await app.call('visionAnalyze', { sessionId, prompt: 'Which colour?' });
    expect(followUp).toMatchObject({ ok: true, value: { sessionId, description: 'It is red.', summary: 'A red rectangle' } });
    expect(countImageParts(provider.requests[1]!.body)).toBe(1);

    const zoom = await app.call('visionZoom', { sessionId, imageIndex: 0, region: { x: 0.5, y: 0.5, width: 0.25, height: 0.25 }, prompt: 'And this corner?' });
    expect(zoom).toMatchObject({ ok: true, value: { description: 'The corner is red too.', imageIndexes: [0, 1] } });
    expect(countImageParts(provider.requests[2]!.body)).toBe(2);

    const session = await app.call('visionGetSession', { sessionId });
    expect(session.ok).toBe(true);
    expect(session.value.images).toEqual([
      { index: 0, origin: 'source', label: 'sheet-1.png', width: 640, height: 480 },
      { index: 1, origin: 'zoom', label: expect.stringContaining('zoom of #0'), width: 160, height: 120 },
    ]);
    expect(session.value.turns.map((t: { kind: string }) => t.kind)).toEqual(['analyze', 'analyze', 'zoom']);
    expect(session.value.usage).toMatchObject({ calls: 3, promptTokens: 120 + 150 + (session.value.turns[2].usage.promptTokens as number) });

    expect(await app.call('visionGetImage', { sessionId, imageIndex: 2 })).toMatchObject({ ok: false, error: { code: 'VISION_IMAGE_INDEX_INVALID' } });
    const image = await app.call('visionGetImage', { sessionId, imageIndex: 1 });
    expect(image.ok).toBe(true);
    const meta = await sharp(Buffer.from(image.value.dataBase64, 'base64')).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['png', 160, 120]);

    const list = await app.call('visionListSessions', {});
    expect(list.value).toEqual([expect.objectContaining({ id: sessionId, summary: 'A red rectangle', sources: ['sheet-1.png'], iterations: 3, imageCount: 2 })]);
  });

  it('send the turn to the provider and model picked in the view instead of the vision default', async () => {
    const fallback = await scripted([{ text: 'wrong provider' }]);
    const picked = await scripted([{ text: 'Picked.\nSUMMARY: picked' }]);
    const app = startApp(tempDir());
    addProvider(app, 'scripted', fallback);
    addProvider(app, 'other', picked);
    app.platform.settings.setRoleModel({ role: 'vision', value: { providerId: 'scripted', model: 'scripted-model' } });
    const result = await app.call('visionAnalyze', { images: [await upload('x.png')], prompt: 'Hi', providerId: 'other', model: 'scripted-model' });
    expect(result).toMatchObject({ ok: true, value: { providerId: 'other', description: 'Picked.' } });
    expect([fallback.requests.length, picked.requests.length]).toEqual([0, 1]);
    const unknown = await app.call('visionAnalyze', { images: [await upload('x.png')], prompt: 'Hi', providerId: 'gone' });
    expect(unknown).toMatchObject({ ok: false, error: { code: 'SETTINGS_NOT_FOUND' } });
  });

  it('answer typed errors for an oversized or non-image upload, and an unknown session, calling no model', async () => {
    const provider = await scripted([]);
    const app = startApp(tempDir());
    addProvider(app, 'scripted', provider);
    app.platform.settings.setRoleModel({ role: 'vision', value: { providerId: 'scripted', model: 'scripted-model' } });
    const justOver = { name: 'big.png', dataBase64: Buffer.alloc(VISION_MAX_UPLOAD_BYTES + 3).toString('base64') };
    expect(await app.call('visionAnalyze', { images: [justOver], prompt: 'Hi' })).toMatchObject({ ok: false, error: { code: 'VISION_IMAGE_TOO_LARGE', data: { sourceIndex: 0 } } });
    const farOver = { name: 'huge.png', dataBase64: 'A'.repeat(VISION_MAX_UPLOAD_BYTES * 2) };
    expect(await app.call('visionAnalyze', { images: [farOver], prompt: 'Hi' })).toMatchObject({ ok: false, error: { code: 'IPC_INVALID_INPUT' } });
    const svg = { name: 'drawing.png', dataBase64: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"></svg>'.repeat(4)).toString('base64') };
    expect(await app.call('visionAnalyze', { images: [svg], prompt: 'Hi' })).toMatchObject({ ok: false, error: { code: 'VISION_UNSUPPORTED_FORMAT' } });
    expect(await app.call('visionGetSession', { sessionId: 'vs_missing' })).toMatchObject({ ok: false, error: { code: 'VISION_SESSION_NOT_FOUND', data: { hint: expect.any(String) } } });
    expect(await app.call('visionZoom', { sessionId: 'vs_missing', imageIndex: 0, region: { x: 0, y: 0, width: 1, height: 1 }, prompt: 'Hi' })).toMatchObject({
      ok: false,
      error: { code: 'VISION_SESSION_NOT_FOUND' },
    });
    expect(await app.call('visionAnalyze', { images: [], prompt: 'Hi' })).toMatchObject({ ok: false, error: { code: 'VISION_SOURCES_REQUIRED' } });
    expect(provider.requests).toHaveLength(0);
  });

  it('rename and delete a session, telling other windows, and analyse an uploaded PDF page by page', async () => {
    const provider = await scripted([{ text: 'A flange sheet.\n<summary>Flange sheet</summary>' }]);
    const app = startApp(tempDir());
    addProvider(app, 'scripted', provider);
    app.platform.settings.setRoleModel({ role: 'vision', value: { providerId: 'scripted', model: 'scripted-model' } });
    const pdf = { name: 'set.pdf', mimeType: 'application/pdf', dataBase64: Buffer.from(makePdf([{ text: 'Sheet 1' }, { text: 'Sheet 2' }])).toString('base64') };
    const turn = await app.call('visionAnalyze', { images: [pdf], prompt: 'What is it?' });
    expect(turn).toMatchObject({ ok: true, value: { summary: 'Flange sheet', description: 'A flange sheet.', imageIndexes: [0, 1] } });
    const sessionId = turn.value.sessionId as string;
    expect((await app.call('visionGetSession', { sessionId })).value.images.map((i: { label: string; origin: string }) => [i.label, i.origin])).toEqual([
      ['set.pdf p.1/2', 'pdf-page'],
      ['set.pdf p.2/2', 'pdf-page'],
    ]);
    expect(await app.call('visionRenameSession', { sessionId, summary: '  Flange   DN50 set ' })).toEqual({ ok: true, value: { sessionId, summary: 'Flange DN50 set' } });
    expect((await app.call('visionListSessions', {})).value[0]).toMatchObject({ id: sessionId, summary: 'Flange DN50 set' });
    expect(await app.call('visionDeleteSession', { sessionId })).toEqual({ ok: true, value: { sessionId } });
    expect(await app.call('visionListSessions', {})).toEqual({ ok: true, value: [] });
    expect(app.platform.db.prepare('SELECT COUNT(*) AS n FROM vision_blobs').get()).toEqual({ n: 0 });
    expect(app.events.filter((e) => e.event === 'visionSessionChanged')).toHaveLength(3);
    expect(await app.call('visionDeleteSession', { sessionId })).toMatchObject({ ok: false, error: { code: 'VISION_SESSION_NOT_FOUND' } });
  });

  it('treat a session idle past the TTL as gone: not openable, swept from the list', async () => {
    const provider = await scripted([{ text: 'Red.\nSUMMARY: red' }]);
    let now = Date.UTC(2026, 0, 1);
    const app = startApp(tempDir(), { now: () => now });
    addProvider(app, 'scripted', provider);
    app.platform.settings.setRoleModel({ role: 'vision', value: { providerId: 'scripted', model: 'scripted-model' } });
    const sessionId = (await app.call('visionAnalyze', { images: [await upload('r.png')], prompt: 'Colour?' })).value.sessionId as string;
    now += 23 * 3_600_000;
    expect((await app.call('visionGetSession', { sessionId })).ok).toBe(true);
    now += 2 * 3_600_000;
    expect(await app.call('visionGetImage', { sessionId, imageIndex: 0 })).toMatchObject({ ok: false, error: { code: 'VISION_SESSION_NOT_FOUND' } });
    expect(await app.call('visionListSessions', {})).toEqual({ ok: true, value: [] });
    expect(app.platform.db.prepare('SELECT COUNT(*) AS n FROM vision_sessions').get()).toEqual({ n: 0 });
  });

  it('list and open a session that cadsight-vision created through MCP in the same data folder', async () => {
    const server = await spawnVisionServer([{ text: 'A blue square.\nSUMMARY: A blue square from an agent' }]);
    cleanups.push(() => server.close());
    const imageFile = path.join(server.dir, 'agent-shot.png');
    writeFileSync(imageFile, await solidPng(40, 40, [0, 0, 200]));
    const mcpResult = await server.call('analyze_images', { image_sources: [imageFile], prompt: 'What is it?' });
    expect(mcpResult.isError).toBeFalsy();
    const mcpSessionId = textJson(mcpResult).session_id as string;

    const app = startApp(path.join(server.dir, 'data'));
    const list = await app.call('visionListSessions', {});
    expect(list.value).toEqual([expect.objectContaining({ id: mcpSessionId, summary: 'A blue square from an agent', sources: [imageFile], iterations: 1, imageCount: 1 })]);
    const session = await app.call('visionGetSession', { sessionId: mcpSessionId });
    expect(session.value).toMatchObject({ providerId: 'chat', model: 'scripted-model', images: [{ index: 0, width: 40, height: 40 }] });
    expect(session.value.turns[0].reply).toContain('A blue square.');
    expect((await app.call('visionGetImage', { sessionId: mcpSessionId, imageIndex: 0 })).ok).toBe(true);
  });
});
