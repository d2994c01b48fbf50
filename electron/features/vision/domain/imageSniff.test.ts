import fc from 'fast-check';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { sniffImage } from './imageSniff';

describe('sniffImage', () => {
  it('reads format and size of real PNG, JPEG, WebP (lossy and lossless) and GIF headers', async () => {
    const base = sharp({ create: { width: 37, height: 23, channels: 3, background: '#123456' } });
    const cases: Array<[Buffer, string]> = [
      [await base.clone().png().toBuffer(), 'png'],
      [await base.clone().jpeg().toBuffer(), 'jpeg'],
      [await base.clone().webp().toBuffer(), 'webp'],
      [await base.clone().webp({ lossless: true }).toBuffer(), 'webp'],
      [await base.clone().gif().toBuffer(), 'gif'],
    ];
    for (const [bytes, format] of cases) {
      expect(sniffImage(new Uint8Array(bytes))).toEqual({ format, mimeType: `image/${format}`, width: 37, height: 23 });
    }
  });

  it('names SVG and HTML when it refuses them', () => {
    const svg = new TextEncoder().encode('\uFEFF  <?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg"/>');
    expect(() => sniffImage(svg)).toThrow(expect.objectContaining({ code: 'VISION_UNSUPPORTED_FORMAT', message: expect.stringContaining('SVG') }));
    expect(() => sniffImage(new TextEncoder().encode('<!DOCTYPE html><html>'))).toThrow(expect.objectContaining({ message: expect.stringContaining('HTML') }));
    expect(() => sniffImage(new Uint8Array())).toThrow(expect.objectContaining({ code: 'VISION_UNSUPPORTED_FORMAT' }));
  });

  it('answers any byte string with a result or a typed error, never a crash', () => {
    fc.assert(
      fc.property(fc.constantFrom([], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], [0xff, 0xd8, 0xff], [0x52, 0x49, 0x46, 0x46, 1, 2, 3, 4, 0x57, 0x45, 0x42, 0x50], [0x47, 0x49, 0x46, 0x38, 0x39, 0x61]), fc.uint8Array({ maxLength: 64 }), (prefix, rest) => {
        try {
          const sniffed = sniffImage(Uint8Array.from([...prefix, ...rest]));
          expect(sniffed.width).toBeGreaterThan(0);
        } catch (error) {
          expect(['VISION_UNSUPPORTED_FORMAT', 'VISION_IMAGE_CORRUPT']).toContain((error as { code: string }).code);
        }
      }),
    );
  });
});
