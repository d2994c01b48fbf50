import { closeSync, existsSync, openSync, readSync, rmSync, statSync } from 'node:fs';
import Database from 'better-sqlite3';
import { AppError } from '../../../shared/errors';
import { moveAside, type StartupNotice } from '../dataDir/fileSafety';
import type { Logger } from '../log/types';
import { RECOVERY_MARKER_SUFFIX } from './damagedRows';
import { toBusyError } from './immediate';
import { runMigrations, type MigrationOutcome } from './migrations';
import { applyRequiredPragmas, BUSY_TIMEOUT_MS } from './pragmas';
import { recoverRows } from './recoverRows';
import type { Migration, SqliteDatabase } from './types';
import { preallocateWal, type WalPreallocation } from './walPreallocation';

const SQLITE_MAGIC = Buffer.from('SQLite format 3\0', 'latin1');
const COMPANION_SUFFIXES = ['-wal', '-shm', '-journal'] as const;

export interface OpenDatabaseOptions {
  /** Path of the database file (created when missing). */
  file: string;
  /** The complete, append-only migration list. */
  migrations: readonly Migration[];
  log?: Logger;
  /** Clock for migration timestamps and corrupt-file names (injected for tests). */
  now?: () => Date;
  /**
   * Zero-fill the WAL to its checkpoint size after opening (see preallocateWal): long-running
   * processes that commit often (the app, the MCP servers) set it; a short-lived tool need not.
   */
  preallocateWal?: boolean;
}

export interface OpenedDatabase {
  db: SqliteDatabase;
  /** STORE_CORRUPT_MOVED_ASIDE when a damaged file was moved away and a fresh one created. */
  notices: StartupNotice[];
  migrations: MigrationOutcome;
  /** What the WAL preallocation did (only when `preallocateWal` was asked for). */
  wal?: WalPreallocation;
}

/**
 * Opens (or creates) the CadSight database: sets and asserts busy_timeout, WAL, synchronous=FULL
 * and foreign_keys on every open, checks integrity (`PRAGMA quick_check`), and applies pending
 * migrations. A damaged file (not SQLite, SQLITE_NOTADB/SQLITE_CORRUPT, failed quick_check) is
 * moved aside with its -wal/-shm to `<file>.corrupt-<timestamp>` — never deleted or overwritten —
 * and a fresh database is created; every row still readable from the original is copied into it
 * (recoverRows), and the returned notice says where the original went and what was saved. The
 * same happens when `<file>.recover` exists (a damaged row the running app could not remove).
 * Errors: STORE_PRAGMA_MISMATCH, STORE_MIGRATION_MISMATCH, STORE_DB_TOO_NEW,
 * STORE_MIGRATION_FAILED, STORE_BUSY, STORE_OPEN_FAILED (e.g. missing folder, permissions),
 * STORE_CORRUPT (a damaged file could not be moved aside, or the fresh database is damaged too).
 */
export function openDatabase(options: OpenDatabaseOptions): OpenedDatabase {
  const now = options.now ?? (() => new Date());
  const notices: StartupNotice[] = [];
  let setAsideTo: string | null = null;
  const setAside = (reason: string): void => {
    let moved: ReturnType<typeof moveAside>;
    try {
      moved = moveAside(options.file, now(), COMPANION_SUFFIXES);
    } catch (error) {
      throw new AppError('STORE_CORRUPT', `The database is damaged (${reason}) and could not be moved aside; move ${options.file} away by hand.`, {
        data: { file: options.file, errno: (error as NodeJS.ErrnoException).code ?? 'unknown' },
        cause: error,
      });
    }
    options.log?.warn('corrupt database moved aside', { file: options.file, movedTo: moved.movedTo, reason });
    setAsideTo = moved.movedTo;
    notices.push({
      code: 'STORE_CORRUPT_MOVED_ASIDE',
      message: `The database was damaged (${reason}); it was moved to ${moved.movedTo} and a new empty database was created.`,
      data: { movedTo: moved.movedTo, reason },
    });
  };

  if (hasForeignHeader(options.file)) setAside('not an SQLite file');
  // A damaged row that could not be removed while the app ran (damagedRows.ts) asked for this.
  const marker = `${options.file}${RECOVERY_MARKER_SUFFIX}`;
  const recoveryAsked = existsSync(marker);
  if (recoveryAsked && setAsideTo === null && existsSync(options.file)) setAside('a damaged row could not be removed');
  let db: SqliteDatabase;
  try {
    db = openChecked(options.file);
  } catch (error) {
    const reason = corruptionReason(error);
    if (reason === undefined) throw toOpenError(error);
    setAside(reason);
    try {
      db = openChecked(options.file);
    } catch (second) {
      if (corruptionReason(second) === undefined) throw toOpenError(second);
      throw new AppError('STORE_CORRUPT', 'A freshly created database failed its integrity check.', { cause: second, data: { file: options.file } });
    }
  }

  try {
    const outcome = runMigrations(db, options.migrations, now);
    if (outcome.applied.length > 0) options.log?.info('database migrated', { applied: outcome.applied, version: outcome.version });
    if (setAsideTo !== null) salvage(setAsideTo, db, notices, options.log);
    if (recoveryAsked) rmSync(marker, { force: true });
    return { db, notices, migrations: outcome, ...(options.preallocateWal ? { wal: preallocateWal(db, options.log) } : {}) };
  } catch (error) {
    db.close();
    throw error;
  }
}

