import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../platform/db/openDatabase';
import { createFolderOutput, createSqliteReviewStore, parseChecklist, reviewMigrations, startReview, worstExitCode } from '../../features/review/index';
import { dxfSetFileReviewer, openDxfReviewEndpoints } from './reviewFiles';
import { runReviewSet, type ReviewSetDeps, type SetProgress } from './reviewSet';

const repoRoot = path.resolve(__dirname, '../../..');
const fixtures = path.join(repoRoot, 'electron/testSupport/fixtures/dxf');
const checklist = parseChecklist(readFileSync(path.join(repoRoot, 'resources/checklist/review_checklist.json'), 'utf8'), 'default');
const dir = mkdtempSync(path.join(tmpdir(), 'review-set-'));
const db = openDatabase({ file: path.join(dir, 'review.db'), migrations: reviewMigrations }).db;
afterAll(() => db.close());

let n = 0;
const reviewed: string[] = [];
const events: SetProgress[] = [];
const store = createSqliteReviewStore(db, () => new Date());
const reviewOne = dxfSetFileReviewer({ store, now: () => new Date(), newRunId: () => `set-${++n}`, generatorVersion: 'test' }, { checklist, locale: 'zh-CN', concurrency: 1 });
const deps: ReviewSetDeps = {
  now: () => new Date('2026-12-01T00:00:00Z'),
  onProgress: (event) => events.push(event),
  reviewFile: async (file, outDir) => {
    reviewed.push(path.basename(file));
    return reviewOne(file, outDir);
  },
};

describe('reviewing a folder of drawings as a set', () => {
  const folder = path.join(dir, 'set');
  const out = path.join(dir, 'out');

  it('reviews every file with bounded jobs, reports each and the set, and exits with the worst file', async () => {
    mkdirSync(folder);
    copyFileSync(path.join(repoRoot, 'resources/samples/cadsight_sample_gb_a3_3frames.dxf'), path.join(folder, 'sample.dxf'));
    copyFileSync(path.join(fixtures, 'frame_iso_en_a3_titleblock.dxf'), path.join(folder, 'iso.dxf'));
    copyFileSync(path.join(repoRoot, 'resources/samples/cadsight_sample_gb_a3_3frames.dxf'), path.join(folder, 'sample-copy.dxf'));
    writeFileSync(path.join(folder, 'broken.dxf'), 'not a drawing\n');
    writeFileSync(path.join(folder, 'notes.txt'), 'ignored');
    const report = await runReviewSet({ folder, out, jobs: 2, locale: 'zh-CN' }, deps);
    expect(report.files.map((f) => [f.file, f.exitCode])).toEqual([['broken.dxf', 2], ['iso.dxf', 0], ['sample-copy.dxf', 1], ['sample.dxf', 1]]);
    expect(report.files[0]!.error?.code).toBe('CAD_DXF_INVALID');
    expect(report.exitCode).toBe(2);
    expect(report.sheets.filter((s) => s.file === 'sample.dxf').map((s) => [s.drawingNo, s.sheetNo, s.sheetCount])).toEqual([['CS-2026-001', '1', '3'], ['CS-2026-002', '2', '3'], ['CS-2026-003', '3', '3']]);
    // The copy repeats every 图号 and sheet number of the original: the cross-sheet check says so.
    expect(report.crossSheet.filter((c) => c.kind === 'duplicate_drawing_no').map((c) => c.drawingNo)).toEqual(['CS-2026-001', 'CS-2026-002', 'CS-2026-003']);
    expect(readFileSync(path.join(out, 'set-report.md'), 'utf8')).toContain('图号 CS-2026-001 重复：sample-copy.dxf#92、sample.dxf#92。');
    expect(readFileSync(path.join(out, 'reports/sample/report.md'), 'utf8').length).toBeGreaterThan(0);
    // Each file's run is linked from the set (the app opens it), and progress came per file.
    expect(report.files.filter((f) => f.runId !== null).map((f) => store.getRun(f.runId!)?.source)).toEqual(['iso.dxf', 'sample-copy.dxf', 'sample.dxf']);
    expect(events.filter((e) => e.kind === 'finished').map((e) => e.done)).toEqual([1, 2, 3, 4]);
    expect(events.filter((e) => e.kind === 'started')).toHaveLength(4);
  }, 120_000);

  it('resumes: files reviewed before are not reviewed again, a failed one is', async () => {
    reviewed.length = 0;
    const report = await runReviewSet({ folder, out, jobs: 3, locale: 'zh-CN' }, deps);
    expect(reviewed).toEqual(['broken.dxf']);
    expect(report.findings.length).toBeGreaterThan(0);
    expect(report.exitCode).toBe(2);
  }, 120_000);

  it('ranks exit codes clean < incomplete < blocking < incomplete with blocking < error', () => {
    expect(worstExitCode([0, 3])).toBe(3);
    expect(worstExitCode([3, 1])).toBe(1);
    expect(worstExitCode([1, 4, 0])).toBe(4);
    expect(worstExitCode([4, 2])).toBe(2);
    expect(worstExitCode([])).toBe(0);
  });
});
