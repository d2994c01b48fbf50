import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from './openDatabase';
import type { Migration, SqliteDatabase } from './types';

/** A migration step description that fast-check can generate and shrink. */
type Step = { kind: 'table'; columns: number } | { kind: 'column'; table: number } | { kind: 'index'; table: number } | { kind: 'row'; table: number };

/** Turns generated steps into real migrations; later steps refer to tables created earlier. */
function toMigrations(steps: Step[]): Migration[] {
  let tables = 0;
  return steps.map((step, index) => {
    const id = `prop-${String(index).padStart(3, '0')}-${step.kind}`;
    if (step.kind === 'table' || tables === 0) {
      const name = `t${tables}`;
      const columns = step.kind === 'table' ? step.columns : 1;
      tables += 1;
      const defs = Array.from({ length: columns }, (_, c) => `c${c} TEXT`).join(', ');
      return { id, up: (db: SqliteDatabase) => db.exec(`CREATE TABLE ${name} (id INTEGER PRIMARY KEY, ${defs})`) };
    }
    const table = `t${step.table % tables}`;
    if (step.kind === 'column') return { id, up: (db: SqliteDatabase) => db.exec(`ALTER TABLE ${table} ADD COLUMN m${index} INTEGER`) };
    if (step.kind === 'index') return { id, up: (db: SqliteDatabase) => db.exec(`CREATE INDEX i${index} ON ${table} (id)`) };
    return { id, up: (db: SqliteDatabase) => db.prepare(`INSERT INTO ${table} (id) VALUES (?)`).run(index) };
  });
}

const stepArb: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant('table' as const), columns: fc.integer({ min: 1, max: 4 }) }),
  fc.record({ kind: fc.constant('column' as const), table: fc.nat(10) }),
  fc.record({ kind: fc.constant('index' as const), table: fc.nat(10) }),
  fc.record({ kind: fc.constant('row' as const), table: fc.nat(10) }),
);

function snapshot(db: SqliteDatabase) {
  const schema = db.prepare("SELECT type, name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY type, name").all();
  const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").pluck().all() as string[];
  const rows = Object.fromEntries(tables.filter((t) => t !== '_migrations').map((t) => [t, db.prepare(`SELECT * FROM ${t} ORDER BY id`).all()]));
  const ids = db.prepare('SELECT id FROM _migrations ORDER BY rowid').pluck().all();
  return { schema, rows, ids, version: db.pragma('user_version', { simple: true }) };
}

describe('migration sequences', () => {
  let dir = '';
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'cadsight-migprop-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('applying any prefix, reopening, then the rest gives the same database as applying all at once', () => {
    let run = 0;
    fc.assert(
      fc.property(fc.array(stepArb, { minLength: 1, maxLength: 8 }), fc.nat(), (steps, cut) => {
        run += 1;
        const migrations = toMigrations(steps);
        const prefix = cut % (migrations.length + 1);
        const stepwise = path.join(dir, `stepwise-${run}.db`);
        const atOnce = path.join(dir, `atonce-${run}.db`);
        openDatabase({ file: stepwise, migrations: migrations.slice(0, prefix) }).db.close();
        const resumed = openDatabase({ file: stepwise, migrations });
        const direct = openDatabase({ file: atOnce, migrations });
        try {
          expect(resumed.migrations.applied).toEqual(migrations.slice(prefix).map((m) => m.id));
          expect(snapshot(resumed.db)).toEqual(snapshot(direct.db));
        } finally {
          resumed.db.close();
          direct.db.close();
        }
      }),
      { numRuns: 30 },
    );
  });
});
