import { createHash } from 'node:crypto';
import type { Sharp, SharpOptions } from 'sharp';
import { visionError } from '../domain/errors';
import { fitWithin, isGreyscalePixels, type PixelRect } from '../domain/imageMath';
import { sniffImage, type ImageFormat, type SniffedImage } from '../domain/imageSniff';
import type { EncodedImage, ImageProcessor, PreparedImage } from '../ports/imageProcessor';

export interface SharpProcessorOptions {
  /** Longest edge sent to the model (IMAGE_MAX_EDGE, capped by the provider's limit). */
  maxEdge: number;
  /**
   * Encoding used when an image must be re-encoded: 'png' keeps line art lossless (JPEG
   * sources stay JPEG: they are photos already compressed lossily); 'jpeg' always uses JPEG.
   */
  format: 'png' | 'jpeg';
  /** Pixel limit handed to libvips as a second guard behind the header check. */
  maxInputPixels: number;
  jpegQuality?: number;
}

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** Maps libvips failures to typed errors; the raw message may contain paths, so it is summarized. */
function decodeError(error: unknown, format: ImageFormat): Error {
  const text = error instanceof Error ? error.message : String(error);
  if (/pixel limit/i.test(text)) return visionError('VISION_IMAGE_TOO_LARGE', 'The image exceeds the pixel limit.');
  return visionError('VISION_IMAGE_CORRUPT', `The ${format.toUpperCase()} data could not be decoded (truncated or damaged).`, { format, decoder: text.split('\n')[0]?.slice(0, 160) });
}

/** EXIF orientations 5-8 swap width and height. */
const swapsAxes = (orientation: number | undefined) => (orientation ?? 1) >= 5;

/**
 * sharp/libvips implementation of ImageProcessor. Decodes each original exactly once, applies
 * EXIF orientation, and returns the original bytes untouched when no resize, rotation or
 * format change is needed (GIF is always flattened to its first frame as PNG).
 */
export function createSharpImageProcessor(options: SharpProcessorOptions): ImageProcessor {
  // libvips is loaded on first use: it is a third of the MCP server's cold start otherwise.
  let sharpLoaded: Promise<(input: Uint8Array, options: SharpOptions) => Sharp> | undefined;
  const input = async (bytes: Uint8Array) => {
    const sharp = await (sharpLoaded ??= import('sharp').then((m) => m.default));
    return sharp(bytes, { limitInputPixels: options.maxInputPixels, failOn: 'warning', pages: 1, sequentialRead: true });
  };

  const result = (data: Buffer, info: { format: string; width: number; height: number }): EncodedImage => {
    const bytes = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
    return { bytes, mimeType: `image/${info.format}`, width: info.width, height: info.height, sha256: sha256(bytes) };
  };

  /**
   * Encodes the resized/cropped pixels. PNG output checks the pixels first: a drawing whose
   * pixels are all grey (R = G = B) is written as a grey PNG — still lossless, a third of the bytes.
   */
  async function encode(pipeline: Sharp, source: ImageFormat): Promise<EncodedImage> {
    try {
      if (options.format === 'jpeg' || source === 'jpeg') {
        const { data, info } = await pipeline.flatten({ background: '#ffffff' }).jpeg({ quality: options.jpegQuality ?? 85 }).toBuffer({ resolveWithObject: true });
        return result(data, info);
      }
      const { data: raw, info: rawInfo } = await pipeline.raw().toBuffer({ resolveWithObject: true });
      const sharp = await sharpLoaded!;
      let pixels = sharp(raw, { raw: { width: rawInfo.width, height: rawInfo.height, channels: rawInfo.channels } });
      if (isGreyscalePixels(raw, rawInfo.channels)) pixels = pixels.toColourspace('b-w');
      const { data, info } = await pixels.png({ compressionLevel: 6 }).toBuffer({ resolveWithObject: true });
      return result(data, info);
    } catch (error) {
      throw decodeError(error, source);
    }
  }

  return {
    sha256,

    async prepare(bytes: Uint8Array, sniffed: SniffedImage): Promise<PreparedImage> {
      let orientation: number | undefined;
      try {
        orientation = (await (await input(bytes)).metadata()).orientation;
      } catch (error) {
        throw decodeError(error, sniffed.format);
      }
      const width = swapsAxes(orientation) ? sniffed.height : sniffed.width;
      const height = swapsAxes(orientation) ? sniffed.width : sniffed.height;
      const original = { width, height, mimeType: sniffed.mimeType, sha256: sha256(bytes) };
      const fit = fitWithin(width, height, options.maxEdge);
      const mustReencode = fit.resized || (orientation ?? 1) > 1 || sniffed.format === 'gif';
      if (!mustReencode) {
        // Decode once anyway: a truncated or corrupt file must be refused here, not by the provider.
        try {
          await (await input(bytes)).stats();
        } catch (error) {
          throw decodeError(error, sniffed.format);
        }
        return { original, prepared: { bytes, mimeType: sniffed.mimeType, width, height, sha256: original.sha256 }, reencoded: false };
      }
      const pipeline = (await input(bytes)).rotate().resize({ width: fit.width, height: fit.height, fit: 'inside' });
      return { original, prepared: await encode(pipeline, sniffed.format), reencoded: true };
    },

    async crop(originalBytes: Uint8Array, rect: PixelRect): Promise<EncodedImage> {
      const sniffed = sniffImage(originalBytes);
      const fit = fitWithin(rect.width, rect.height, options.maxEdge);
      // rotate() first: regions are fractions of the image as the user sees it (EXIF applied).
      const pipeline = (await input(originalBytes)).rotate().extract(rect).resize({ width: fit.width, height: fit.height, fit: 'inside' });
      return encode(pipeline, sniffed.format);
    },
  };
}
