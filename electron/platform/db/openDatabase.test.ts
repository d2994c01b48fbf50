import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { immediate } from './immediate';
import { openDatabase } from './openDatabase';
import { assertRequiredPragmas } from './pragmas';
import type { Migration } from './types';

const notes: Migration[] = [
  { id: 'test-001-notes', up: (db) => db.exec('CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT NOT NULL)') },
  { id: 'test-002-tags', up: (db) => db.exec('CREATE TABLE tags (note_id INTEGER NOT NULL REFERENCES notes(id), tag TEXT NOT NULL)') },
];

function readPragmas(db: Database.Database) {
  return {
    busyTimeout: db.pragma('busy_timeout', { simple: true }),
    journalMode: db.pragma('journal_mode', { simple: true }),
    synchronous: db.pragma('synchronous', { simple: true }),
    foreignKeys: db.pragma('foreign_keys', { simple: true }),
  };
}

const required = { busyTimeout: 5000, journalMode: 'wal', synchronous: 2, foreignKeys: 1 };

describe('openDatabase', () => {
  let dir = '';
  let file = '';
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'cadsight-db-'));
    file = path.join(dir, 'cadsight.db');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('sets the required pragmas on a new file and again after reopening the WAL file', () => {
    const first = openDatabase({ file, migrations: notes });
    expect(readPragmas(first.db)).toEqual(required);
    first.db.prepare('INSERT INTO notes (body) VALUES (?)').run('x');
    first.db.close();

    // A plain reopen of the same WAL file shows the bundle's default that openDatabase corrects.
    const plain = new Database(file);
    const plainSynchronous = plain.pragma('synchronous', { simple: true });
    plain.close();
    const second = openDatabase({ file, migrations: notes });
    expect(readPragmas(second.db)).toEqual(required);
    expect(plainSynchronous).not.toBe(2);
    second.db.close();
  });

  it('enforces foreign keys on the opened connection', () => {
    const { db } = openDatabase({ file, migrations: notes });
    expect(() => db.prepare('INSERT INTO tags (note_id, tag) VALUES (42, ?)').run('t')).toThrow(/FOREIGN KEY/);
    db.close();
  });

  it('refuses a connection whose pragmas cannot be honoured with STORE_PRAGMA_MISMATCH', () => {
    expect(() => openDatabase({ file: ':memory:', migrations: [] })).toThrow(
      expect.objectContaining({ code: 'STORE_PRAGMA_MISMATCH', data: expect.objectContaining({ pragma: 'journal_mode', actual: 'memory' }) }),
    );
    const { db } = openDatabase({ file, migrations: [] });
    db.pragma('synchronous = NORMAL');
    expect(() => assertRequiredPragmas(db)).toThrow(expect.objectContaining({ code: 'STORE_PRAGMA_MISMATCH' }));
    db.close();
  });

  it('applies migrations once and is idempotent on reopen', () => {
    const first = openDatabase({ file, migrations: notes, now: () => new Date('2026-01-01T00:00:00Z') });
    expect(first.migrations).toEqual({ applied: ['test-001-notes', 'test-002-tags'], version: 2 });
    first.db.close();
    const second = openDatabase({ file, migrations: notes });
    expect(second.migrations).toEqual({ applied: [], version: 2 });
    expect(second.db.prepare('SELECT id, applied_at FROM _migrations ORDER BY rowid').all()).toEqual([
      { id: 'test-001-notes', applied_at: '2026-01-01T00:00:00.000Z' },
      { id: 'test-002-tags', applied_at: '2026-01-01T00:00:00.000Z' },
    ]);
    expect(second.db.pragma('user_version', { simple: true })).toBe(2);
    second.db.close();
  });

  it('refuses a reordered or renamed migration list with STORE_MIGRATION_MISMATCH', () => {
    openDatabase({ file, migrations: notes }).db.close();
    expect(() => openDatabase({ file, migrations: [notes[1]!, notes[0]!] })).toThrow(expect.objectContaining({ code: 'STORE_MIGRATION_MISMATCH' }));
    const renamed = [{ ...notes[0]!, id: 'test-001-renamed' }, notes[1]!];
    expect(() => openDatabase({ file, migrations: renamed })).toThrow(expect.objectContaining({ code: 'STORE_MIGRATION_MISMATCH' }));
    expect(() => openDatabase({ file: path.join(dir, 'dup.db'), migrations: [notes[0]!, notes[0]!] })).toThrow(
      expect.objectContaining({ code: 'STORE_MIGRATION_MISMATCH' }),
    );
  });

  it('refuses a database migrated by newer code with STORE_DB_TOO_NEW', () => {
    openDatabase({ file, migrations: notes }).db.close();
    expect(() => openDatabase({ file, migrations: notes.slice(0, 1) })).toThrow(expect.objectContaining({ code: 'STORE_DB_TOO_NEW' }));
  });

  it('rolls a failing migration back completely and reports STORE_MIGRATION_FAILED', () => {
    const failing: Migration = {
      id: 'test-003-broken',
      up: (db) => {
        db.exec('CREATE TABLE half (x)');
        db.exec('THIS IS NOT SQL');
      },
    };
    expect(() => openDatabase({ file, migrations: [...notes, failing] })).toThrow(
      expect.objectContaining({ code: 'STORE_MIGRATION_FAILED', data: expect.objectContaining({ id: 'test-003-broken' }) }),
    );
    const { db, migrations } = openDatabase({ file, migrations: notes });
    expect(migrations.version).toBe(2);
    expect(db.prepare("SELECT count(*) FROM sqlite_master WHERE name = 'half'").pluck().get()).toBe(0);
    db.close();
  });

  it('reports a database that cannot be created as STORE_OPEN_FAILED', () => {
    expect(() => openDatabase({ file: path.join(dir, 'missing-folder', 'x.db'), migrations: notes })).toThrow(expect.objectContaining({ code: 'STORE_OPEN_FAILED' }));
    expect(() => openDatabase({ file: dir, migrations: notes })).toThrow(expect.objectContaining({ code: 'STORE_OPEN_FAILED', data: { sqliteCode: 'SQLITE_CANTOPEN' } }));
  });

  it('creates a missing database without any notice', () => {
    const { db, notices } = openDatabase({ file, migrations: notes });
    expect(notices).toEqual([]);
    db.close();
  });
});

