import path from 'node:path';
import { AppError } from '../../../shared/errors';

/**
 * Failures that mean "this disk cannot take the write now": no space (ENOSPC, SQLite's
 * SQLITE_FULL), the user's quota spent (EDQUOT) or the file system mounted read-only (EROFS).
 * All three are fixed outside CadSight, after which the same call succeeds: retryable.
 */
const STORAGE_FULL_CODES: ReadonlySet<string> = new Set(['ENOSPC', 'EDQUOT', 'EROFS', 'SQLITE_FULL']);

/** The smallest write a file system or SQLite makes: the amount reported when the real one is unknown. */
export const MIN_WRITE_BYTES = 4096;

/** Where a write was going and how much it needed, for the STORAGE_FULL message. */
export interface StorageWrite {
  /** The folder the write was going to (the folder a user has to make room on). */
  folder: string;
  /** Bytes the write needed, as far as known (at least MIN_WRITE_BYTES). */
  neededBytes: number;
}

/** The storage-full errno or SQLite code of `error` or of one of its causes, else null. */
export function storageFullCode(error: unknown): string | null {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && typeof current === 'object' && current !== null; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && STORAGE_FULL_CODES.has(code)) return code;
    current = (current as { cause?: unknown }).cause;
  }
  return null;
}

const megabytes = (bytes: number): string => (bytes >= 1024 * 1024 ? `${(bytes / 1048576).toFixed(1)} MB` : `${Math.ceil(bytes / 1024)} KB`);

/**
 * STORAGE_FULL (retryable) for a write that failed because the disk is full, over quota or
 * read-only; null for any other failure. data: {folder, neededBytes, errno}. The message says
 * which folder and how much it needed; what was saved before is untouched (every write of the
 * data folder goes to a temp file or a transaction first).
 */
export function asStorageFull(error: unknown, write: StorageWrite): AppError | null {
  if (error instanceof AppError && error.code === 'STORAGE_FULL') return error;
  const errno = storageFullCode(error);
  if (errno === null) return null;
  const neededBytes = Math.max(MIN_WRITE_BYTES, Math.ceil(write.neededBytes));
  const why = errno === 'EROFS' ? 'is on a read-only disk' : errno === 'EDQUOT' ? 'is over its disk quota' : 'has no free space left';
  return new AppError(
    'STORAGE_FULL',
    `${write.folder} ${why}: at least ${megabytes(neededBytes)} more is needed. Nothing already saved was lost; free some space and try again.`,
    { retryable: true, data: { folder: write.folder, neededBytes, errno }, cause: error },
  );
}

/** The folder a failed file-system call was writing to, from the error's own `path` when it has one. */
export function folderOfFailure(error: unknown, fallback: string): string {
  const target = (error as { path?: unknown } | null)?.path;
  if (typeof target !== 'string' || target === '') return fallback;
  // mkdir and open name the file or folder they were creating: its parent is where space ran out.
  return path.dirname(target);
}
