import { constants } from 'node:fs';
import { open, realpath, stat } from 'node:fs/promises';
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
 * Reads a local image safely: realpath, component-wise containment in the allowed roots,
 * regular files only. FIFOs and devices are refused without blocking: stat before open, and
 * the open is O_NONBLOCK with a second fstat on the handle (the path may change in between).
 * Errors: VISION_FILE_NOT_FOUND, VISION_PATH_NOT_ALLOWED, VISION_NOT_A_REGULAR_FILE,
 * VISION_IMAGE_TOO_LARGE.
 */
export function createLocalFileReader(options: LocalFileOptions) {
  let rootsResolved: Promise<string[]> | undefined;
  const roots = () =>
    (rootsResolved ??= Promise.all(options.allowedRoots.map((root) => realpath(path.resolve(options.cwd, root)).catch(() => path.resolve(options.cwd, root)))));

  return async function readLocalFile(absolute: string, maxBytes: number): Promise<Uint8Array> {
    // Messages name the resolved path that was tried (relative and ~ paths are resolved against
    // a working directory the caller may not know), as picsense does.
    const shown = absolute;
    const allowed = await roots();
    // Without allowed roots any target may be read and the kernel follows symlinks itself, so
    // the realpath round trip is only needed for the containment check.
    const real =
      allowed.length === 0
        ? absolute
        : await realpath(absolute).catch((error: unknown) => {
            throw fsError(error, shown);
          });
    if (allowed.length > 0 && !allowed.some((root) => isPathInside(root, real, style))) {
      const target = real === absolute ? shown : `${shown} (resolves to ${real})`;
      throw visionError('VISION_PATH_NOT_ALLOWED', `${target} is outside the allowed folders.`, { allowedRoots: options.allowedRoots.length, path: absolute });
    }
    const info = await stat(real).catch((error: unknown) => {
      throw fsError(error, shown);
    });
    if (!info.isFile()) throw visionError('VISION_NOT_A_REGULAR_FILE', `${shown} is not a regular file.`);
    if (info.size > maxBytes) throw visionError('VISION_IMAGE_TOO_LARGE', `${shown} is ${info.size} bytes, over the ${maxBytes}-byte limit.`, { limitBytes: maxBytes });
    const handle = await open(real, constants.O_RDONLY | constants.O_NONBLOCK).catch((error: unknown) => {
      throw fsError(error, shown);
    });
    try {
      const opened = await handle.stat();
      if (!opened.isFile()) throw visionError('VISION_NOT_A_REGULAR_FILE', `${shown} is not a regular file.`);
      // What the handle's size says is what is read (a file that grows afterwards is read as it
      // was), so nothing past the cap is ever read and no extra read is needed to find the end.
      if (opened.size > maxBytes) throw visionError('VISION_IMAGE_TOO_LARGE', `${shown} is ${opened.size} bytes, over the ${maxBytes}-byte limit.`, { limitBytes: maxBytes });
      const buffer = Buffer.alloc(opened.size);
      let filled = 0;
      while (filled < buffer.length) {
        const { bytesRead } = await handle.read(buffer, filled, buffer.length - filled, filled);
        if (bytesRead === 0) break;
        filled += bytesRead;
      }
      return new Uint8Array(buffer.buffer, buffer.byteOffset, filled);
    } finally {
      // Closing a read-only handle loses nothing, so the answer does not wait for it.
      void handle.close().catch(() => undefined);
    }
  };
}
