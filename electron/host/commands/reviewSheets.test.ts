import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../platform/db/openDatabase';
import { createFolderOutput, createSqliteReviewStore, parseChecklist, reviewMigrations, startReview, type ReviewReport } from '../../features/review/index';
import { openDxfReviewEndpoints } from './review';

const repoRoot = path.resolve(__dirname, '../../..');
const fixtures = path.join(repoRoot, 'electron/testSupport/fixtures/dxf');
const chinese = path.resolve(repoRoot, '../shared/corpus/dxf/cn_arch_tangent_gh109_1_R2013.dxf');
if (!existsSync(chinese)) console.log(`[reviewSheets.test] Chinese viewport drawing skipped: ${chinese} is absent`);

async function review(file: string): Promise<ReviewReport> {
  const dir = mkdtempSync(path.join(tmpdir(), 'review-sheets-'));
  const db = openDatabase({ file: path.join(dir, 'review.db'), migrations: reviewMigrations }).db;
  try {
    const checklist = parseChecklist(readFileSync(path.join(repoRoot, 'resources/checklist/review_checklist.json'), 'utf8'), 'default');
    const deps = { store: createSqliteReviewStore(db, () => new Date()), now: () => new Date(), newRunId: () => 'sheets-1', generatorVersion: 'test' };
    const { source } = await openDxfReviewEndpoints(file);
    const result = await startReview(deps, { source, output: createFolderOutput(path.join(dir, 'out')), concurrency: 1 }, checklist, { llm: false, locale: 'en', frames: null });
    return result.report as ReviewReport;
  } finally {
    db.close();
  }
}

const outsideFindings = (report: ReviewReport) => report.findings.filter((f) => f.checklistItemId === 'GEO-003');

describe('paper layouts reviewed in the space they are plotted in', () => {
  it('reviews a 3-layout drawing from its sheets: model space seen through the viewports is evidence, reviewed once, never "outside the frames"', async () => {
    const report = await review(path.join(fixtures, 'mech_flange_layouts.dxf'));
    const byLayout = Object.fromEntries(report.frames.map((f) => [f.frame.layout, f]));
    expect(Object.keys(byLayout).sort()).toEqual(['Layout', 'Layout2']);
    const sheet = byLayout.Layout!;
    // the A4 sheet's own entities are 6 (viewports, border block, MTEXT); the flange is in model space
    expect(sheet.evidence!.entities).toBeGreaterThan(150);
    expect(sheet.evidence!.entityTypes).toMatchObject({ LINE: expect.any(Number), CIRCLE: expect.any(Number) });
    expect(sheet.evidence!.texts).toBeGreaterThan(5);
    // Layout2 shows the same model again: those entities were reviewed on the first sheet
    const model = 222;
    expect(sheet.evidence!.entities + byLayout.Layout2!.evidence!.entities).toBeLessThan(model + 20);
    // what is outside every frame is only what no viewport shows (the flange file keeps a spare isometric copy off-sheet)
    const { source } = await openDxfReviewEndpoints(path.join(fixtures, 'mech_flange_layouts.dxf'));
    const shown = new Set<string>();
    for (const layout of ['Layout', 'Layout2']) {
      const result = await source.callTool('get_entities', { layout, through_viewports: true, limit: 5000 });
      const page = JSON.parse((result.content.find((c) => c.type === 'text') as { text: string }).text) as { entities: { handle: string; space: string }[] };
      for (const e of page.entities) if (e.space === 'model') shown.add(e.handle);
    }
    expect(shown.size).toBeGreaterThan(150);
    const cited = outsideFindings(report).flatMap((f) => f.evidenceRefs.filter((r) => r.startsWith('entity:')).map((r) => r.slice('entity:'.length)));
    expect(cited.length).toBeGreaterThan(0);
    expect(cited.filter((h) => shown.has(h))).toEqual([]);
    // screenshots of the sheet are what is plotted: the A4 frame picture is paper-sized
    expect(sheet.screenshots[0]?.region.maxX).toBeLessThan(320);
  }, 120_000);

  it.skipIf(!existsSync(chinese))('reviews a Chinese drawing whose content is only in a viewport (Tangent TArch plan)', async () => {
    const report = await review(chinese);
    const sheet = report.frames.find((f) => f.frame.layout === 'layout1');
    expect(sheet).toBeDefined();
    expect(sheet!.evidence!.entities).toBeGreaterThan(20);
    expect(sheet!.evidence!.texts).toBeGreaterThanOrEqual(3);
    expect(outsideFindings(report).filter((f) => f.frameId === null)).toEqual([]);
  }, 120_000);
});
