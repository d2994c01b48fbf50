import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { immediate } from './immediate';
import { openDatabase } from './openDatabase';

describe('immediate', () => {
  let dir = '';
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'cadsight-imm-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const migrations = [{ id: 'imm-001', up: (db: Database.Database) => db.exec('CREATE TABLE counter (n INTEGER NOT NULL)') }];

  it('commits the function result and rolls back when the function throws', () => {
    const { db } = openDatabase({ file: path.join(dir, 'a.db'), migrations });
    expect(immediate(db, () => db.prepare('INSERT INTO counter VALUES (1)').run().changes)).toBe(1);
    expect(() =>
      immediate(db, () => {
        db.prepare('INSERT INTO counter VALUES (2)').run();
        throw new Error('boom');
      }),
    ).toThrow('boom');
    expect(db.prepare('SELECT n FROM counter').pluck().all()).toEqual([1]);
    db.close();
  });

  it('reports a write lock held by another connection as retryable STORE_BUSY', () => {
    const file = path.join(dir, 'b.db');
    const { db } = openDatabase({ file, migrations });
    const other = new Database(file, { timeout: 0 });
    other.exec('BEGIN IMMEDIATE');
    db.pragma('busy_timeout = 0');
    try {
      expect(() => immediate(db, () => db.prepare('INSERT INTO counter VALUES (3)').run())).toThrow(
        expect.objectContaining({ code: 'STORE_BUSY', retryable: true }),
      );
    } finally {
      other.exec('ROLLBACK');
      other.close();
      db.close();
    }
  });
});
