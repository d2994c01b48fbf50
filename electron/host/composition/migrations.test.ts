import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../platform/db/openDatabase';
import { allMigrations } from './migrations';

/**
 * The ids as shipped, in order. user_version counts applied entries, so a reordered or renamed
 * entry would make an existing database skip or repeat a migration: this list may only grow at
 * the end.
 */
const SHIPPED = ['vision-001-sessions', 'review-001-runs', 'cadgen-001-generation-protocol', 'vision-002-image-extras'];

const dir = mkdtempSync(path.join(tmpdir(), 'cadsight-migrations-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the app migration list', () => {
  it('keeps every shipped migration at its place and only grows at the end', () => {
    expect(allMigrations.slice(0, SHIPPED.length).map((m) => m.id)).toEqual(SHIPPED);
  });

  it('brings a fresh database file to one user_version per entry, and a reopen applies nothing', () => {
    const file = path.join(dir, 'cadsight.db');
    const first = openDatabase({ file, migrations: allMigrations });
    expect(first.migrations).toEqual({ applied: allMigrations.map((m) => m.id), version: allMigrations.length });
    first.db.close();
    const again = openDatabase({ file, migrations: allMigrations });
    expect(again.migrations).toEqual({ applied: [], version: allMigrations.length });
    again.db.close();
  });
});