describe('openDatabase with a damaged file', () => {
  let dir = '';
  let file = '';
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'cadsight-dbcorrupt-'));
    file = path.join(dir, 'cadsight.db');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  /** A real database with enough pages that damage lands in table data. */
  function populatedDatabase(): void {
    const { db } = openDatabase({ file, migrations: notes });
    const insert = db.prepare('INSERT INTO notes (body) VALUES (?)');
    immediate(db, () => {
      for (let i = 0; i < 400; i += 1) insert.run(randomBytes(200).toString('hex'));
    });
    db.pragma('wal_checkpoint(TRUNCATE)');
    db.close();
  }

  function expectMovedAside(original: Buffer, damage: string, rowsLeft = 0): void {
    const now = new Date('2026-03-04T05:06:07.089Z');
    const { db, notices } = openDatabase({ file, migrations: notes, now: () => now });
    expect(notices).toHaveLength(1);
    const notice = notices[0]!;
    expect(notice.code).toBe('STORE_CORRUPT_MOVED_ASIDE');
    const movedTo = notice.data?.movedTo as string;
    expect(movedTo).toBe(`${file}.corrupt-2026-03-04T05-06-07-089Z`);
    expect(notice.message).toContain(movedTo);
    expect(readFileSync(movedTo).equals(original), `${damage}: original bytes preserved`).toBe(true);
    expect(db.prepare('SELECT count(*) FROM notes').pluck().get()).toBe(rowsLeft);
    expect(db.pragma('synchronous', { simple: true })).toBe(2);
    db.close();
  }

  it('moves a file of random bytes aside and reports it', () => {
    writeFileSync(file, randomBytes(16384));
    expectMovedAside(readFileSync(file), 'random bytes');
  });

  it('moves a database with a zeroed header aside and reports it', () => {
    populatedDatabase();
    const bytes = readFileSync(file);
    bytes.fill(0, 0, 100);
    writeFileSync(file, bytes);
    expectMovedAside(bytes, 'zeroed header');
  });

  it('moves a truncated database aside and reports it', () => {
    populatedDatabase();
    truncateSync(file, Math.floor(statSync(file).size / 2));
    expectMovedAside(readFileSync(file), 'truncated');
  });

  it('saves the rows of a database with one damaged page into the new one and says so', () => {
    populatedDatabase();
    const bytes = readFileSync(file);
    const pageSize = bytes.readUInt16BE(16);
    const pages = bytes.length / pageSize;
    // Scramble the body of one of the last table pages (a leaf of the notes b-tree).
    const page = pages - 2;
    randomBytes(pageSize - 8).copy(bytes, page * pageSize + 8);
    writeFileSync(file, bytes);
    const { db, notices } = openDatabase({ file, migrations: notes });
    const recovered = db.prepare('SELECT count(*) FROM notes').pluck().get() as number;
    expect(recovered).toBeGreaterThan(300);
    expect(recovered).toBeLessThanOrEqual(400);
    expect(notices[0]).toMatchObject({ code: 'STORE_CORRUPT_MOVED_ASIDE', data: { recovered: { rows: { notes: recovered } } } });
    expect(notices[0]!.message).toContain(`${recovered} rows`);
    expect(db.pragma('quick_check', { simple: true })).toBe('ok');
    db.close();
  });

  it('moves the -wal and -shm companions aside with the damaged file', () => {
    writeFileSync(file, randomBytes(4096));
    writeFileSync(`${file}-wal`, 'stale wal');
    const { db, notices } = openDatabase({ file, migrations: notes });
    const movedTo = notices[0]?.data?.movedTo as string;
    expect(readFileSync(`${movedTo}-wal`, 'utf8')).toBe('stale wal');
    expect(existsSync(movedTo)).toBe(true);
    db.close();
  });
});
