import { closeSync, fsyncSync, openSync, renameSync, rmSync, writeSync, existsSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { randomBytes } from 'node:crypto';

/**
 * Writes `bytes` to `file` so that a crash leaves either the old or the new content, never a
 * torn file: the data goes to a temp file in the same folder, is fsynced, then renamed over.
 * Default mode 0600 because data-folder files (settings, encrypted secrets) belong to the user alone.
 */
export function writeFileAtomicSync(file: string, bytes: string | Uint8Array, mode = 0o600): void {
  const temp = join(dirname(file), `.${basename(file)}.tmp-${process.pid}-${randomBytes(6).toString('hex')}`);
  const fd = openSync(temp, 'w', mode);
  try {
    writeSync(fd, typeof bytes === 'string' ? Buffer.from(bytes, 'utf8') : bytes);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  try {
    renameSync(temp, file);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
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
