import { closeSync, constants, fstatSync, openSync, read, readSync, realpathSync, statSync } from 'node:fs';
import { realpath } from 'node:fs/promises';
import { homedir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { visionError } from '../domain/errors';
import { isPathInside } from '../domain/pathContainment';
import type { ClassifiedSource } from '../domain/sourceClassifier';

export interface LocalFileOptions {
  /** When non-empty, files must resolve (realpath) inside one of these folders. */
  allowedRoots: string[];
  /** Base of relative paths. */
  cwd: string;
  homeDir?: string;
}

const style = process.platform === 'win32' ? 'windows' : 'posix';

function fsError(error: unknown, shown: string): Error {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'ENOENT' || code === 'ENOTDIR') return visionError('VISION_FILE_NOT_FOUND', `No file at ${shown}.`, { path: shown });
  if (code === 'EACCES' || code === 'EPERM') return visionError('VISION_PATH_NOT_ALLOWED', `Permission denied reading ${shown}.`);
  if (code === 'ELOOP') return visionError('VISION_PATH_NOT_ALLOWED', `Too many symbolic links at ${shown}.`);
  return visionError('VISION_FILE_NOT_FOUND', `Cannot read ${shown}.`, { errno: code });
}

/** Turns a classified local source into an absolute path (no file system access). */
export function toAbsolutePath(source: Extract<ClassifiedSource, { kind: 'path' | 'fileUrl' }>, options: LocalFileOptions): string {
  if (source.kind === 'fileUrl') {
    try {
      return fileURLToPath(source.url);
    } catch {
      throw visionError('VISION_SOURCE_INVALID', 'The file:// URL is not a local file path.');
    }
  }
  if (source.style === 'home') return path.join(options.homeDir ?? homedir(), source.path.replace(/^~[\\/]?/, ''));
  return path.resolve(options.cwd, source.path);
}

/**
 * Files up to this size are read on the calling thread. For an icon or a screenshot each
 * thread-pool round trip (realpath, stat, open, fstat, read: ~0.1 ms apiece on a loaded machine)
 * costs more than the whole read, and they were most of a small call's overhead (bench:vision).
 * Larger files are read off the event loop, so one big drawing never stalls other sessions.
 */
const SYNC_READ_MAX_BYTES = 1024 * 1024;

/** Reads `length` bytes from `fd` at 0 without blocking the event loop (a short read ends early). */
function readAsync(fd: number, buffer: Buffer, filled = 0): Promise<number> {
  return new Promise((resolve, reject) => {
    read(fd, buffer, filled, buffer.length - filled, filled, (error, bytesRead) => {
      if (error) reject(error);
      else if (bytesRead === 0 || filled + bytesRead >= buffer.length) resolve(filled + bytesRead);
      else resolve(readAsync(fd, buffer, filled + bytesRead));
    });
  });
}

function readSyncFully(fd: number, buffer: Buffer): number {
  let filled = 0;
  while (filled < buffer.length) {
    const bytesRead = readSync(fd, buffer, filled, buffer.length - filled, filled);
    if (bytesRead === 0) break;
    filled += bytesRead;
  }
  return filled;
}

/**
 * Reads a local image safely: realpath, component-wise containment in the allowed roots,
 * regular files only. FIFOs and devices are refused without blocking: stat before open, and
 * the open is O_NONBLOCK with a second fstat on the descriptor (the path may change in between).
 * The checks are synchronous metadata calls; the read is too up to SYNC_READ_MAX_BYTES.
 * Errors: VISION_FILE_NOT_FOUND, VISION_PATH_NOT_ALLOWED, VISION_NOT_A_REGULAR_FILE,
 * VISION_IMAGE_TOO_LARGE.
 */
export function createLocalFileReader(options: LocalFileOptions) {
  let rootsResolved: Promise<string[]> | undefined;
  const roots = () =>
    (rootsResolved ??= Promise.all(options.allowedRoots.map((root) => realpath(path.resolve(options.cwd, root)).catch(() => path.resolve(options.cwd, root)))));
  const attempt = <T>(step: () => T, shown: string): T => {
    try {
      return step();
    } catch (error) {
      throw fsError(error, shown);
    }
  };

  return async function readLocalFile(absolute: string, maxBytes: number): Promise<Uint8Array> {
    // Messages name the resolved path that was tried (relative and ~ paths are resolved against
    // a working directory the caller may not know), as picsense does.
    const shown = absolute;
    const allowed = await roots();
    // Without allowed roots any target may be read and the kernel follows symlinks itself, so
    // the realpath is only needed for the containment check.
    const real = allowed.length === 0 ? absolute : attempt(() => realpathSync.native(absolute), shown);
    if (allowed.length > 0 && !allowed.some((root) => isPathInside(root, real, style))) {
      const target = real === absolute ? shown : `${shown} (resolves to ${real})`;
      throw visionError('VISION_PATH_NOT_ALLOWED', `${target} is outside the allowed folders.`, { allowedRoots: options.allowedRoots.length, path: absolute });
    }
    const checkFile = (info: { isFile(): boolean; size: number }) => {
      if (!info.isFile()) throw visionError('VISION_NOT_A_REGULAR_FILE', `${shown} is not a regular file.`);
      if (info.size > maxBytes) throw visionError('VISION_IMAGE_TOO_LARGE', `${shown} is ${info.size} bytes, over the ${maxBytes}-byte limit.`, { limitBytes: maxBytes });
    };
    checkFile(attempt(() => statSync(real), shown));
    const fd = attempt(() => openSync(real, constants.O_RDONLY | constants.O_NONBLOCK), shown);
    try {
      const opened = attempt(() => fstatSync(fd), shown);
      checkFile(opened);
      // What the descriptor's size says is what is read (a file that grows afterwards is read as
      // it was), so nothing past the cap is ever read and no extra read is needed to find the end.
      const buffer = Buffer.alloc(opened.size);
      const filled = opened.size <= SYNC_READ_MAX_BYTES ? attempt(() => readSyncFully(fd, buffer), shown) : await readAsync(fd, buffer).catch((error: unknown) => {
        throw fsError(error, shown);
      });
      return new Uint8Array(buffer.buffer, buffer.byteOffset, filled);
    } finally {
      closeSync(fd);
    }
  };
}
