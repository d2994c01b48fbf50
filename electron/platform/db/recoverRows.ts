import Database from 'better-sqlite3';
import type { SqliteDatabase } from './types';

/** What a salvage saved, for the start-up notice. */
export interface RecoveryReport {
  /** Rows copied per table (tables with none left out). */
  rows: Record<string, number>;
  /** Tables that could not be read at all, or whose rows did not fit the current schema. */
  failedTables: string[];
  /** Why nothing was tried (the damaged file cannot be opened, or has another schema version). */
  skipped?: string;
}

// Rowid jumps tried past an unreadable range: 1, 2, 4, ... up to 2^40.
const MAX_JUMP_EXPONENT = 40;
// Rows read plus restarts spent on one table before the salvage gives up on the rest of it.
const MAX_SCAN_STEPS = 2_000_000;

/**
 * The JS counterpart of sqlite3's `.recover` for CadSight's own schema: opens the damaged file
 * read-only and copies every row it can still read into the fresh database `into`, table by
 * table, in rowid order, stepping over damaged pages (a query that hits one throws SQLITE_CORRUPT;
 * the scan restarts after the last good rowid with growing jumps). Only a file at the same schema
 * version is salvaged, so rows always match their tables. Never throws: what failed is reported.
 */
export function recoverRows(damagedFile: string, into: SqliteDatabase): RecoveryReport {
  const report: RecoveryReport = { rows: {}, failedTables: [] };
  let source: SqliteDatabase;
  try {
    source = new Database(damagedFile, { readonly: true, fileMustExist: true });
  } catch {
    return { ...report, skipped: 'the damaged file cannot be opened' };
  }
  try {
    let version: number;
    try {
      version = source.pragma('user_version', { simple: true }) as number;
    } catch {
      return { ...report, skipped: 'the damaged file has no readable header' };
    }
    if (version !== (into.pragma('user_version', { simple: true }) as number)) return { ...report, skipped: `the damaged file is at schema version ${version}` };
    const tables = into
      .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name <> '_migrations' ORDER BY rowid")
      .pluck()
      .all() as string[];
    into.pragma('foreign_keys = OFF');
    try {
      into.transaction(() => {
        for (const table of tables) {
          const copied = copyTable(source, into, table);
          if (copied === null) report.failedTables.push(table);
          else if (copied > 0) report.rows[table] = copied;
        }
      })();
    } finally {
      into.pragma('foreign_keys = ON');
    }
    return report;
  } finally {
    source.close();
  }
}

const quote = (name: string): string => `"${name.replace(/"/g, '""')}"`;

/** Rows copied, or null when the table could not be read or written at all. */
function copyTable(source: SqliteDatabase, into: SqliteDatabase, table: string): number | null {
  let columns: string[];
  try {
    columns = (into.pragma(`table_info(${quote(table)})`) as Array<{ name: string }>).map((c) => c.name);
  } catch {
    return null;
  }
  const list = columns.map(quote).join(', ');
  const insert = into.prepare(`INSERT OR IGNORE INTO ${quote(table)} (${list}) VALUES (${columns.map(() => '?').join(', ')})`);
  let read: ReturnType<SqliteDatabase['prepare']>;
  try {
    read = source.prepare(`SELECT rowid AS __rowid, ${list} FROM ${quote(table)} WHERE rowid > ? ORDER BY rowid`).raw(true);
  } catch {
    // WITHOUT ROWID tables and tables the damaged schema lacks: one plain pass.
    try {
      let count = 0;
      for (const row of source.prepare(`SELECT ${list} FROM ${quote(table)}`).raw(true).iterate() as Iterable<unknown[]>) count += insert.run(...row).changes;
      return count;
    } catch {
      return null;
    }
  }
  let count = 0;
  let after = Number.MIN_SAFE_INTEGER;
  let exponent = 0;
  let readAny = false;
  // A damaged b-tree can hand rows back out of order or in a cycle: the scan only moves forward,
  // and the rows and restarts it spends on one table are bounded, so start-up always ends.
  let steps = 0;
  while (exponent <= MAX_JUMP_EXPONENT && steps < MAX_SCAN_STEPS) {
    try {
      for (const row of read.iterate(after) as Iterable<unknown[]>) {
        if (++steps > MAX_SCAN_STEPS) break;
        const [rowid, ...values] = row;
        const id = Number(rowid);
        if (!(id > after)) continue;
        readAny = true;
        after = id;
        exponent = 0;
        count += insert.run(...values).changes;
      }
      return count;
    } catch {
      // A damaged page: skip ahead from the last good rowid, further each time it fails again.
      steps += 1;
      after = after === Number.MIN_SAFE_INTEGER ? 0 : after + 2 ** exponent;
      exponent += 1;
    }
  }
  return readAny ? count : null;
}
