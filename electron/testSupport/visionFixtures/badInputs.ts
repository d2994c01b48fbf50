import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pngBomb, solidPng } from './images';

/** One generated bad input and the error code it must produce. */
export interface BadInput {
  name: string;
  /** What is passed as the image source. */
  source: string;
  expectedCode: string;
}

/**
 * Writes the bad-input corpus into `dir/allowed` (plus an outside file for symlink escapes)
 * and returns the sources with their expected codes. `maxBytes` is the configured size cap.
 */
export async function writeBadInputCorpus(dir: string, maxBytes: number): Promise<BadInput[]> {
  const allowed = path.join(dir, 'allowed');
  const outside = path.join(dir, 'outside');
  mkdirSync(allowed, { recursive: true });
  mkdirSync(outside, { recursive: true });
  const good = Buffer.from(await solidPng(64, 48));
  const jpeg = Buffer.from(await (await import('sharp')).default(good).jpeg().toBuffer());
  const write = (name: string, bytes: Uint8Array | string) => {
    const file = path.join(allowed, name);
    writeFileSync(file, bytes);
    return file;
  };
  const corruptPng = Buffer.from(good);
  corruptPng.fill(0x5a, 40, corruptPng.length - 12); // keeps the header, destroys the data and CRCs
  const corruptJpeg = Buffer.from(jpeg);
  corruptJpeg.fill(0x00, Math.floor(jpeg.length / 3), jpeg.length - 2);
  const overCap = Buffer.alloc(maxBytes + 1, 0);
  good.copy(overCap); // a valid PNG head, padded to exactly one byte over the cap
  const fifo = path.join(allowed, 'pipe.png');
  execFileSync('mkfifo', [fifo]);
  writeFileSync(path.join(outside, 'secret.png'), good);
  symlinkSync(path.join(outside, 'secret.png'), path.join(allowed, 'escape.png'));
  return [
    { name: 'truncated PNG', source: write('truncated.png', good.subarray(0, Math.floor(good.length / 2))), expectedCode: 'VISION_IMAGE_CORRUPT' },
    { name: 'corrupt PNG', source: write('corrupt.png', corruptPng), expectedCode: 'VISION_IMAGE_CORRUPT' },
    { name: 'truncated JPEG', source: write('truncated.jpg', jpeg.subarray(0, Math.floor(jpeg.length / 2))), expectedCode: 'VISION_IMAGE_CORRUPT' },
    { name: 'corrupt JPEG', source: write('corrupt.jpg', corruptJpeg), expectedCode: 'VISION_IMAGE_CORRUPT' },
    { name: 'SVG renamed .png', source: write('drawing.png', '<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"><rect width="10" height="10"/></svg>'), expectedCode: 'VISION_UNSUPPORTED_FORMAT' },
    { name: 'HTML renamed .jpg', source: write('page.jpg', '<!doctype html><html><body>not an image</body></html>'), expectedCode: 'VISION_UNSUPPORTED_FORMAT' },
    { name: '0-byte file', source: write('empty.png', ''), expectedCode: 'VISION_UNSUPPORTED_FORMAT' },
    { name: '1 byte over the size cap', source: write('big.png', overCap), expectedCode: 'VISION_IMAGE_TOO_LARGE' },
    { name: 'small PNG declaring a huge canvas', source: write('bomb.png', pngBomb(60_000, 60_000)), expectedCode: 'VISION_IMAGE_TOO_LARGE' },
    { name: 'FIFO', source: fifo, expectedCode: 'VISION_NOT_A_REGULAR_FILE' },
    { name: 'symlink out of the allowed root', source: path.join(allowed, 'escape.png'), expectedCode: 'VISION_PATH_NOT_ALLOWED' },
    { name: '".." out of the allowed root', source: `${allowed}/../outside/secret.png`, expectedCode: 'VISION_PATH_NOT_ALLOWED' },
    { name: 'file:// URL with ".."', source: `file://${allowed}/%2E%2E/outside/secret.png`, expectedCode: 'VISION_PATH_NOT_ALLOWED' },
    { name: 'directory', source: allowed, expectedCode: 'VISION_NOT_A_REGULAR_FILE' },
    { name: 'missing file', source: path.join(allowed, 'nope.png'), expectedCode: 'VISION_FILE_NOT_FOUND' },
    { name: 'javascript: scheme', source: 'javascript:alert(1)', expectedCode: 'VISION_URL_BLOCKED' },
    { name: 'non-base64 data URI', source: 'data:image/png,abc', expectedCode: 'VISION_SOURCE_INVALID' },
  ];
}

/** Spellings of loopback that must all be refused before any connection (port = canary). */
export function loopbackUrlSpellings(port: number): string[] {
  return [
    `http://127.0.0.1:${port}/a.png`,
    `http://127.1:${port}/a.png`,
    `http://0x7f000001:${port}/a.png`,
    `http://2130706433:${port}/a.png`,
    `http://0177.0.0.1:${port}/a.png`,
    `http://[::1]:${port}/a.png`,
    `http://[::ffff:127.0.0.1]:${port}/a.png`,
    `http://localhost:${port}/a.png`,
    `http://localhost.:${port}/a.png`,
    `http://LOCALHOST:${port}/a.png`,
    `http://0.0.0.0:${port}/a.png`,
    `http://169.254.169.254:${port}/latest/meta-data`,
  ];
}
