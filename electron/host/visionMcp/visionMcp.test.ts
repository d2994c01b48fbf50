import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createSqliteSessionRepository } from '../../features/vision';
import { openDatabase } from '../../platform/db/openDatabase';
import { startScriptedProvider, type CapturedRequest } from '../../testSupport/scriptedProvider';
import { allMigrations } from '../composition/migrations';
import { countImageParts } from '../../testSupport/visionFixtures/harness';
import { lineArtPng, solidPng } from '../../testSupport/visionFixtures/images';
import { spawnVisionServer, textJson, visionEnv, type SpawnedVisionServer } from '../../testSupport/visionFixtures/mcpClient';

const entry = path.resolve(import.meta.dirname, '../../../dist/node/visionMcp.js');
let server: SpawnedVisionServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('cadsight-vision over stdio', () => {
  it('lists five tools with input and output schemas in at most 6000 bytes', async () => {
    server = await spawnVisionServer([]);
    expect(server.client.getServerVersion()).toMatchObject({ name: 'cadsight-vision' });
    const { tools } = await server.client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(['analyze_document', 'analyze_images', 'analyze_video', 'list_sessions', 'zoom_image']);
    for (const tool of tools) {
      expect(tool.inputSchema.type).toBe('object');
      expect(tool.outputSchema?.type).toBe('object');
      expect(tool.description).toBeTruthy();
    }
    const analyze = tools.find((t) => t.name === 'analyze_images')!;
    // Follow-ups are written as {session_id, prompt}: image_sources must not be schema-required.
    expect(analyze.inputSchema.required).toEqual(['prompt']);
    expect(analyze.description).toMatch(/session_id/);
    // tools/list is read into every agent's context: the whole reply stays small.
    expect(Buffer.byteLength(JSON.stringify(await server.client.listTools()))).toBeLessThanOrEqual(6000);
  });

  it('tells the agent when a drawing’s text is too small to read as sent, and a zoom on the region it names is answered', async () => {
    server = await spawnVisionServer(() => ({ text: 'A sheet.\nSUMMARY: Sheet.' }));
    const file = path.join(server.dir, 'sheet.png');
    writeFileSync(file, await lineArtPng(4000, 3000));
    const result = await server.call('analyze_images', { image_sources: [file], prompt: 'Read the dimensions.' });
    expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
    const smallText = (textJson(result).small_text as Array<{ image_index: number; text_px: number; hint: string; zoom_regions: Array<Record<string, number>> }>)[0]!;
    expect(smallText).toMatchObject({ image_index: 0, text_px: expect.any(Number), hint: expect.stringMatching(/zoom_image/) });
    expect(smallText.text_px).toBeLessThan(8);
    const zoom = await server.call('zoom_image', { session_id: textJson(result).session_id, image_index: 0, region: smallText.zoom_regions[0], prompt: 'Read it.' });
    expect(zoom.isError, JSON.stringify(zoom.content)).toBeFalsy();
  }, 60_000);

  it('analyzes, follows up and zooms in one session, sending the images on every turn', async () => {
    let turn = 0;
    const replies = ['<think>Looks red; user wants colour.</think>A red tile.\nSUMMARY: Red tile.', 'Still red.', 'The corner is red.', 'Yes, red.'];
    server = await spawnVisionServer((_r: CapturedRequest) => ({ text: replies[turn++]!, reasoning: 'provider-side reasoning' }));
    const file = path.join(server.dir, 'tile.png');
    writeFileSync(file, await solidPng(300, 200));
    const first = await server.call('analyze_images', { image_sources: [file], prompt: 'What is it?' });
    expect(first.isError).toBeFalsy();
    // Answers only: no reasoning, no SUMMARY line, no usage metadata unless asked for.
    expect(textJson(first)).toEqual({ session_id: expect.any(String), summary: 'Red tile.', description: 'A red tile.', image_indexes: [0] });
    expect(first.structuredContent).toEqual(textJson(first));
    const sessionId = textJson(first).session_id as string;

    // The follow-up as agents write it: no image_sources at all.
    const second = await server.call('analyze_images', { prompt: 'Colour again?', session_id: sessionId });
    expect(second.isError).toBeFalsy();
    expect(textJson(second)).toMatchObject({ session_id: sessionId, summary: 'Red tile.', description: 'Still red.' });
    const third = await server.call('zoom_image', { session_id: sessionId, image_index: 0, region: { x: 0.5, y: 0.5, width: 0.5, height: 0.5 }, prompt: 'Corner?' });
    expect(textJson(third)).toMatchObject({ description: 'The corner is red.', image_indexes: [0, 1] });
    // verbose asks for usage; the zoom crop answered its own turn and is not re-sent after it.
    const fourth = await server.call('analyze_images', { prompt: 'Still red?', session_id: sessionId, verbose: true });
    expect(textJson(fourth)).toMatchObject({ usage: { calls: 1, cached_prompt_tokens: 0 }, session_usage: { calls: 4 } });
    expect(server.provider.requests.map((r) => countImageParts(r.body))).toEqual([1, 1, 2, 1]);
    const history = JSON.stringify(server.provider.requests[3]!.body);
    expect(history).not.toMatch(/Looks red|SUMMARY|provider-side reasoning/);
    expect(history).toContain('zoom crop shown in that turn only');
    // Privacy: the provider sees neutral labels, never the folder the images live in.
    for (const request of server.provider.requests) expect(JSON.stringify(request.body)).not.toContain(server.dir);
    expect(JSON.stringify(server.provider.requests[0]!.body)).toContain('Image #0 (tile.png)');

    const listed = await server.call('list_sessions', {});
    expect(textJson(listed).sessions).toEqual([expect.objectContaining({ session_id: sessionId, summary: 'Red tile.', iteration: 4, image_count: 2, image_sources: [file] })]);
    expect(textJson(listed).sessions[0]).not.toHaveProperty('usage');
  });

  it('stores sessions in the shared database where the desktop app sees them', async () => {
    server = await spawnVisionServer([{ text: 'A tile.\nSUMMARY: Shared tile.' }]);
    const file = path.join(server.dir, 'tile.png');
    writeFileSync(file, await solidPng(30, 20));
    const sessionId = textJson(await server.call('analyze_images', { image_sources: [file], prompt: 'What?' })).session_id;
    // A second process (the desktop app) opens the same file with the full migration list while the server runs.
    const { db } = openDatabase({ file: path.join(server.dir, 'data', 'cadsight.db'), migrations: allMigrations });
    try {
      expect(createSqliteSessionRepository(db).list()).toEqual([expect.objectContaining({ id: sessionId, summary: 'Shared tile.', iterations: 1 })]);
    } finally {
      db.close();
    }
  });

  it('sends progress notifications for multi-image work when asked to', async () => {
    server = await spawnVisionServer([{ text: 'two tiles' }]);
    const a = path.join(server.dir, 'a.png');
    const b = path.join(server.dir, 'b.png');
    writeFileSync(a, await solidPng(20, 20));
    writeFileSync(b, await solidPng(20, 20, [0, 0, 255]));
    const progress: number[] = [];
    const result = await server.call('analyze_images', { image_sources: [a, b], prompt: 'compare' }, (p) => progress.push(p.progress));
    expect(result.isError).toBeFalsy();
    expect(progress).toEqual([1, 2, 3, 4]);
  });

  it('answers unknown sessions with an isError result and a start-a-new-session hint', async () => {
    server = await spawnVisionServer([]);
    const result = await server.call('analyze_images', { image_sources: [], prompt: 'hello', session_id: 'vs_nope' });
    expect(result.isError).toBe(true);
    expect(textJson(result).error).toMatchObject({ code: 'VISION_SESSION_NOT_FOUND', hint: expect.stringContaining('start a new session') });
  });

  it('refuses a new session without image_sources with a typed error, not a schema fault', async () => {
    server = await spawnVisionServer([]);
    const result = await server.call('analyze_images', { prompt: 'hello' });
    expect(result.isError).toBe(true);
    expect(textJson(result).error).toMatchObject({ code: 'VISION_SOURCES_REQUIRED', hint: expect.stringContaining('session_id') });
    expect(server.provider.requests).toHaveLength(0);
  });

  it('reports LLM failures as isError results with the gateway code', async () => {
    server = await spawnVisionServer([{ error: { status: 401, body: { error: { message: 'bad key' } } } }]);
    const file = path.join(server.dir, 'a.png');
    writeFileSync(file, await solidPng(20, 20));
    const result = await server.call('analyze_images', { image_sources: [file], prompt: 'p' });
    expect(result.isError).toBe(true);
    expect(textJson(result).error).toMatchObject({ code: 'LLM_AUTH', hint: expect.stringContaining('API key') });
    expect(JSON.stringify(result)).not.toContain('sk-test-mcp');
  });

  it('refuses schema-invalid arguments without dying', async () => {
    server = await spawnVisionServer([]);
    const result = await server.call('zoom_image', { session_id: 'x', image_index: -1, region: { x: 2 }, prompt: '' }).catch((error: Error) => ({ isError: true, content: [{ type: 'text' as const, text: error.message }] }));
    expect(result.isError).toBe(true);
    expect((await server.client.listTools()).tools).toHaveLength(5);
  });
});

