import { closeSync, existsSync, mkdtempSync, openSync, readdirSync, readFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { createSqliteReviewStore, parseChecklist, checklistHash } from '../../features/review/index';
import type { StartupNotice } from '../../platform/dataDir/fileSafety';
import { createDamagedRowHandler } from '../../platform/db/damagedRows';
import { openDatabase } from '../../platform/db/openDatabase';
import type { Logger } from '../../platform/log/types';
import { allMigrations } from './migrations';

const repoRoot = path.resolve(__dirname, '../../..');
const checklist = parseChecklist(readFileSync(path.join(repoRoot, 'resources/checklist/review_checklist.json'), 'utf8'), 'default');
const MARKER = 'DAMAGED-RUN-MARKER-';
const quiet: Logger = { debug() {}, info() {}, warn() {}, error() {}, child: () => quiet };
const closers: Array<() => void> = [];
afterEach(() => {
  for (const close of closers.splice(0).reverse()) close();
});

/** A data folder whose database holds three review runs; the middle one's checklist (on overflow pages) carries MARKER. */
function threeRuns(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'review-damaged-rows-'));
  const file = path.join(dir, 'cadsight.db');
  const { db } = openDatabase({ file, migrations: allMigrations });
  const store = createSqliteReviewStore(db, () => new Date());
  ['run-a', 'run-b', 'run-c'].forEach((id, index) => {
    const items = checklist.items.map((item, i) => (id === 'run-b' && i === Math.floor(checklist.items.length / 2) ? { ...item, description: { ...item.description, en: MARKER.repeat(40) } } : item));
    const own = { ...checklist, items };
    store.createRun({ id, source: `${id}.dxf`, fingerprint: 'f', checklist: own, checklistHash: checklistHash(own), options: { llm: false, locale: 'en', frames: null }, missingCapabilities: [], status: 'completed', createdAt: `2026-01-0${index + 1}T00:00:00.000Z` }, [], []);
  });
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
  return file;
}

/** Overwrites bytes of the database file: `at` picks the offset from the file's bytes. */
function damage(file: string, at: (bytes: Buffer) => number, replacement: Buffer): void {
  const bytes = readFileSync(file);
  const offset = at(bytes);
  expect(offset).toBeGreaterThan(0);
  const fd = openSync(file, 'r+');
  try {
    writeSync(fd, replacement, 0, replacement.length, offset);
  } finally {
    closeSync(fd);
  }
}

function openApp(file: string) {
  const db = new Database(file);
  closers.push(() => db.close());
  const notices: StartupNotice[] = [];
  const handler = createDamagedRowHandler({ db, file, now: () => new Date('2026-02-01T00:00:00Z'), log: quiet, notices });
  return { db, notices, store: createSqliteReviewStore(db, () => new Date(), handler.moveAside) };
}

describe('a damaged review run row', () => {
  it('is left out of reviewListRuns (the others still list), reported once and moved aside when its stored JSON is damaged', () => {
    const file = threeRuns();
    // A quote inside the marker text: the page is fine for SQLite, the JSON is not.
    damage(file, (bytes) => bytes.indexOf(MARKER) + 5, Buffer.from('"'));
    const app = openApp(file);
    expect(app.store.listRuns(50).map((run) => run.id)).toEqual(['run-c', 'run-a']);
    expect(app.store.listRuns(50).map((run) => run.id)).toEqual(['run-c', 'run-a']);
    expect(app.notices).toEqual([expect.objectContaining({ code: 'STORE_ROW_MOVED_ASIDE', data: expect.objectContaining({ table: 'review_runs', removed: true }) })]);
    const movedTo = app.notices[0]!.data!['movedTo'] as string;
    const saved = new Database(movedTo, { readonly: true });
    const columns = saved.prepare('SELECT column_name, value FROM damaged_row').all() as Array<{ column_name: string; value: unknown }>;
    saved.close();
    expect(columns.find((c) => c.column_name === 'id')?.value).toBe('run-b');
    expect(String(columns.find((c) => c.column_name === 'checklist_json')?.value)).toContain('DAMAGED-RUN');
  });

  it('is left out of the list when one of its overflow pages is broken, and the next start recovers the database', () => {
    const file = threeRuns();
    const pageSize = (() => {
      const db = new Database(file, { readonly: true });
      const size = db.pragma('page_size', { simple: true }) as number;
      db.close();
      return size;
    })();
    // The page holding the middle of the marker run is an overflow page of run-b's row: point its
    // "next overflow page" number far past the end of the file.
    damage(file, (bytes) => Math.floor((bytes.indexOf(MARKER) + MARKER.length * 20) / pageSize) * pageSize, Buffer.from([0x7f, 0xff, 0xff, 0xff]));
    const app = openApp(file);
    expect(() => app.db.prepare('SELECT * FROM review_runs ORDER BY created_at DESC').all()).toThrow(expect.objectContaining({ code: expect.stringMatching(/^SQLITE_CORRUPT/) }));
    expect(app.store.listRuns(50).map((run) => run.id)).toEqual(['run-c', 'run-a']);
    expect(app.store.listRuns(50).map((run) => run.id)).toEqual(['run-c', 'run-a']);
    expect(app.notices).toHaveLength(1);
    expect(app.notices[0]).toMatchObject({ code: 'STORE_ROW_MOVED_ASIDE', data: { table: 'review_runs' } });
    app.db.close();
    closers.length = 0;

    // Whether the row could be deleted or the database asked for recovery, the next start lists the two good runs.
    const reopened = openDatabase({ file, migrations: allMigrations });
    closers.push(() => reopened.db.close());
    expect(createSqliteReviewStore(reopened.db, () => new Date()).listRuns(50).map((run) => run.id)).toEqual(['run-c', 'run-a']);
    expect(existsSync(`${file}.recover`)).toBe(false);
    expect(readdirSync(path.dirname(file)).some((name) => name.includes('.corrupt-'))).toBe(true);
  });
});