/**
 * Copies what can still be read from the moved-aside file into the fresh database, so one damaged
 * page does not make the app start empty, and says in the notice what was saved.
 */
function salvage(movedTo: string, db: SqliteDatabase, notices: StartupNotice[], log: Logger | undefined): void {
  const report = recoverRows(movedTo, db);
  const saved = Object.values(report.rows).reduce((sum, n) => sum + n, 0);
  log?.warn('rows recovered from the damaged database', { movedTo, rows: report.rows, failedTables: report.failedTables, ...(report.skipped ? { skipped: report.skipped } : {}) });
  const notice = notices.find((n) => n.code === 'STORE_CORRUPT_MOVED_ASIDE' && n.data?.movedTo === movedTo);
  if (!notice) return;
  notice.data = { ...notice.data, recovered: report };
  notice.message =
    saved > 0
      ? `The database was damaged; it was moved to ${movedTo} and ${saved} rows from ${Object.keys(report.rows).length} tables were saved into a new database${report.failedTables.length > 0 ? ` (unreadable: ${report.failedTables.join(', ')})` : ''}.`
      : `${notice.message} Nothing could be recovered from it${report.skipped ? ` (${report.skipped})` : ''}.`;
}

/** Opens, applies the pragmas and runs quick_check; closes the handle again on any failure. */
function openChecked(file: string): SqliteDatabase {
  const db = new Database(file, { timeout: BUSY_TIMEOUT_MS });
  try {
    applyRequiredPragmas(db);
    const problems = db.pragma('quick_check', { simple: false }) as Array<{ quick_check: string }>;
    if (problems.length !== 1 || problems[0]?.quick_check !== 'ok') throw new QuickCheckFailure(problems.length);
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}

class QuickCheckFailure extends Error {
  constructor(readonly problemCount: number) {
    super(`quick_check reported ${problemCount} problem(s)`);
  }
}

/** A non-empty file whose first 16 bytes are not the SQLite magic string. */
function hasForeignHeader(file: string): boolean {
  let info: ReturnType<typeof statSync>;
  try {
    info = statSync(file);
  } catch {
    return false; // missing: SQLite creates it
  }
  // Not a regular file (e.g. a folder): SQLite's own open refuses it with a clear code.
  // Empty: SQLite treats an empty file as a new database.
  if (!info.isFile() || info.size === 0) return false;
  const header = Buffer.alloc(SQLITE_MAGIC.length);
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch {
    return false; // unreadable (e.g. permissions): SQLite's own open reports it as STORE_OPEN_FAILED
  }
  try {
    readSync(fd, header, 0, header.length, 0);
  } finally {
    closeSync(fd);
  }
  return !header.equals(SQLITE_MAGIC);
}

function corruptionReason(error: unknown): string | undefined {
  if (error instanceof QuickCheckFailure) return error.message;
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'SQLITE_NOTADB') return 'not a database';
  if (typeof code === 'string' && code.startsWith('SQLITE_CORRUPT')) return 'malformed database image';
  return undefined;
}

function toOpenError(error: unknown): unknown {
  if (error instanceof AppError) return error;
  const busy = toBusyError(error);
  if (busy) return busy;
  const code = (error as { code?: unknown } | null)?.code;
  return new AppError('STORE_OPEN_FAILED', 'The database could not be opened.', { cause: error, data: { sqliteCode: typeof code === 'string' ? code : null } });
}
