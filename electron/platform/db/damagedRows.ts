import { existsSync, rmSync, writeFileSync } from 'node:fs';
import Database from 'better-sqlite3';
import type { StartupNotice } from '../dataDir/fileSafety';
import type { Logger } from '../log/types';
import type { SqliteDatabase } from './types';

/**
 * Next to the database: "recover me at the next open". Written when a damaged row could not be
 * removed from its table (its pages are too broken to delete); openDatabase then takes the same
 * path as for a damaged database — moved aside, every readable row copied into a fresh one.
 */
export const RECOVERY_MARKER_SUFFIX = '.recover';

/** A row a list query could not read: which table, which rowid, and why. */
export interface DamagedRow {
  table: string;
  rowid: number;
  reason: string;
}

/**
 * Handles rows a list query finds unreadable (SQLITE_CORRUPT on their pages, or content that no
 * longer parses). Reports each once (log + notice STORE_ROW_MOVED_ASIDE), copies what can still
 * be read of it into `<db>.corrupt-<time>-<table>-<rowid>` (a small SQLite file, never deleted)
 * and removes it from the live table; when even that fails, leaves the recovery marker so the
 * next start moves the whole database aside and salvages it (openDatabase).
 */
export interface DamagedRowHandler {
  moveAside(row: DamagedRow): void;
}

export function createDamagedRowHandler(options: { db: SqliteDatabase; file: string; now: () => Date; log: Logger; notices: StartupNotice[] }): DamagedRowHandler {
  const seen = new Set<string>();
  return {
    moveAside(row) {
      const key = `${row.table}:${row.rowid}`;
      if (seen.has(key)) return;
      seen.add(key);
      const stamp = options.now().toISOString().replace(/[:.]/g, '-');
      const movedTo = `${options.file}.corrupt-${stamp}-${row.table}-${row.rowid}`;
      const copied = copyReadableColumns(options.db, row, movedTo);
      let removed = false;
      try {
        options.db.prepare(`DELETE FROM ${quote(row.table)} WHERE rowid = ?`).run(row.rowid);
        removed = true;
      } catch (error) {
        options.log.warn('damaged row could not be removed; the database is recovered at the next start', { table: row.table, rowid: row.rowid, error: String(error) });
        try {
          writeFileSync(`${options.file}${RECOVERY_MARKER_SUFFIX}`, `${row.table} rowid ${row.rowid}: ${row.reason}\n`, { flag: 'a' });
        } catch {
          // Without the marker the row stays skipped (and reported) on every list: nothing is lost.
        }
      }
      options.log.warn('damaged row moved aside', { ...row, movedTo, copiedColumns: copied, removed });
      options.notices.push({
        code: 'STORE_ROW_MOVED_ASIDE',
        message: `A damaged entry of ${row.table} could not be read (${row.reason}); it was left out of the list and ${copied.length > 0 ? `what was readable was saved to ${movedTo}` : 'nothing of it was readable'}${removed ? '' : ', and the database will be recovered at the next start'}.`,
        data: { table: row.table, rowid: row.rowid, movedTo, removed },
      });
    },
  };
}

const quote = (name: string): string => `"${name.replace(/"/g, '""')}"`;

/** Copies every column of the row that can still be read, one at a time, into a new SQLite file; returns their names. */
function copyReadableColumns(db: SqliteDatabase, row: DamagedRow, target: string): string[] {
  let columns: string[];
  try {
    columns = (db.pragma(`table_info(${quote(row.table)})`) as Array<{ name: string }>).map((c) => c.name);
  } catch {
    return [];
  }
  const values: Array<{ column: string; value: unknown }> = [];
  for (const column of columns) {
    try {
      values.push({ column, value: db.prepare(`SELECT ${quote(column)} FROM ${quote(row.table)} WHERE rowid = ?`).pluck().get(row.rowid) });
    } catch {
      // This column sits on the damaged page: left out.
    }
  }
  if (existsSync(target)) return [];
  const out = new Database(target);
  try {
    out.exec('CREATE TABLE damaged_row (table_name TEXT NOT NULL, row_id INTEGER NOT NULL, column_name TEXT NOT NULL, value, reason TEXT NOT NULL)');
    const insert = out.prepare('INSERT INTO damaged_row VALUES (?, ?, ?, ?, ?)');
    for (const { column, value } of values) insert.run(row.table, row.rowid, column, value as never, row.reason);
  } catch {
    out.close();
    rmSync(target, { force: true });
    return [];
  }
  out.close();
  return values.map((v) => v.column);
}

/**
 * A list query that survives damaged rows. `all` is the normal query (rows carry their `rowid`);
 * each row goes through `decode`, and a row that fails there is skipped and handed to `onDamaged`.
 * When the query itself hits a damaged page (SQLITE_CORRUPT), the table is read again row by row
 * (`byRowid` for each rowid), skipping and reporting the unreadable ones; the survivors are
 * ordered with `compare` and cut to `limit`.
 */
export function listSkippingDamaged<Row extends { rowid: number }, T>(spec: {
  db: SqliteDatabase;
  table: string;
  limit: number;
  all(): Row[];
  byRowid(rowid: number): Row | undefined;
  decode(row: Row): T;
  compare(a: T, b: T): number;
  onDamaged(row: DamagedRow): void;
}): T[] {
  const decodeOrReport = (row: Row): T[] => {
    try {
      return [spec.decode(row)];
    } catch (error) {
      spec.onDamaged({ table: spec.table, rowid: row.rowid, reason: reasonOf(error) });
      return [];
    }
  };
  let rows: Row[];
  try {
    rows = spec.all();
  } catch (error) {
    if (!isCorrupt(error)) throw error;
    const ids = spec.db.prepare(`SELECT rowid FROM ${quote(spec.table)}`).pluck().all() as number[];
    const survivors = ids.flatMap((rowid) => {
      let row: Row | undefined;
      try {
        row = spec.byRowid(rowid);
      } catch (rowError) {
        spec.onDamaged({ table: spec.table, rowid, reason: reasonOf(rowError) });
        return [];
      }
      return row ? decodeOrReport(row) : [];
    });
    return survivors.sort(spec.compare).slice(0, spec.limit);
  }
  return rows.flatMap(decodeOrReport);
}

function isCorrupt(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && (code.startsWith('SQLITE_CORRUPT') || code === 'SQLITE_NOTADB');
}

function reasonOf(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && code.startsWith('SQLITE_')) return code;
  return error instanceof SyntaxError ? 'its stored JSON is damaged' : 'its content no longer matches its schema';
}
