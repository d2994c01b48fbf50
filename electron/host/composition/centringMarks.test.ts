import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../platform/db/openDatabase';
import { createFolderOutput, createSqliteReviewStore, parseChecklist, reviewMigrations, startReview, type Checklist } from '../../features/review/index';
import { openDxfReviewEndpoints } from './reviewFiles';

const repoRoot = path.resolve(__dirname, '../../..');
const dir = mkdtempSync(path.join(tmpdir(), 'centring-marks-'));
const db = openDatabase({ file: path.join(dir, 'review.db'), migrations: reviewMigrations }).db;
afterAll(() => db.close());
const base = parseChecklist(readFileSync(path.join(repoRoot, 'resources/checklist/review_checklist.json'), 'utf8'), 'default');
/** The default SHT-002 with its GB-only guard switched as given. */
const withChineseOnly = (chineseSheetsOnly: boolean, maxInsideMm?: number): Checklist => ({
  ...base,
  items: base.items
    .filter((i) => i.id === 'SHT-002')
    .map((i) => (i.mode === 'rule' && i.params.rule === 'centring_marks' ? { ...i, params: { ...i.params, chineseSheetsOnly, ...(maxInsideMm ? { maxInsideMm } : {}) } } : i)),
});
let n = 0;
async function sht002(file: string, checklist: Checklist): Promise<string[]> {
  const { source } = await openDxfReviewEndpoints(file);
  const deps = { store: createSqliteReviewStore(db, () => new Date()), now: () => new Date(), newRunId: () => `cm-${++n}`, generatorVersion: 'test' };
  const result = await startReview(deps, { source, output: createFolderOutput(path.join(dir, `out-${n}`)), concurrency: 1 }, checklist, { llm: false, locale: 'en', frames: null });
  return result.report!.findings.map((f) => f.message);
}

describe('SHT-002 on a sheet drawn by another program', () => {
  const iso = path.join(repoRoot, 'electron/testSupport/fixtures/dxf/frame_iso_en_a3_titleblock.dxf');

  it('finds all four centring marks of QCAD’s ISO A3 template, each drawn in two pieces meeting at the border', async () => {
    expect(await sht002(iso, withChineseOnly(false))).toEqual([]);
  });

  it('leaves the English ISO sheet alone with the default GB-only setting', async () => {
    expect(await sht002(iso, withChineseOnly(true))).toEqual([]);
  });

  it('judges that sheet at all: marks allowed only 0.5 mm into the frame are missing on every side', async () => {
    expect(await sht002(iso, withChineseOnly(false, 0.5))).toEqual([expect.stringContaining('no centring mark on the bottom, right, top, left side(s)')]);
  });
});
