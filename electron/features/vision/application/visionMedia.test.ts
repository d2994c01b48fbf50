import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterEach, describe, expect, it } from 'vitest';
import { startTestServer, type HttpTestServer } from '../../../testSupport/visionFixtures/canaryServer';
import { countImageParts, startVisionHarness, type VisionHarness } from '../../../testSupport/visionFixtures/harness';
import { lineArtPng, solidPng } from '../../../testSupport/visionFixtures/images';
import { makePdf } from '../../../testSupport/visionFixtures/pdf';
import { toolPath } from '../../../testSupport/prereqs';

let harness: VisionHarness | undefined;
let server: HttpTestServer | undefined;
afterEach(async () => {
  await harness?.close();
  await server?.close();
  harness = undefined;
  server = undefined;
});

/** Base64 of the images in a captured chat-completions request. */
function sentImages(body: unknown): Buffer[] {
  const json = JSON.stringify(body);
  return [...json.matchAll(/data:image\/[a-z]+;base64,([A-Za-z0-9+/=]+)/g)].map((m) => Buffer.from(m[1]!, 'base64'));
}

describe('wide images', () => {
  it('sends a 6000×200 strip as labelled full-resolution tiles, again after a restart, and frees them with the session', async () => {
    harness = await startVisionHarness({ script: () => ({ text: 'A long toolbar.' }) });
    const file = path.join(harness.dir, 'strip.png');
    writeFileSync(file, await lineArtPng(6000, 200));
    const first = await harness.service.analyzeImages({ sources: [file], prompt: 'Read the toolbar.' });
    const tiles = sentImages(harness.provider.requests[0]!.body);
    expect(tiles).toHaveLength(5);
    for (const tile of tiles) expect((await sharp(tile).metadata()).height).toBe(200);
    const text = JSON.stringify(harness.provider.requests[0]!.body);
    expect(text).toContain('sent as 5 overlapping tiles in reading order');
    expect(text).toMatch(/Image #0 tile 1 of 5, left to right, x 0–\d+ of 6000 px/);

    const service = harness.restart();
    await service.analyzeImages({ sources: [], prompt: 'And the last button?', sessionId: first.sessionId });
    expect(sentImages(harness.provider.requests[1]!.body).map((b) => b.toString('base64'))).toEqual(tiles.map((b) => b.toString('base64')));
    const blobs = () => (harness!.db.prepare('SELECT COUNT(*) AS n FROM vision_blobs').get() as { n: number }).n;
    expect(blobs()).toBe(1 + 1 + 5); // original, overview, tiles
    harness.clock.advance(25 * 3_600_000);
    expect(service.sweepExpired().deleted).toEqual([first.sessionId]);
    expect(blobs()).toBe(0);
  });
});

describe('PDF sources', () => {
  it('analyses the chosen pages of a PDF as images with their text layer, and zooms into a page render', async () => {
    harness = await startVisionHarness({ script: [{ text: 'Two sheets.\nSUMMARY: Flange drawing set.' }, { text: 'DN50' }] });
    const file = path.join(harness.dir, 'set.pdf');
    writeFileSync(file, makePdf([{ text: 'Flange DN50 sheet 1' }, { text: 'Bolt list' }, { text: 'Section A-A sheet 3' }]));
    const first = await harness.service.analyzeImages({ sources: [file], prompt: 'What is drawn?', pdfPages: '1,3' });
    expect(first.imageIndexes).toEqual([0, 1]);
    const body = JSON.stringify(harness.provider.requests[0]!.body);
    expect(body).toContain('set.pdf p.1/3');
    expect(body).toContain('set.pdf p.3/3');
    expect(body).toContain('Flange DN50 sheet 1');
    expect(body).toContain('Section A-A sheet 3');
    expect(body).not.toContain('Bolt list');
    expect(sentImages(harness.provider.requests[0]!.body)).toHaveLength(2);
    // The page render (200 DPI A4 landscape) is the original zoom_image crops.
    await harness.service.zoomImage({ sessionId: first.sessionId, imageIndex: 0, region: { x: 0, y: 0, width: 0.5, height: 0.25 }, prompt: 'Title?' });
    const crop = sentImages(harness.provider.requests[1]!.body).at(-1)!;
    expect((await sharp(crop).metadata()).width).toBe(Math.round(0.5 * Math.ceil(842 * 200 / 72)));
  });

  it('refuses encrypted, broken and oversized PDFs and bad page ranges with typed errors', async () => {
    harness = await startVisionHarness({ script: [] });
    const cases: Array<[Uint8Array, string | undefined, string]> = [
      [makePdf([{ text: 'secret' }], { encrypted: true }), undefined, 'VISION_PDF_ENCRYPTED'],
      [new TextEncoder().encode('%PDF-1.4\nthis is not a pdf body'), undefined, 'VISION_PDF_INVALID'],
      [makePdf(Array.from({ length: 9 }, (_, i) => ({ text: `page ${i + 1}` }))), undefined, 'VISION_PDF_TOO_MANY_PAGES'],
      [makePdf([{ text: 'one' }]), '2', 'VISION_PDF_PAGES_INVALID'],
    ];
    for (const [i, [bytes, pages, code]] of cases.entries()) {
      const file = path.join(harness.dir, `case${i}.pdf`);
      writeFileSync(file, bytes);
      await expect(harness.service.analyzeImages({ sources: [file], prompt: 'p', ...(pages ? { pdfPages: pages } : {}) }), code).rejects.toMatchObject({ code, data: expect.objectContaining({ sourceIndex: 0 }) });
    }
    expect(harness.provider.requests).toHaveLength(0);
  });
});

describe('zoom_image', () => {
  it('crops the original at full resolution, not the downscaled copy the model saw', async () => {
    harness = await startVisionHarness({ maxEdge: 1024, script: [{ text: 'overview' }, { text: 'detail' }] });
    // Left half red, right half blue, 2000×1000: the model first sees a 1024×512 copy.
    const left = await sharp({ create: { width: 1000, height: 1000, channels: 3, background: '#ff0000' } }).png().toBuffer();
    const file = path.join(harness.dir, 'wide.png');
    writeFileSync(file, await sharp({ create: { width: 2000, height: 1000, channels: 3, background: '#0000ff' } }).composite([{ input: left, left: 0, top: 0 }]).png().toBuffer());
    const first = await harness.service.analyzeImages({ sources: [file], prompt: 'overview' });
    const zoom = await harness.service.zoomImage({ sessionId: first.sessionId, imageIndex: 0, region: { x: 0.5, y: 0, width: 0.2, height: 0.3 }, prompt: 'what colour?' });
    expect(zoom.description).toBe('detail');
    const images = sentImages(harness.provider.requests[1]!.body);
    expect(images).toHaveLength(2);
    const overview = await sharp(images[0]!).metadata();
    const crop = await sharp(images[1]!).metadata();
    expect([overview.width, overview.height]).toEqual([1024, 512]);
    expect([crop.width, crop.height]).toEqual([400, 300]);
    const { dominant } = await sharp(images[1]!).stats();
    expect(dominant).toMatchObject({ b: expect.any(Number) });
    expect(dominant.b).toBeGreaterThan(200);
  });

  it('refuses unknown sessions, image indexes and regions with typed errors', async () => {
    harness = await startVisionHarness({ script: [{ text: 'x' }] });
    const file = path.join(harness.dir, 'a.png');
    writeFileSync(file, await solidPng(20, 20));
    const first = await harness.service.analyzeImages({ sources: [file], prompt: 'p' });
    const zoom = (imageIndex: number, region: { x: number; y: number; width: number; height: number }, sessionId = first.sessionId) =>
      harness!.service.zoomImage({ sessionId, imageIndex, region, prompt: 'z' });
    await expect(zoom(0, { x: 0, y: 0, width: 1, height: 1 }, 'vs_missing')).rejects.toMatchObject({ code: 'VISION_SESSION_NOT_FOUND' });
    await expect(zoom(3, { x: 0, y: 0, width: 1, height: 1 })).rejects.toMatchObject({ code: 'VISION_IMAGE_INDEX_INVALID' });
    await expect(zoom(0, { x: 0.8, y: 0, width: 0.5, height: 1 })).rejects.toMatchObject({ code: 'VISION_REGION_INVALID' });
    await expect(zoom(0, { x: 0, y: 0, width: 0, height: 1 })).rejects.toMatchObject({ code: 'VISION_REGION_INVALID' });
  });
});

describe('analyze_video', () => {
  it('samples frames with ffmpeg and sends them in one turn', async () => {
    harness = await startVisionHarness({ script: [{ text: 'a moving test pattern' }] });
    const video = path.join(harness.dir, 'clip.mp4');
    execFileSync(toolPath('ffmpeg') ?? 'ffmpeg', ['-hide_banner', '-loglevel', 'error', '-f', 'lavfi', '-i', 'testsrc=duration=3:size=320x240:rate=10', '-pix_fmt', 'yuv420p', video]);
    const result = await harness.service.analyzeVideo({ source: video, prompt: 'what happens?' });
    expect(result.imageIndexes).toEqual([0, 1, 2, 3]);
    expect(countImageParts(harness.provider.requests[0]!.body)).toBe(4);
  });

  it('reports VISION_FFMPEG_MISSING when ffmpeg is not installed', async () => {
    harness = await startVisionHarness({ ffmpegPath: '/nonexistent/ffmpeg', script: [] });
    const video = path.join(harness.dir, 'clip.mp4');
    writeFileSync(video, 'not really a video');
    await expect(harness.service.analyzeVideo({ source: video, prompt: 'p' })).rejects.toMatchObject({ code: 'VISION_FFMPEG_MISSING', data: expect.objectContaining({ hint: expect.any(String) }) });
  });

  it('reports VISION_VIDEO_FAILED for data ffmpeg cannot decode', async () => {
    harness = await startVisionHarness({ script: [] });
    const video = path.join(harness.dir, 'clip.mp4');
    writeFileSync(video, 'not really a video');
    await expect(harness.service.analyzeVideo({ source: video, prompt: 'p' })).rejects.toMatchObject({ code: 'VISION_VIDEO_FAILED' });
  });
});

describe('analyze_document', () => {
  it('annotates a markdown document fetched by URL, resolving relative images and analysing duplicates once', async () => {
    const png = Buffer.from(await solidPng(30, 30));
    const markdown = ['# Doc', '![one](img/a.png "A")', 'text <img src="img/a.png">', '![two][b]', '', '[b]: /abs/b.png', '<picture><source srcset="img/c.png 1x, img/c2.png 2x"><img src="img/c.png"></picture>', '![bad](svg.png)'].join('\n');
    server = await startTestServer('127.0.0.1', (req, res) => {
      if (req.url === '/docs/page.md') return res.writeHead(200, { 'content-type': 'text/markdown' }).end(markdown);
      if (req.url === '/docs/svg.png') return res.writeHead(200, { 'content-type': 'image/png' }).end('<svg xmlns="http://www.w3.org/2000/svg"/>');
      res.writeHead(200, { 'content-type': 'image/png' }).end(png);
    });
    let n = 0;
    harness = await startVisionHarness({ allowPrivateUrls: true, script: () => ({ text: `desc ${++n} --> tricky` }) });
    const progress: number[] = [];
    const result = await harness.service.analyzeDocument({ document: `http://127.0.0.1:${server.port}/docs/page.md` }, { onProgress: (done) => progress.push(done) });
    expect(result.format).toBe('markdown');
    expect(result.imagesAnalyzed).toBe(3);
    expect(result.failed).toEqual([expect.objectContaining({ code: 'VISION_UNSUPPORTED_FORMAT' })]);
    expect(server.hits.filter((h) => h === '/docs/img/a.png')).toHaveLength(1);
    expect(server.hits).toContain('/abs/b.png');
    expect(server.hits).toContain('/docs/img/c2.png');
    expect(result.document.match(/<!-- image-vision:/g)).toHaveLength(5);
    expect(result.document).not.toContain('--> tricky');
    expect(result.document).toContain('--&gt; tricky');
    expect(progress.at(-1)).toBe(4);
  });

  it('reads local images of an inline document under the analyze_images path rules, and marks failures the picsense way', async () => {
    const roots = mkdtempSync(path.join(tmpdir(), 'cadsight-doc-roots-'));
    harness = await startVisionHarness({ allowedRoots: [roots], script: () => ({ text: 'a local tile' }) });
    const inside = path.join(roots, 'inside.png');
    writeFileSync(inside, await solidPng(10, 10));
    writeFileSync(path.join(harness.dir, 'cwd.png'), await solidPng(12, 12));
    const doc = `![abs](${inside}) <img src="file://${inside}"> ![rel](cwd.png) ![sys](/etc/hostname) ![gone](${path.join(roots, 'missing.png')})`;
    const result = await harness.service.analyzeDocument({ document: doc });
    expect(result.imagesAnalyzed).toBe(2);
    // cwd.png is relative to the working directory, which is outside the allowed root here.
    expect(result.failed.map((f) => f.code).sort()).toEqual(['VISION_FILE_NOT_FOUND', 'VISION_PATH_NOT_ALLOWED', 'VISION_PATH_NOT_ALLOWED']);
    expect(result.document).toContain(`![abs](${inside}) <!-- image-vision: a local tile -->`);
    expect(result.document).toMatch(/!\[gone\]\([^)]*\) <!-- image-vision: \[识别失败: VISION_FILE_NOT_FOUND No file at [^\]]*missing\.png\.\] -->/);
    expect(harness.provider.requests).toHaveLength(2);
    rmSync(roots, { recursive: true, force: true });
  });

  it('skips distinct images beyond max_images and says so', async () => {
    harness = await startVisionHarness({ script: () => ({ text: 'ok' }) });
    const png = Buffer.from(await solidPng(8, 8)).toString('base64');
    const other = Buffer.from(await solidPng(8, 8, [1, 1, 1])).toString('base64');
    const doc = `![a](data:image/png;base64,${png}) ![b](data:image/png;base64,${other})`;
    const result = await harness.service.analyzeDocument({ document: doc, maxImages: 1 });
    expect(result.imagesAnalyzed).toBe(1);
    expect(result.failed).toEqual([expect.objectContaining({ code: 'VISION_DOCUMENT_IMAGE_SKIPPED' })]);
  });
});
