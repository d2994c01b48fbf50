import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { solidPng } from '../../testSupport/visionFixtures/images';
import { makePdf } from '../../testSupport/visionFixtures/pdf';
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

  it('analyses a PDF drawing page by page: analyze_images with pdf_pages, analyze_document as a per-page document', async () => {
    server = await spawnVisionServer(() => ({ text: 'A flange sheet.' }));
    const file = path.join(server.dir, 'set.pdf');
    writeFileSync(file, makePdf([{ text: 'Flange DN50 sheet 1' }, { text: 'Section A-A sheet 2' }, { text: 'Notes sheet 3' }]));
    const images = await server.call('analyze_images', { image_sources: [file], prompt: 'What is drawn?', pdf_pages: '2-3' });
    expect(images.isError).toBeFalsy();
    expect(textJson(images).image_indexes).toEqual([0, 1]);
    const listed = textJson(await server.call('list_sessions', {})).sessions as Array<{ image_sources: string[] }>;
    expect(listed[0]!.image_sources).toEqual([`${file} p.2/3`, `${file} p.3/3`]);

    const doc = await server.call('analyze_document', { document: file, pdf_pages: '1,3' });
    expect(doc.isError).toBeFalsy();
    const result = textJson(doc) as { document: string; images_analyzed: number; format: string };
    expect(result).toMatchObject({ images_analyzed: 2, format: 'markdown' });
    expect(result.document).toContain('## Page 1\n\nFlange DN50 sheet 1');
    expect(result.document).toMatch(/## Page 3\n\nNotes sheet 3\n\n!\[Page 3\]\([^)]*#page=3\) <!-- image-vision: A flange sheet\. -->/);
    expect(result.document).not.toContain('Section A-A');

    const locked = path.join(server.dir, 'locked.pdf');
    writeFileSync(locked, makePdf([{ text: 'x' }], { encrypted: true }));
    expect(textJson(await server.call('analyze_images', { image_sources: [locked], prompt: 'p' })).error).toMatchObject({ code: 'VISION_PDF_ENCRYPTED', hint: expect.stringContaining('unprotected') });
  });

  it('names the resolved path in a missing-file error', async () => {
    server = await spawnVisionServer([]);
    const result = await server.call('analyze_images', { image_sources: ['drawings/missing.png'], prompt: 'p' });
    expect(textJson(result).error).toMatchObject({ code: 'VISION_FILE_NOT_FOUND', message: `No file at ${path.join(server.dir, 'drawings', 'missing.png')}.` });
  });
});
