import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loopbackUrlSpellings, writeBadInputCorpus, type BadInput } from '../../testSupport/visionFixtures/badInputs';
import { startTestServer, type HttpTestServer } from '../../testSupport/visionFixtures/canaryServer';
import { solidPng } from '../../testSupport/visionFixtures/images';
import { spawnVisionServer, textJson, type SpawnedVisionServer } from '../../testSupport/visionFixtures/mcpClient';

const MAX_IMAGE_MB = 0.05;
const MAX_BYTES = Math.floor(MAX_IMAGE_MB * 1024 * 1024);

let server: SpawnedVisionServer;
let canary: HttpTestServer;
let corpus: BadInput[];

beforeAll(async () => {
  canary = await startTestServer('127.0.0.1', (_req, res) => res.end('must never be fetched'));
  server = await spawnVisionServer(() => ({ text: 'fine' }), (dir) => ({ MAX_IMAGE_MB: String(MAX_IMAGE_MB), CADSIGHT_ALLOWED_ROOTS: path.join(dir, 'allowed') }));
  corpus = await writeBadInputCorpus(server.dir, MAX_BYTES);
  const svgBase64 = Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg">${' '.repeat(80)}</svg>`).toString('base64');
  corpus.push(
    { name: 'bare base64 of an SVG', source: svgBase64, expectedCode: 'VISION_UNSUPPORTED_FORMAT' },
    { name: 'data URI over the size cap', source: `data:image/png;base64,${Buffer.alloc(MAX_BYTES + 3).toString('base64')}`, expectedCode: 'VISION_IMAGE_TOO_LARGE' },
    { name: 'data URI mixing base64 alphabets', source: `data:image/png;base64,${'A'.repeat(70)}+-_/`, expectedCode: 'VISION_SOURCE_INVALID' },
  );
}, 60_000);

afterAll(async () => {
  await server?.close();
  await canary?.close();
});

describe('cadsight-vision with a generated bad-input corpus', () => {
  it('answers every bad input with its typed error and a hint, and keeps serving', async () => {
    const outcomes: Record<string, string> = {};
    for (const input of corpus) {
      const result = await server.call('analyze_images', { image_sources: [input.source], prompt: 'describe' });
      expect(result.isError, input.name).toBe(true);
      const { error } = textJson(result);
      outcomes[input.name] = error.code;
      expect(error.hint, input.name).toEqual(expect.any(String));
    }
    expect(outcomes).toEqual(Object.fromEntries(corpus.map((c) => [c.name, c.expectedCode])));
    const good = path.join(server.dir, 'allowed', 'good.png');
    writeFileSync(good, await solidPng(16, 16));
    const ok = await server.call('analyze_images', { image_sources: [good], prompt: 'describe' });
    expect(ok.isError).toBeFalsy();
    expect(server.provider.requests).toHaveLength(1);
  });

  it('refuses every loopback URL spelling without contacting the canary', async () => {
    for (const url of loopbackUrlSpellings(canary.port)) {
      const result = await server.call('analyze_images', { image_sources: [url], prompt: 'describe' });
      expect(textJson(result).error?.code, url).toBe('VISION_URL_BLOCKED');
    }
    const doc = await server.call('analyze_document', { document: `![x](http://127.1:${canary.port}/a.png)\n<img src="http://[::1]:${canary.port}/b.png">` });
    expect(textJson(doc).failed.map((f: { code: string }) => f.code)).toEqual(['VISION_URL_BLOCKED', 'VISION_URL_BLOCKED']);
    expect(canary.hits).toEqual([]);
  });
});
