import type BetterSqlite3 from 'better-sqlite3';

/** The SQLite handle every slice receives (injected, never a module-level singleton). */
export type SqliteDatabase = BetterSqlite3.Database;

/**
 * One forward-only migration. The global list (electron/host/composition/migrations.ts) is
 * append-only: `user_version` equals the number of applied migrations, and the ids of applied
 * migrations are recorded so a reordered or edited list is refused (STORE_MIGRATION_MISMATCH).
 */
export interface Migration {
  /** Unique, stable id, e.g. "vision-001-sessions". */
  id: string;
  /** Runs inside the migration's IMMEDIATE transaction. */
  up(db: SqliteDatabase): void;
}
