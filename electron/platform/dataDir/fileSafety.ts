import { closeSync, fsyncSync, openSync, renameSync, rmSync, writeSync, existsSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { asStorageFull } from './storageFull';

/** The file-system calls of an atomic write; injected by tests that simulate a full disk. */
export interface AtomicWriteFs {
  openSync(file: string, flags: 'w', mode: number): number;
  writeSync(fd: number, bytes: Uint8Array, offset: number, length: number): number;
  fsyncSync(fd: number): void;
  closeSync(fd: number): void;
  renameSync(from: string, to: string): void;
  rmSync(file: string, options: { force: true }): void;
}

const nodeFs: AtomicWriteFs = { openSync, writeSync: (fd, bytes, offset, length) => writeSync(fd, bytes, offset, length), fsyncSync, closeSync, renameSync, rmSync };

/**
 * Writes `bytes` to `file` so that a crash leaves either the old or the new content, never a
 * torn file: the data goes to a temp file in the same folder, is fsynced, then renamed over.
 * Default mode 0600 because data-folder files (settings, encrypted secrets) belong to the user alone.
 * Any failure removes the temp file and leaves `file` as it was. Errors: STORAGE_FULL (retryable)
 * when the disk is full, over quota or read-only; other file-system errors as thrown.
 */
export function writeFileAtomicSync(file: string, bytes: string | Uint8Array, mode = 0o600, fs: AtomicWriteFs = nodeFs): void {
  const data = typeof bytes === 'string' ? Buffer.from(bytes, 'utf8') : bytes;
  const failed = (error: unknown): unknown => asStorageFull(error, { folder: dirname(file), neededBytes: data.byteLength }) ?? error;
  const temp = join(dirname(file), `.${basename(file)}.tmp-${process.pid}-${randomBytes(6).toString('hex')}`);
  let fd: number | null = null;
  try {
    fd = fs.openSync(temp, 'w', mode);
    // writeSync may write less than asked (a nearly full disk does): loop until all is written.
    for (let written = 0; written < data.byteLength; ) written += fs.writeSync(fd, data, written, data.byteLength - written);
    fs.fsyncSync(fd);
    const open = fd;
    fd = null;
    fs.closeSync(open);
    fs.renameSync(temp, file);
  } catch (error) {
    if (fd !== null) {
      try {
        fs.closeSync(fd);
      } catch {
        // The write already failed; that error is the one to report.
      }
    }
    fs.rmSync(temp, { force: true });
    throw failed(error);
  }
  syncDirectory(dirname(file));
}

/** Makes a rename durable on POSIX; Windows cannot open directories and needs no such step. */
export function syncDirectory(dir: string): void {
  if (process.platform === 'win32') return;
  const fd = openSync(dir, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** Where a damaged file was moved, for the start-up notice. */
export interface MovedAside {
  movedTo: string;
  /** Companion files moved with it (e.g. SQLite -wal/-shm). */
  companions: string[];
}

/**
 * Moves a damaged file (and its existing companions such as `-wal`/`-shm`) to
 * `<name>.corrupt-<timestamp>` next to it. Never deletes: the user or support can inspect the
 * original bytes later. The timestamp is filesystem-safe (no colons, for Windows).
 */
export function moveAside(file: string, now: Date, companionSuffixes: readonly string[] = []): MovedAside {
  const stamp = now.toISOString().replace(/[:.]/g, '-');
  let movedTo = `${file}.corrupt-${stamp}`;
  for (let n = 2; existsSync(movedTo); n += 1) movedTo = `${file}.corrupt-${stamp}-${n}`;
  renameSync(file, movedTo);
  const companions: string[] = [];
  for (const suffix of companionSuffixes) {
    if (!existsSync(file + suffix)) continue;
    renameSync(file + suffix, movedTo + suffix);
    companions.push(movedTo + suffix);
  }
  syncDirectory(dirname(file));
  return { movedTo, companions };
}

/**
 * A problem found while opening a store that the app reports once (app info startupNotices),
 * e.g. STORE_CORRUPT_MOVED_ASIDE or SETTINGS_CORRUPT_MOVED_ASIDE with data.movedTo.
 */
export interface StartupNotice {
  code: string;
  message: string;
  data?: Record<string, unknown>;
}
