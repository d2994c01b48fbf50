import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { solidPng } from '../../testSupport/visionFixtures/images';
import { spawnVisionServer, textJson, type SpawnedVisionServer } from '../../testSupport/visionFixtures/mcpClient';

let server: SpawnedVisionServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('cadsight-vision for a user switching from picsense', () => {
  it('runs with a picsense environment: OPENAI_BASE_URL without /v1 and VIDEO_MAX_FRAMES=30', async () => {
    let root = '';
    server = await spawnVisionServer([{ text: 'A tile.\n<summary>A red tile</summary>' }], () => ({
      DEFAULT_PROVIDER: 'openai',
      OPENAI_API_KEY: 'sk-test-mcp-0123456789abcdef',
      OPENAI_MODEL: 'scripted-model',
      OPENAI_BASE_URL: root,
      VIDEO_MAX_FRAMES: '30',
    }), (provider) => (root = provider.baseUrl));
    const file = path.join(server.dir, 'tile.png');
    writeFileSync(file, await solidPng(40, 30));
    const result = await server.call('analyze_images', { image_sources: [file], prompt: 'What is it?' });
    expect(result.isError).toBeFalsy();
    expect(server.provider.requests.map((r) => r.path)).toEqual(['/v1/responses']);
    expect(textJson(result)).toMatchObject({ summary: 'A red tile', description: 'A tile.' });

    const listed = textJson(await server.call('list_sessions', {})).sessions as Array<Record<string, unknown>>;
    expect(typeof listed[0]!.last_access_at).toBe('number');
    expect(new Date(listed[0]!.last_access_at as number).toISOString()).toBe(listed[0]!.last_access_at_iso);
    expect(server.stderr()).toContain('VIDEO_MAX_FRAMES=30 is capped at SESSION_MAX_IMAGES=8');
  });

  it('names the resolved path in a missing-file error', async () => {
    server = await spawnVisionServer([]);
    const result = await server.call('analyze_images', { image_sources: ['drawings/missing.png'], prompt: 'p' });
    expect(textJson(result).error).toMatchObject({ code: 'VISION_FILE_NOT_FOUND', message: `No file at ${path.join(server.dir, 'drawings', 'missing.png')}.` });
  });
});