describe('cadsight-vision process', () => {
  it('exits 1 with one clear stderr line on bad configuration, printing nothing on stdout', async () => {
    const provider = await startScriptedProvider({ script: [] });
    const dir = mkdtempSync(path.join(tmpdir(), 'cadsight-vision-cfg-'));
    try {
      for (const [variable, value] of [['IMAGE_FORMAT', 'gif'], ['MAX_IMAGE_MB', 'lots'], ['DEFAULT_PROVIDER', 'nosuch'], ['CADSIGHT_ALLOW_PRIVATE_URLS', 'maybe']] as const) {
        const run = spawnSync(process.execPath, [entry], { env: { ...visionEnv(provider, dir), [variable]: value }, input: '', encoding: 'utf8' });
        expect(run.status, variable).toBe(1);
        expect(run.stdout).toBe('');
        expect(run.stderr.trim().split('\n')).toHaveLength(1);
        expect(run.stderr).toMatch(/^cadsight-vision: \[[A-Z_]+\] /);
      }
    } finally {
      await provider.close();
    }
  });

  it('exits when stdin closes and writes only JSON-RPC to stdout', async () => {
    const provider = await startScriptedProvider({ script: [] });
    const dir = mkdtempSync(path.join(tmpdir(), 'cadsight-vision-eof-'));
    try {
      const init = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } });
      const list = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
      const run = spawnSync(process.execPath, [entry], { env: { ...visionEnv(provider, dir), LOG_LEVEL: 'debug' }, input: `${init}\n${list}\n`, encoding: 'utf8', timeout: 20_000 });
      expect(run.status).toBe(0);
      const lines = run.stdout.trim().split('\n');
      expect(lines.map((line) => JSON.parse(line).jsonrpc)).toEqual(['2.0', '2.0']);
      expect(run.stderr).toContain('cadsight-vision ready');
    } finally {
      await provider.close();
    }
  });
});
