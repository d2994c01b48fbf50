import { closeSync, constants, fstatSync, openSync, readSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { AppError } from '../../../shared/errors';

/**
 * Reading a file whose path came from outside (an IPC caller, a tool argument). Whoever names
 * the path may be a web page talking to the browser host, so the path must resolve (symlinks
 * included) under an allowed folder, be a regular file (not /dev/zero, a FIFO or a socket) and
 * fit the size cap, all checked before a byte is read. Errors never quote the file's content.
 */
export interface ConfinedReadOptions {
  /** Folders the real path must be inside; null = no folder confinement (a CLI user's own argument). */
  allowedRoots: readonly string[] | null;
  maxBytes: number;
  /** The AppError code thrown for every refusal (the caller's domain, e.g. REVIEW_CHECKLIST_INVALID). */
  errorCode: string;
  /** What the file is, for messages ("checklist"). */
  what: string;
}

/** Why a read was refused, in `data.reason`. */
export type ConfinedReadRefusal = 'not-absolute' | 'not-found' | 'not-allowed' | 'not-a-file' | 'too-large' | 'unreadable';

function isInside(file: string, root: string): boolean {
  const relative = path.relative(root, file);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}

function realRoot(root: string): string | null {
  try {
    return realpathSync(root);
  } catch {
    return null;
  }
}

/**
 * Returns the file's bytes. Throws AppError(options.errorCode) with data {path, reason:
 * ConfinedReadRefusal, maxBytes?} — the path is the caller's own input, the content never appears.
 */
export function readConfinedFileSync(file: string, options: ConfinedReadOptions): Buffer {
  const refuse = (reason: ConfinedReadRefusal, message: string): AppError =>
    new AppError(options.errorCode, `The ${options.what} ${file} ${message}`, { data: { path: file, reason, ...(reason === 'too-large' ? { maxBytes: options.maxBytes } : {}) } });
  if (!path.isAbsolute(file)) throw refuse('not-absolute', 'must be given as an absolute path.');
  let real: string;
  try {
    real = realpathSync(file);
  } catch {
    throw refuse('not-found', 'does not exist or cannot be reached.');
  }
  if (options.allowedRoots !== null) {
    const roots = options.allowedRoots.map(realRoot).filter((root): root is string => root !== null);
    if (!roots.some((root) => isInside(real, root))) throw refuse('not-allowed', 'is outside the allowed folders (Settings → allowed folders).');
  }
  let fd: number;
  try {
    // O_NONBLOCK: opening a FIFO must not wait for a writer; regular files ignore the flag.
    fd = openSync(real, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch {
    throw refuse('unreadable', 'cannot be opened.');
  }
  try {
    const info = fstatSync(fd);
    if (!info.isFile()) throw refuse('not-a-file', 'is not a regular file.');
    if (info.size > options.maxBytes) throw refuse('too-large', `is larger than ${options.maxBytes} bytes.`);
    // Room for one byte more than fstat said: a file that grows meanwhile is noticed, not cut.
    const buffer = Buffer.alloc(Math.min(info.size, options.maxBytes) + 1);
    let filled = 0;
    for (;;) {
      const n = readSync(fd, buffer, filled, buffer.length - filled, null);
      if (n === 0) break;
      filled += n;
      if (filled === buffer.length) break;
    }
    if (filled > options.maxBytes) throw refuse('too-large', `is larger than ${options.maxBytes} bytes.`);
    if (filled === buffer.length) throw refuse('unreadable', 'changed while it was read.');
    return buffer.subarray(0, filled);
  } finally {
    closeSync(fd);
  }
}
