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
    const grouped: Record<string, { item: string; count: number; places: number }[]> = {};
    try {
      for (const file of files) {
        try {
          const { source } = await openDxfReviewEndpoints(path.join(corpus, file));
          const result = await startReview(deps, { source, output: createFolderOutput(path.join(dir, `out-${n}`)), concurrency: 2 }, checklist, { llm: false, locale: 'en', frames: null });
          expect(reportSchema.safeParse(result.report).success, file).toBe(true);
          outcomes[file] = `${result.report!.summary.frames} frames, ${result.report!.summary.total} findings, ${result.report!.summary.failedFrames} failed`;
          grouped[file] = result.report!.findings.filter((f) => f.count !== undefined).map((f) => ({ item: f.checklistItemId, count: f.count!, places: f.locations!.length }));
          // A report is quiet: at most one finding per rule per sheet.
          const perSheet = result.report!.findings.filter((f) => f.source === 'rule').map((f) => `${f.frameId}|${f.checklistItemId}`);
          expect(new Set(perSheet).size, file).toBe(perSheet.length);
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
    // The TArch sheet's many off-series texts are one text-height finding with every place.
    expect(grouped['cn_arch_tangent_gh109_1_R2013.dxf']).toContainEqual({ item: 'TXT-001', count: 18, places: 18 });
    expect(Object.values(outcomes).filter((o) => !o.startsWith('[')).length).toBeGreaterThan(files.length / 2);
  }, 600_000);
});
