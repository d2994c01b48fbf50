import { AppError } from '../../../shared/errors';
import type { SqliteDatabase } from './types';

/**
 * Runs `fn` in a short synchronous BEGIN IMMEDIATE transaction (the write lock is taken up
 * front, so two writers never deadlock on a read->write upgrade). `fn` must be synchronous:
 * better-sqlite3 rejects a function returning a promise. Errors: STORE_BUSY (retryable) when
 * another connection held the lock longer than busy_timeout; anything `fn` throws is rethrown
 * after rollback.
 */
export function immediate<T>(db: SqliteDatabase, fn: () => T): T {
  try {
    return db.transaction(fn).immediate();
  } catch (error) {
    throw toBusyError(error) ?? error;
  }
}

/** Maps SQLITE_BUSY* to a retryable STORE_BUSY; undefined for every other error. */
export function toBusyError(error: unknown): AppError | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string' || !code.startsWith('SQLITE_BUSY')) return undefined;
  return new AppError('STORE_BUSY', 'The database is busy in another process; try again.', { retryable: true, data: { sqliteCode: code }, cause: error });
}
