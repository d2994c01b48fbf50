import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../../shared/errors';
import { openDatabase } from '../../platform/db/openDatabase';
import { createFolderOutput, createSqliteReviewStore, parseChecklist, reportSchema, reviewMigrations, startReview } from '../../features/review/index';
import { openDxfReviewEndpoints } from './review';

const repoRoot = path.resolve(__dirname, '../../..');
const corpus = path.resolve(repoRoot, '../shared/corpus/dxf');
const files = existsSync(corpus) ? readdirSync(corpus).filter((f) => f.toLowerCase().endsWith('.dxf')).sort() : [];
if (files.length === 0) console.log(`[reviewCorpus.test] skipped: no DXF corpus at ${corpus}`);

describe.skipIf(files.length === 0)('a rules-only review of every corpus drawing', () => {
  it('ends in a schema-valid report or a typed error, never a crash', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'review-corpus-'));
    const db = openDatabase({ file: path.join(dir, 'review.db'), migrations: reviewMigrations }).db;
    const checklist = parseChecklist(readFileSync(path.join(repoRoot, 'resources/checklist/review_checklist.json'), 'utf8'), 'default');
    let n = 0;
    const deps = { store: createSqliteReviewStore(db, () => new Date()), now: () => new Date(), newRunId: () => `corpus-${++n}`, generatorVersion: 'test' };
    const outcomes: Record<string, string> = {};
    try {
      for (const file of files) {
        try {
          const { source } = await openDxfReviewEndpoints(path.join(corpus, file));
          const result = await startReview(deps, { source, output: createFolderOutput(path.join(dir, `out-${n}`)), concurrency: 2 }, checklist, { llm: false, locale: 'en', frames: null });
          expect(reportSchema.safeParse(result.report).success, file).toBe(true);
          outcomes[file] = `${result.report!.summary.frames} frames, ${result.report!.summary.total} findings, ${result.report!.summary.failedFrames} failed`;
        } catch (error) {
          expect(error, `${file}: ${String(error)}`).toBeInstanceOf(AppError);
          outcomes[file] = `[${(error as AppError).code}]`;
        }
      }
    } finally {
      db.close();
    }
    console.log(outcomes);
    // Malformed files may be refused, but real drawings must be reviewed.
    expect(outcomes['mech_flange_3frames_modelspace_DERIVED.dxf']).toMatch(/^3 frames/);
    expect(Object.values(outcomes).filter((o) => !o.startsWith('[')).length).toBeGreaterThan(files.length / 2);
  }, 600_000);
});
