import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { classifySource } from '../domain/sourceClassifier';
import { createLocalFileReader, toAbsolutePath, type LocalFileOptions } from './localFileReader';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'cadsight-files-'));
  mkdirSync(path.join(dir, 'root', 'sub'), { recursive: true });
  writeFileSync(path.join(dir, 'root', 'sub', 'a.png'), 'PNGDATA');
  writeFileSync(path.join(dir, 'outside.png'), 'SECRET');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const read = (source: string, options: Partial<LocalFileOptions> = {}, maxBytes = 100) => {
  const opts: LocalFileOptions = { allowedRoots: [path.join(dir, 'root')], cwd: path.join(dir, 'root'), homeDir: path.join(dir, 'root'), ...options };
  const classified = classifySource(source);
  if (classified.kind !== 'path' && classified.kind !== 'fileUrl') throw new Error(`not a local source: ${classified.kind}`);
  return createLocalFileReader(opts)(toAbsolutePath(classified, opts), maxBytes);
};

describe('local file reader', () => {
  it('reads ~, relative, absolute and file:// spellings of the same file', async () => {
    const absolute = path.join(dir, 'root', 'sub', 'a.png');
    for (const source of ['~/sub/a.png', './sub/a.png', 'sub/a.png', absolute, pathToFileURL(absolute).href]) {
      expect(Buffer.from(await read(source)).toString(), source).toBe('PNGDATA');
    }
  });

  it('refuses paths that leave the allowed root by "..", symlink or sibling prefix', async () => {
    symlinkSync(path.join(dir, 'outside.png'), path.join(dir, 'root', 'link.png'));
    mkdirSync(path.join(dir, 'root-evil'));
    writeFileSync(path.join(dir, 'root-evil', 'x.png'), 'X');
    for (const source of ['../outside.png', './sub/../../outside.png', path.join(dir, 'root', 'link.png'), path.join(dir, 'root-evil', 'x.png')]) {
      await expect(read(source), source).rejects.toMatchObject({ code: 'VISION_PATH_NOT_ALLOWED' });
    }
  });

  it('reads anywhere when no roots are configured', async () => {
    expect(Buffer.from(await read('../outside.png', { allowedRoots: [] })).toString()).toBe('SECRET');
  });

  it('refuses a FIFO without blocking on it, and directories', async () => {
    execFileSync('mkfifo', [path.join(dir, 'root', 'pipe.png')]);
    await expect(read('./pipe.png')).rejects.toMatchObject({ code: 'VISION_NOT_A_REGULAR_FILE' });
    await expect(read('./sub')).rejects.toMatchObject({ code: 'VISION_NOT_A_REGULAR_FILE' });
  });

  it('refuses files over the byte cap and reports missing files', async () => {
    await expect(read('./sub/a.png', {}, 6)).rejects.toMatchObject({ code: 'VISION_IMAGE_TOO_LARGE' });
    await expect(read('./sub/missing.png')).rejects.toMatchObject({ code: 'VISION_FILE_NOT_FOUND' });
  });

  it('reads a small file and a file too big for the synchronous path byte for byte', async () => {
    for (const size of [1, 1024 * 1024, 1024 * 1024 + 1, 3 * 1024 * 1024 + 7]) {
      const bytes = Buffer.alloc(size);
      for (let i = 0; i < size; i++) bytes[i] = (i * 31 + size) & 0xff;
      writeFileSync(path.join(dir, 'root', 'big.png'), bytes);
      const got = await read('./big.png', {}, 4 * 1024 * 1024);
      expect(got.length, String(size)).toBe(size);
      expect(Buffer.from(got).equals(bytes), String(size)).toBe(true);
    }
  });

  it('names the resolved path it tried, and where a symlink led', async () => {
    await expect(read('./sub/missing.png')).rejects.toMatchObject({ message: `No file at ${path.join(dir, 'root', 'sub', 'missing.png')}.` });
    symlinkSync(path.join(dir, 'outside.png'), path.join(dir, 'root', 'link.png'));
    await expect(read('~/link.png')).rejects.toMatchObject({ message: expect.stringContaining(`${path.join(dir, 'root', 'link.png')} (resolves to ${path.join(dir, 'outside.png')})`) });
  });
});
