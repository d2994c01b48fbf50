import { createHash } from 'node:crypto';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase } from './openDatabase';
import { assertRequiredPragmas } from './pragmas';
import type { Migration, SqliteDatabase } from './types';
import { preallocateWal } from './walPreallocation';

const notes: Migration[] = [{ id: 'test-001-notes', up: (db) => db.exec('CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT NOT NULL)') }];
/** 1000 frames of (24-byte header + 4096-byte page) behind the 32-byte WAL header. */
const CHECKPOINT_SIZE = 32 + 1000 * (24 + 4096);

const sha = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const bodies = (db: SqliteDatabase) => db.prepare<[], { body: string }>('SELECT body FROM notes ORDER BY id').all().map((r) => r.body);

describe('WAL preallocation', () => {
  let dir = '';
  let file = '';
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'cadsight-wal-'));
    file = path.join(dir, 'cadsight.db');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('zero-fills a fresh WAL to its checkpoint size, and the database reads, writes and reopens as before', () => {
    const opened = openDatabase({ file, migrations: notes, preallocateWal: true });
    expect(opened.wal).toMatchObject({ toBytes: CHECKPOINT_SIZE });
    expect(statSync(`${file}-wal`).size).toBe(CHECKPOINT_SIZE);
    assertRequiredPragmas(opened.db);
    for (let i = 0; i < 50; i++) opened.db.prepare('INSERT INTO notes (body) VALUES (?)').run(`note ${i}`.repeat(100));
    // Commits land inside the preallocated space: the file does not grow.
    expect(statSync(`${file}-wal`).size).toBe(CHECKPOINT_SIZE);
    opened.db.close();
    const again = openDatabase({ file, migrations: notes });
    expect(bodies(again.db)).toHaveLength(50);
    expect(again.db.pragma('quick_check', { simple: true })).toBe('ok');
    again.db.close();
  });

  it('never touches frames another connection committed, and a crash copy of the files recovers every row from the WAL', () => {
    const writer = openDatabase({ file, migrations: notes });
    // No checkpoint: the rows exist only as frames in the WAL.
    writer.db.pragma('wal_autocheckpoint = 0');
    for (let i = 0; i < 20; i++) writer.db.prepare('INSERT INTO notes (body) VALUES (?)').run(`row ${i}`);
    const before = readFileSync(`${file}-wal`);
    const second = openDatabase({ file, migrations: notes, preallocateWal: true });
    expect(second.wal).toMatchObject({ fromBytes: before.length, toBytes: CHECKPOINT_SIZE });
    const after = readFileSync(`${file}-wal`);
    expect(sha(after.subarray(0, before.length))).toBe(sha(before));
    expect(after.subarray(before.length).every((b) => b === 0)).toBe(true);
    writer.db.prepare('INSERT INTO notes (body) VALUES (?)').run('after');
    expect(bodies(second.db)).toHaveLength(21);
    // A copy of the files as a crash leaves them (no wal-index): opening it rebuilds the index
    // from the WAL frame by frame, and the zeros past the last frame must end that scan cleanly.
    const copy = path.join(dir, 'crashed.db');
    copyFileSync(file, copy);
    copyFileSync(`${file}-wal`, `${copy}-wal`);
    second.db.close();
    writer.db.close();
    const recovered = openDatabase({ file: copy, migrations: notes });
    expect(bodies(recovered.db)).toEqual([...Array.from({ length: 20 }, (_, i) => `row ${i}`), 'after']);
    expect(recovered.db.pragma('quick_check', { simple: true })).toBe('ok');
    recovered.db.close();
  });

  it('skips while another connection holds the write lock, keeps the busy timeout, and fills the WAL once the lock is free', () => {
    const holder = openDatabase({ file, migrations: notes });
    const other = openDatabase({ file, migrations: notes });
    holder.db.exec('BEGIN IMMEDIATE');
    expect(preallocateWal(other.db)).toEqual({ skipped: 'busy' });
    // The connection keeps its normal busy timeout afterwards.
    assertRequiredPragmas(other.db);
    holder.db.exec('ROLLBACK');
    expect(preallocateWal(other.db)).toMatchObject({ toBytes: CHECKPOINT_SIZE });
    expect(preallocateWal(other.db)).toEqual({ skipped: 'large-enough' });
    other.db.close();
    holder.db.close();
  });

  it('keeps every committed row, whatever order commits, preallocations and reopenings come in', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.constant('prealloc' as const), fc.constant('reopen' as const), fc.string({ maxLength: 300 })), { maxLength: 25 }), (steps) => {
        rmSync(dir, { recursive: true, force: true });
        dir = mkdtempSync(path.join(tmpdir(), 'cadsight-wal-'));
        file = path.join(dir, 'cadsight.db');
        let db = openDatabase({ file, migrations: notes }).db;
        const expected: string[] = [];
        for (const step of steps) {
          if (step === 'prealloc') preallocateWal(db);
          else if (step === 'reopen') {
            db.close();
            db = openDatabase({ file, migrations: notes }).db;
          } else {
            db.prepare('INSERT INTO notes (body) VALUES (?)').run(step);
            expected.push(step);
          }
        }
        expect(bodies(db)).toEqual(expected);
        db.close();
      }),
      { numRuns: 25 },
    );
  });
});
