import { AppError } from '../../../shared/errors';
import { immediate } from './immediate';
import type { Migration, SqliteDatabase } from './types';

/** Result of bringing a database up to date. */
export interface MigrationOutcome {
  /** Ids applied by this call, in order (empty when the database was current). */
  applied: string[];
  /** user_version after the call (= number of migrations applied in total). */
  version: number;
}

/**
 * Applies the pending suffix of `migrations`, each in its own IMMEDIATE transaction that also
 * records its id in `_migrations` and bumps `user_version`, so a crash leaves a consistent prefix.
 * Errors: STORE_MIGRATION_MISMATCH (duplicate ids, or the applied ids are not a prefix of the
 * list: reordered/renamed/removed), STORE_DB_TOO_NEW (the database was migrated by newer code),
 * STORE_MIGRATION_FAILED (a migration threw; its transaction was rolled back), STORE_BUSY.
 */
export function runMigrations(db: SqliteDatabase, migrations: readonly Migration[], now: () => Date = () => new Date()): MigrationOutcome {
  assertUniqueIds(migrations);
  immediate(db, () => db.exec('CREATE TABLE IF NOT EXISTS _migrations (id TEXT PRIMARY KEY NOT NULL, applied_at TEXT NOT NULL)'));
  const version = readUserVersion(db);
  if (version > migrations.length) {
    throw new AppError('STORE_DB_TOO_NEW', `The database is at schema version ${version} but this CadSight knows only ${migrations.length}; update CadSight.`, {
      data: { version, known: migrations.length },
    });
  }
  assertAppliedPrefix(db, migrations, version);
  const applied: string[] = [];
  const record = db.prepare('INSERT INTO _migrations (id, applied_at) VALUES (?, ?)');
  for (let index = version; index < migrations.length; index += 1) {
    const migration = migrations[index] as Migration;
    try {
      immediate(db, () => {
        migration.up(db);
        record.run(migration.id, now().toISOString());
        db.pragma(`user_version = ${index + 1}`);
      });
    } catch (error) {
      if (error instanceof AppError) throw error;
      throw new AppError('STORE_MIGRATION_FAILED', `Database migration "${migration.id}" failed; nothing of it was applied.`, {
        data: { id: migration.id, sqliteCode: (error as { code?: unknown }).code ?? null },
        cause: error,
      });
    }
    applied.push(migration.id);
  }
  return { applied, version: migrations.length };
}

function readUserVersion(db: SqliteDatabase): number {
  return db.pragma('user_version', { simple: true }) as number;
}

function assertUniqueIds(migrations: readonly Migration[]): void {
  const seen = new Set<string>();
  for (const { id } of migrations) {
    if (seen.has(id)) throw new AppError('STORE_MIGRATION_MISMATCH', `Migration id "${id}" appears twice in the list.`, { data: { duplicate: id } });
    seen.add(id);
  }
}

function assertAppliedPrefix(db: SqliteDatabase, migrations: readonly Migration[], version: number): void {
  const recorded = db.prepare('SELECT id FROM _migrations ORDER BY rowid').pluck().all() as string[];
  if (recorded.length !== version) {
    throw new AppError('STORE_MIGRATION_MISMATCH', `The database records ${recorded.length} applied migrations but its version is ${version}.`, {
      data: { recorded: recorded.length, version },
    });
  }
  recorded.forEach((id, position) => {
    const expected = migrations[position]?.id;
    if (id !== expected) {
      throw new AppError('STORE_MIGRATION_MISMATCH', `Applied migration #${position + 1} is "${id}" but the code lists "${expected}" there; migrations are append-only.`, {
        data: { position, applied: id, expected },
      });
    }
  });
}
