import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../electron/platform/db/openDatabase';
import { createFolderOutput, createSqliteReviewStore, parseChecklist, reviewMigrations, startReview, type ReviewReport } from '../../electron/features/review/index';
import { openDxfReviewEndpoints } from '../../electron/host/commands/review';
import { openDxfBackend } from '../../electron/features/cadlink/index';
import { ezdxfPython } from '../../electron/testSupport/prereqs';

const repoRoot = path.resolve(__dirname, '../..');
const python = ezdxfPython('generateRuleFixtures.test');

interface ManifestRow {
  file: string;
  item: string | null;
  auditErrors: number;
  auditFixes: number;
}

describe.skipIf(!python)('rule items on their generated positive and negative fixtures', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'rule-fixtures-'));
  let manifest: ManifestRow[] = [];
  let db: ReturnType<typeof openDatabase>['db'];
  let n = 0;
  const checklist = parseChecklist(readFileSync(path.join(repoRoot, 'resources/checklist/review_checklist.json'), 'utf8'), 'default');
  const review = async (file: string, frames: string[] | null = null): Promise<ReviewReport> => {
    const deps = { store: createSqliteReviewStore(db, () => new Date()), now: () => new Date(), newRunId: () => `fx-${++n}`, generatorVersion: 'test' };
    const { source } = await openDxfReviewEndpoints(path.join(dir, file));
    const result = await startReview(deps, { source, output: createFolderOutput(path.join(dir, `out-${n}`)), concurrency: 1 }, checklist, { llm: false, locale: 'zh-CN', frames });
    return result.report!;
  };
  const itemsOf = (report: ReviewReport): string[] => [...new Set(report.findings.map((f) => f.checklistItemId))].sort();

  beforeAll(() => {
    manifest = JSON.parse(execFileSync(python!, [path.join(repoRoot, 'scripts/samples/generate_rule_fixtures.py'), dir], { encoding: 'utf8' }));
    db = openDatabase({ file: path.join(dir, 'review.db'), migrations: reviewMigrations }).db;
  }, 120_000);
  afterAll(() => db?.close());

  it('generates every fixture audit-clean by ezdxf, one positive per rule item', () => {
    expect(manifest.every((row) => row.auditErrors === 0 && row.auditFixes === 0)).toBe(true);
    expect(manifest.map((r) => r.item).filter(Boolean).sort()).toEqual(['DIM-002', 'DIM-003', 'DIM-004', 'DXF-001', 'GEO-003', 'GEO-004', 'LAY-002', 'SCL-001', 'SET-001', 'SHT-002', 'TB-002', 'TXT-002']);
  });

  it('find nothing at all on the clean GB sheet (the negative fixture of every rule)', async () => {
    const report = await review('clean.dxf');
    expect(report.findings.map((f) => `${f.checklistItemId}: ${f.message}`)).toEqual([]);
    expect(report.summary.frames).toBe(1);
  });

  it('each positive fixture raises its own item and nothing else', async () => {
    for (const row of manifest.filter((r) => r.item !== null)) {
      expect(itemsOf(await review(row.file)), row.file).toEqual([row.item]);
    }
  }, 120_000);

  it('a correctly numbered two-sheet drawing passes the numbering rule, and --frames reviews one sheet without calling the other stray', async () => {
    const both = await review('SET-001.neg.dxf');
    expect(itemsOf(both)).toEqual([]);
    const firstId = both.frames[0]!.frame.id;
    const one = await review('SET-001.neg.dxf', [firstId]);
    expect(one.summary.frames).toBe(1);
    expect(itemsOf(one)).toEqual([]);
  });

  it('report the GB sheet as A3 420×297 with its inner border inside the margins', async () => {
    const backend = await openDxfBackend(path.join(dir, 'clean.dxf'));
    const { frames } = JSON.parse((await backend.callTool('find_frames', {})).content.find((c) => c.type === 'text')!.text as string);
    expect(frames).toHaveLength(1);
    expect(frames[0].sheet).toMatchObject({ sheet: 'A3', outline: 'border', paperWidth: 420, paperHeight: 297 });
    expect(frames[0].sheetBox).toEqual([0, 0, 420, 297]);
    expect(frames[0].titleBlock).toMatchObject({ drawingNo: 'CS-1001', material: 'Q235', sheetNo: '1', sheetCount: '1', approver: '王工' });
  });

  it('recognise a title block drawn only as lines and texts', async () => {
    const backend = await openDxfBackend(path.join(dir, 'titleblock_text_only.dxf'));
    const { frames } = JSON.parse((await backend.callTool('find_frames', {})).content.find((c) => c.type === 'text')!.text as string);
    // A title block with no border around it: the whole space is the sheet, its fields read where they were found.
    expect(frames.map((f: { kind: string }) => f.kind)).toEqual(['extents']);
    expect(frames[0].titleBlock).toMatchObject({ title: '法兰盘', drawingNo: 'CS-1001', scale: '1:1' });
  });
});
