import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterEach, describe, expect, it } from 'vitest';
import { startTestServer, type HttpTestServer } from '../../../testSupport/visionFixtures/canaryServer';
import { countImageParts, startVisionHarness, type VisionHarness } from '../../../testSupport/visionFixtures/harness';
import { solidPng } from '../../../testSupport/visionFixtures/images';
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

describe('zoom_image', () => {
  it('crops the original at full resolution, not the downscaled copy the model saw', async () => {
    harness = await startVisionHarness({ maxEdge: 512, script: [{ text: 'overview' }, { text: 'detail' }] });
    // Left half red, right half blue, 2000×1000: the model first sees a 512×256 copy.
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
    expect([overview.width, overview.height]).toEqual([512, 256]);
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
