import { AppError } from '../../../shared/errors';
import type { SqliteDatabase } from './types';

/** How long a writer waits for another connection's lock before SQLITE_BUSY (ms). */
export const BUSY_TIMEOUT_MS = 5000;

interface RequiredPragma {
  name: string;
  set: string;
  /** The value PRAGMA <name> must read back (lower-cased strings, numbers as numbers). */
  expected: string | number;
}

// synchronous is set after journal_mode: better-sqlite3's bundled SQLite is built with
// SQLITE_DEFAULT_WAL_SYNCHRONOUS=1, so reopening a WAL file silently drops to NORMAL (1).
const REQUIRED: readonly RequiredPragma[] = [
  { name: 'busy_timeout', set: `busy_timeout = ${BUSY_TIMEOUT_MS}`, expected: BUSY_TIMEOUT_MS },
  { name: 'journal_mode', set: 'journal_mode = WAL', expected: 'wal' },
  { name: 'synchronous', set: 'synchronous = FULL', expected: 2 },
  { name: 'foreign_keys', set: 'foreign_keys = ON', expected: 1 },
];

/** Sets the connection pragmas every CadSight database needs, then asserts them. */
export function applyRequiredPragmas(db: SqliteDatabase): void {
  for (const pragma of REQUIRED) db.pragma(pragma.set);
  assertRequiredPragmas(db);
}

/**
 * Reads every required pragma back. Errors: STORE_PRAGMA_MISMATCH (data: pragma, expected,
 * actual) — e.g. an in-memory or read-only database that cannot use WAL.
 */
export function assertRequiredPragmas(db: SqliteDatabase): void {
  for (const pragma of REQUIRED) {
    const raw: unknown = db.pragma(pragma.name, { simple: true });
    const actual = typeof raw === 'string' ? raw.toLowerCase() : raw;
    if (actual !== pragma.expected) {
      throw new AppError('STORE_PRAGMA_MISMATCH', `Database pragma ${pragma.name} is ${String(actual)}, expected ${String(pragma.expected)}.`, {
        data: { pragma: pragma.name, expected: pragma.expected, actual: String(actual) },
      });
    }
  }
}
