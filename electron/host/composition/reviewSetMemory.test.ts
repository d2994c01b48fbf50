import { copyFileSync, mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import v8 from 'node:v8';
import vm from 'node:vm';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../platform/db/openDatabase';
import { createFolderOutput, createSqliteReviewStore, parseChecklist, reviewMigrations, startReview } from '../../features/review/index';
import { openDxfReviewEndpoints, reviewExitCode } from './reviewFiles';
import { runReviewSet } from './reviewSet';

// A real collection is the only way to see what is still referenced: expose gc for this file.
v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;
/** WeakRefs read in the same job keep their targets alive: collect after the current task. */
const collect = async (): Promise<void> => {
  await new Promise((resolve) => setImmediate(resolve));
  gc();
  await new Promise((resolve) => setImmediate(resolve));
};

const repoRoot = path.resolve(__dirname, '../../..');
const fixtures = path.join(repoRoot, 'electron/testSupport/fixtures/dxf');
const checklist = parseChecklist(readFileSync(path.join(repoRoot, 'resources/checklist/review_checklist.json'), 'utf8'), 'default');
const dir = mkdtempSync(path.join(tmpdir(), 'review-set-memory-'));
const db = openDatabase({ file: path.join(dir, 'review.db'), migrations: reviewMigrations }).db;
afterAll(() => db.close());
const store = createSqliteReviewStore(db, () => new Date());

function folderOf(name: string, sources: string[]): string {
  const folder = path.join(dir, name);
  mkdirSync(folder);
  sources.forEach((source, i) => copyFileSync(source, path.join(folder, `sheet-${String(i + 1).padStart(2, '0')}.dxf`)));
  return folder;
}

describe('a drawing set holds at most its running files in memory', () => {
  it('lets go of every earlier file’s drawing, report and result while later files are reviewed', async () => {
    const sample = path.join(repoRoot, 'resources/samples/cadsight_sample_gb_a3_3frames.dxf');
    const iso = path.join(fixtures, 'frame_iso_en_a3_titleblock.dxf');
    const folder = folderOf('real', [sample, iso, sample, iso, sample, iso]);
    const held: { file: string; ref: WeakRef<object> }[] = [];
    let n = 0;
    let stillHeldAtLast: string[] | null = null;
    const report = await runReviewSet(
      { folder, out: path.join(dir, 'real-out'), jobs: 1, locale: 'en' },
      {
        now: () => new Date(),
        onProgress: () => undefined,
        reviewFile: async (file, outDir) => {
          if (path.basename(file) === 'sheet-06.dxf') {
            await collect();
            stillHeldAtLast = held.filter((h) => h.ref.deref() !== undefined).map((h) => h.file);
          }
          const { source } = await openDxfReviewEndpoints(file);
          const result = await startReview({ store, now: () => new Date(), newRunId: () => `mem-${++n}`, generatorVersion: 'test' }, { source, output: createFolderOutput(outDir), concurrency: 1 }, checklist, { llm: false, locale: 'en', frames: null });
          const answer = { exitCode: reviewExitCode(result), findings: result.report?.summary.total ?? 0, runId: result.runId, report: result.report };
          // The backend session (the parsed drawing), the report and the very object handed to the engine.
          held.push({ file: `${path.basename(file)} source`, ref: new WeakRef(source) }, { file: `${path.basename(file)} report`, ref: new WeakRef(result.report!) }, { file: `${path.basename(file)} result`, ref: new WeakRef(answer) });
          return answer;
        },
      },
    );
    expect(report.files).toHaveLength(6);
    expect(held).toHaveLength(18);
    expect(stillHeldAtLast).toEqual([]);
  }, 120_000);

  it('never reviews more files at once than its jobs', async () => {
    const folder = folderOf('jobs', Array.from({ length: 9 }, () => path.join(fixtures, 'frame_iso_en_a3_titleblock.dxf')));
    let open = 0;
    let most = 0;
    let n = 0;
    await runReviewSet(
      { folder, out: path.join(dir, 'jobs-out'), jobs: 3, locale: 'en' },
      {
        now: () => new Date(),
        onProgress: () => undefined,
        reviewFile: async (file, outDir) => {
          most = Math.max(most, ++open);
          try {
            const { source } = await openDxfReviewEndpoints(file);
            const result = await startReview({ store, now: () => new Date(), newRunId: () => `jobs-${++n}`, generatorVersion: 'test' }, { source, output: createFolderOutput(outDir), concurrency: 1 }, checklist, { llm: false, locale: 'en', frames: null });
            return { exitCode: reviewExitCode(result), findings: 0 };
          } finally {
            open--;
          }
        },
      },
    );
    expect(most).toBe(3);
  }, 120_000);
});
