import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fillsBombPdf, flateBombPdf, imageBombPdf } from '../../testSupport/visionFixtures/hostilePdf';
import { spawnVisionServer, textJson, type SpawnedVisionServer } from '../../testSupport/visionFixtures/mcpClient';

let server: SpawnedVisionServer;

beforeAll(async () => {
  server = await spawnVisionServer(() => ({ text: 'never asked' }), (dir) => ({ CADSIGHT_ALLOWED_ROOTS: dir }));
}, 60_000);

afterAll(async () => {
  await server?.close();
});

describe('cadsight-vision with hostile PDFs', () => {
  it.each([
    ['a 20000×20000 image', imageBombPdf, ['VISION_PDF_PAGE_TOO_LARGE']],
    ['a Flate bomb inflating to 1.2 GB', flateBombPdf, ['VISION_PDF_DECODED_TOO_LARGE']],
    ['a page of 3 million fills', fillsBombPdf, ['VISION_PDF_PAGE_TIMEOUT', 'VISION_PDF_PAGE_TOO_COMPLEX']],
  ] as const)('answers %s with a typed error naming page 2, answering pings meanwhile', async (_name, make, codes) => {
    const file = path.join(server.dir, 'hostile.pdf');
    writeFileSync(file, await make());
    const order: string[] = [];
    const call = server.call('analyze_images', { image_sources: [file], prompt: 'describe' }).then((result) => (order.push('call'), result));
    await server.client.ping().then(() => order.push('ping'));
    const result = await call;
    expect(order).toEqual(['ping', 'call']);
    expect(result.isError).toBe(true);
    const { error } = textJson(result);
    expect(codes).toContain(error.code);
    expect(error.message).toContain('Page 2');
    expect(error.hint).toEqual(expect.any(String));
    expect(server.provider.requests).toHaveLength(0);
  }, 90_000);
});
