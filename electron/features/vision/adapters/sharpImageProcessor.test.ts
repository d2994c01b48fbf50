import { crc32 } from 'node:zlib';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { lineArtPng, orientedJpeg, photoJpeg, pngBomb, solidPng } from '../../../testSupport/visionFixtures/images';
import { imageLimitsFor } from '../domain/imageLimits';
import { compareSamples, PALETTE_FIDELITY } from '../domain/pixelStats';
import { sniffImage } from '../domain/imageSniff';
import { encodeSmallestPng } from './pngEncoding';
import { createSharpImageProcessor, RESIZE_KERNEL } from './sharpImageProcessor';

const generic = (maxEdge: number) => imageLimitsFor({ protocol: 'chat-completions', id: 'chat', baseUrl: 'http://127.0.0.1/v1', model: 'm' }, maxEdge);
const processor = createSharpImageProcessor({ limits: generic(1280), format: 'png', maxInputPixels: 40_000_000 });

/** RGBA samples of an encoded image (palette and grey PNGs expanded). */
const rgba = async (bytes: Uint8Array) => sharp(bytes).toColourspace('srgb').ensureAlpha().raw().toBuffer();

describe('sharp image processor', () => {
  it('returns the original bytes untouched when no resize, rotation or conversion is needed', async () => {
    // 800×600 is checked by libvips, 64×64 without it (see isCheckablePng).
    for (const bytes of [await solidPng(800, 600), await solidPng(64, 64)]) {
      const result = await processor.prepare(bytes, sniffImage(bytes));
      expect(result.reencoded).toBe(false);
      expect(result.prepared.bytes).toBe(bytes);
      expect(result.prepared.sha256).toBe(result.original.sha256);
    }
  });

  it('resizes colour line art to a palette PNG that keeps the stated fidelity', async () => {
    const bytes = await lineArtPng(2000, 1500);
    const result = await processor.prepare(bytes, sniffImage(bytes));
    expect(result).toMatchObject({ reencoded: true, original: { width: 2000, height: 1500 }, prepared: { mimeType: 'image/png', width: 1280, height: 960, encoding: 'palette-quantised' } });
    const reference = await sharp(bytes).resize({ width: 1280, height: 960, fit: 'fill', kernel: RESIZE_KERNEL }).ensureAlpha().raw().toBuffer();
    const fidelity = compareSamples(reference, await rgba(result.prepared.bytes));
    expect(fidelity.psnrDb).toBeGreaterThanOrEqual(PALETTE_FIDELITY.minPsnrDb);
    expect(fidelity.meanAbsDiff).toBeLessThanOrEqual(PALETTE_FIDELITY.maxMeanAbsDiff);
    const truecolour = await sharp(reference, { raw: { width: 1280, height: 960, channels: 4 } }).removeAlpha().png({ compressionLevel: 6 }).toBuffer();
    expect(result.prepared.bytes.length).toBeLessThan(truecolour.length / 2);
  });

  it('sends an image with at most 256 values after the resize as an exact indexed PNG: zero pixel differences', async () => {
    for (const bytes of [await lineArtPng(2000, 1500, 'monochrome'), await solidPng(3000, 2000, [12, 200, 99])]) {
      const result = await processor.prepare(bytes, sniffImage(bytes));
      expect(result.prepared.encoding).toBe('indexed-exact');
      const { width, height } = result.prepared;
      const reference = await sharp(bytes).resize({ width, height, fit: 'fill', kernel: RESIZE_KERNEL }).toColourspace('srgb').ensureAlpha().raw().toBuffer();
      expect(compareSamples(reference, await rgba(result.prepared.bytes)).maxDiff).toBe(0);
    }
  });

  it('sends resized line art in at least 15 % fewer bytes than a Lanczos-3 resize would need, exact and quantised alike', async () => {
    for (const style of ['colour', 'monochrome'] as const) {
      const bytes = await lineArtPng(2000, 1500, style);
      const result = await processor.prepare(bytes, sniffImage(bytes));
      const { data, info } = await sharp(bytes).resize({ width: 1280, height: 960, fit: 'fill', kernel: 'lanczos3' }).raw().toBuffer({ resolveWithObject: true });
      const lanczos3 = await encodeSmallestPng(sharp, { data, width: info.width, height: info.height, channels: info.channels });
      expect(result.prepared.encoding).toBe(lanczos3.encoding);
      expect(result.prepared.bytes.length).toBeLessThan(lanczos3.bytes.length * 0.85);
    }
  });

  it('keeps photographic PNGs as lossless truecolour rather than banding them', async () => {
    const photo = new Uint8Array(await sharp(await photoJpeg(2000, 1500)).png().toBuffer());
    const result = await processor.prepare(photo, sniffImage(photo));
    expect(result.prepared).toMatchObject({ mimeType: 'image/png', encoding: 'truecolour' });
  });

  it('tiles a 6000×200 strip at full resolution and keeps a fitted overview for thumbnails', async () => {
    const bytes = await lineArtPng(6000, 200);
    const result = await processor.prepare(bytes, sniffImage(bytes));
    expect(result.prepared).toMatchObject({ width: 1280, height: 43 });
    expect(result.tiles).toHaveLength(5);
    expect(result.tiles!.every((t) => t.height === 200 && t.width <= 1280)).toBe(true);
    expect(result.tiles!.map((t) => t.source.left)).toEqual([...result.tiles!.map((t) => t.source.left)].sort((a, b) => a - b));
    // A tile is the original's pixels in its rectangle: nothing was scaled.
    const first = result.tiles![0]!;
    const reference = await sharp(bytes).extract(first.source).ensureAlpha().raw().toBuffer();
    expect(compareSamples(reference, await rgba(first.bytes)).psnrDb).toBeGreaterThanOrEqual(PALETTE_FIDELITY.minPsnrDb);
  });

  it('stores an all-grey drawing as an indexed grey palette without losing a pixel', async () => {
    const svg = '<svg xmlns="http://www.w3.org/2000/svg" width="2600" height="1300"><rect width="100%" height="100%" fill="#fff"/><line x1="0" y1="0" x2="2600" y2="1300" stroke="#000" stroke-width="3"/><circle cx="900" cy="600" r="300" fill="none" stroke="#444" stroke-width="5"/></svg>';
    const bytes = new Uint8Array(await sharp(Buffer.from(svg)).png().toBuffer());
    const result = await processor.prepare(bytes, sniffImage(bytes));
    expect(result.prepared.encoding).toBe('indexed-exact');
    const expected = await sharp(bytes).resize(1280, 640, { kernel: RESIZE_KERNEL }).extractChannel(0).raw().toBuffer();
    const actual = await sharp(result.prepared.bytes).extractChannel(0).raw().toBuffer();
    expect(actual.equals(expected)).toBe(true);
  });

  it('keeps colour drawings in colour', async () => {
    const bytes = await solidPng(2000, 1000, [200, 30, 30]);
    const result = await processor.prepare(bytes, sniffImage(bytes));
    expect((await rgba(result.prepared.bytes)).subarray(0, 4)).toEqual(Buffer.from([200, 30, 30, 255]));
  });

  it('applies EXIF orientation, so a portrait photo is sent upright', async () => {
    const bytes = await orientedJpeg(200, 100, 6);
    const result = await processor.prepare(bytes, sniffImage(bytes));
    expect(result.original).toMatchObject({ width: 100, height: 200 });
    expect(result.prepared).toMatchObject({ mimeType: 'image/jpeg', width: 100, height: 200 });
    expect((await sharp(result.prepared.bytes).metadata()).orientation ?? 1).toBe(1);
  });

  it('flattens GIF to its first frame as PNG', async () => {
    const gif = new Uint8Array(await sharp({ create: { width: 10, height: 10, channels: 3, background: '#00ff00' } }).gif().toBuffer());
    const result = await processor.prepare(gif, sniffImage(gif));
    expect(result.prepared.mimeType).toBe('image/png');
  });

  it('uses JPEG for re-encoding when configured to', async () => {
    const jpegProcessor = createSharpImageProcessor({ limits: generic(512), format: 'jpeg', maxInputPixels: 40_000_000 });
    const bytes = await solidPng(1024, 800);
    const result = await jpegProcessor.prepare(bytes, sniffImage(bytes));
    expect(result.prepared).toMatchObject({ mimeType: 'image/jpeg', width: 512, height: 400 });
  });

  it('refuses a decompression bomb through the decoder pixel limit as well', async () => {
    const bomb = pngBomb(20_000, 20_000);
    await expect(processor.prepare(bomb, sniffImage(bomb))).rejects.toMatchObject({ code: 'VISION_IMAGE_TOO_LARGE' });
  });

  it('refuses truncated data as corrupt', async () => {
    const bytes = await solidPng(300, 300);
    const truncated = bytes.subarray(0, Math.floor(bytes.length / 2));
    await expect(processor.prepare(truncated, sniffImage(truncated))).rejects.toMatchObject({ code: 'VISION_IMAGE_CORRUPT' });
  });

  it('refuses a small PNG whose image data is damaged even when its checksums were recomputed', async () => {
    const bytes = Buffer.from(await solidPng(40, 40, [90, 90, 200]));
    const idat = bytes.indexOf('IDAT', 8, 'latin1');
    const length = bytes.readUInt32BE(idat - 4);
    bytes[idat + 4 + Math.floor(length / 2)]! ^= 0x55;
    bytes.writeUInt32BE(crc32(bytes.subarray(idat, idat + 4 + length)), idat + 4 + length);
    const damaged = new Uint8Array(bytes);
    await expect(processor.prepare(damaged, sniffImage(damaged))).rejects.toMatchObject({ code: 'VISION_IMAGE_CORRUPT' });
  });

  it('crops in oriented coordinates and keeps full resolution below the edge limit', async () => {
    const bytes = await solidPng(3000, 2000);
    const crop = await processor.crop(bytes, { left: 1000, top: 500, width: 600, height: 400 });
    expect(crop).toMatchObject({ width: 600, height: 400, mimeType: 'image/png' });
  });
});
