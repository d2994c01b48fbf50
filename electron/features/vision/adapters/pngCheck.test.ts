import { crc32 } from 'node:zlib';
import fc from 'fast-check';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { lineArtPng, solidPng } from '../../../testSupport/visionFixtures/images';
import { sniffImage } from '../domain/imageSniff';
import { exactPalette } from '../domain/pixelStats';
import { encodeIndexedPng } from './indexedPng';
import { isCheckablePng, plainPngLayout, pngPixelsIntact } from './pngCheck';

const intact = (bytes: Uint8Array) => {
  const layout = plainPngLayout(bytes);
  return layout !== undefined && pngPixelsIntact(bytes, layout);
};

/** Random small images as libvips writes them: 1–4 channels, 8 or 16 bits. */
const arbitraryPng = fc
  .record({ width: fc.integer({ min: 1, max: 40 }), height: fc.integer({ min: 1, max: 40 }), channels: fc.constantFrom(1, 2, 3, 4), sixteen: fc.boolean(), seed: fc.integer() })
  .map(async ({ width, height, channels, sixteen, seed }) => {
    const raw = Buffer.alloc(width * height * channels);
    for (let i = 0, s = seed; i < raw.length; i++) raw[i] = (s = (s * 1103515245 + 12345) & 0x7fffffff) >> 23;
    const png = await sharp(raw, { raw: { width, height, channels: channels as 1 | 2 | 3 | 4 } }).png({ compressionLevel: 6 }).toColourspace(sixteen ? 'rgb16' : 'srgb').toBuffer();
    return new Uint8Array(png);
  });

describe('PNG check without libvips', () => {
  it('accepts PNGs written by libvips and by the exact-palette encoder', async () => {
    expect(intact(await solidPng(64, 64))).toBe(true);
    expect(intact(await lineArtPng(600, 400))).toBe(true);
    const grey = new Uint8Array(16 * 8).map((_, i) => (i % 2 ? 255 : 0));
    expect(intact(encodeIndexedPng(16, 8, 1, exactPalette(grey, 1)!))).toBe(true);
  });

  it('leaves large images to libvips, whose inflate is faster there, and checks small ones itself', async () => {
    expect(isCheckablePng(plainPngLayout(await lineArtPng(1200, 900))!)).toBe(false);
    expect(isCheckablePng(plainPngLayout(await solidPng(64, 64))!)).toBe(true);
  });

  it('finds any changed byte of an intact PNG, so a damaged file never skips the decoder', async () => {
    const bytes = await solidPng(20, 12, [10, 200, 30]);
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: bytes.length - 1 }), fc.integer({ min: 1, max: 255 }), async (at, xor) => {
        const damaged = bytes.slice();
        damaged[at]! ^= xor;
        expect(intact(damaged)).toBe(false);
      }),
    );
  });

  it('refuses every truncation', async () => {
    const bytes = await solidPng(30, 30);
    for (let length = 0; length < bytes.length; length++) expect(intact(bytes.subarray(0, length))).toBe(false);
  });

  it('agrees with libvips: whatever it accepts, libvips decodes to the declared size', async () => {
    let accepted = 0;
    await fc.assert(
      fc.asyncProperty(arbitraryPng, async (made) => {
        const bytes = await made;
        if (!intact(bytes)) return;
        accepted++;
        const { info } = await sharp(bytes, { failOn: 'warning' }).raw().toBuffer({ resolveWithObject: true });
        const sniffed = sniffImage(bytes);
        expect([info.width, info.height]).toEqual([sniffed.width, sniffed.height]);
      }),
      { numRuns: 40 },
    );
    expect(accepted).toBeGreaterThan(20);
  });

  it('leaves to libvips what it cannot vouch for: EXIF, ICC profiles, interlacing, short palettes, trailing bytes', async () => {
    const base = sharp({ create: { width: 8, height: 4, channels: 3, background: '#336699' } });
    const withExif = new Uint8Array(await base.clone().withMetadata({ orientation: 6 }).png().toBuffer());
    const interlaced = new Uint8Array(await base.clone().png({ progressive: true }).toBuffer());
    const shortPalette = new Uint8Array(await base.clone().png({ palette: true }).toBuffer());
    const trailing = new Uint8Array([...(await solidPng(8, 8)), 0]);
    for (const bytes of [withExif, interlaced, shortPalette, trailing]) expect(plainPngLayout(bytes)).toBeUndefined();
  });

  it('refuses an image stream that holds more rows than the header declares', async () => {
    const bytes = Buffer.from(await solidPng(10, 10));
    // Claim 9 rows: the stream now inflates past the declared size.
    bytes.writeUInt32BE(9, 20);
    const layout = plainPngLayout(bytes)!;
    bytes.writeUInt32BE(crc32(bytes.subarray(12, 29)), 29);
    expect(pngPixelsIntact(bytes, layout)).toBe(false);
  });
});
