// Runs the review evaluation: writes the generated corpus through the project's DXF writer, reads
// every file back with the real reader, reviews it with the real rules-only pipeline and scores
// the findings against the labels (generated sheets and hand-labelled real corpus sheets).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDatabase } from '../../../electron/platform/db/openDatabase';
import { createFolderOutput, createSqliteReviewStore, parseChecklist, reviewMigrations, startReview, type ReviewReport } from '../../../electron/features/review/index';
import { openDxfReviewEndpoints } from '../../../electron/host/commands/review';
import { parseDxfBytes } from '../../../electron/features/drawing/index';
import { EntityWriter } from './entityTags';
import { generateCorpus } from './corpus';
import { sheetOfFrame, type Space, type UnitOutcome } from './score';

export interface RealLabel {
  /** File under the corpus folder. */
  file: string;
  space: Space;
  /** Frame id → rule items that must fire there (every frame the review finds must be listed). */
  frames: Record<string, string[]>;
  drawingExpected: string[];
  note: string;
}

export interface EvalRun {
  outcomes: UnitOutcome[];
  rules: string[];
  files: { file: string; origin: 'generated' | 'real'; space: Space; sheets: number; ms: number; findings: number; grouped: number }[];
  skippedReal: string | null;
}

const firedBy = (report: ReviewReport, frameId: string | null): string[] => [...new Set(report.findings.filter((f) => f.frameId === frameId && !f.hypothesis).map((f) => f.checklistItemId))].sort();

/** The template's tables and layouts, made by the project's ezdxf fixture generator. */
function makeTemplate(repoRoot: string, python: string, work: string): Buffer {
  const dir = path.join(work, 'fixtures');
  execFileSync(python, [path.join(repoRoot, 'scripts/samples/generate_rule_fixtures.py'), dir], { encoding: 'utf8' });
  return readFileSync(path.join(dir, 'template.dxf'));
}

export async function runReviewEval(options: { repoRoot: string; python: string; corpusDir: string; labels: RealLabel[]; work?: string }): Promise<EvalRun> {
  const work = options.work ?? mkdtempSync(path.join(os.tmpdir(), 'eval-review-'));
  const templatePath = path.join(work, 'template.dxf');
  const template = makeTemplate(options.repoRoot, options.python, work);
  writeFileSync(templatePath, template);
  const doc = parseDxfBytes(new Uint8Array(template), templatePath).document;
  const generated = generateCorpus(() => new EntityWriter(doc));
  const checklist = parseChecklist(readFileSync(path.join(options.repoRoot, 'resources/checklist/review_checklist.json'), 'utf8'), 'default');
  const rules = checklist.items.filter((i) => i.mode === 'rule').map((i) => i.id);
  const db = openDatabase({ file: path.join(work, 'review.db'), migrations: reviewMigrations }).db;
  let runs = 0;
  const review = async (file: string): Promise<{ report: ReviewReport; ms: number }> => {
    const started = performance.now();
    const { source } = await openDxfReviewEndpoints(file);
    const deps = { store: createSqliteReviewStore(db, () => new Date()), now: () => new Date(), newRunId: () => `eval-${++runs}`, generatorVersion: 'eval' };
    const result = await startReview(deps, { source, output: createFolderOutput(path.join(work, 'out', String(runs + 1))), concurrency: 1 }, checklist, { llm: false, locale: 'zh-CN', frames: null });
    if (!result.report) throw new Error(`${file}: the review ended ${result.status} without a report`);
    return { report: result.report, ms: performance.now() - started };
  };
  const outcomes: UnitOutcome[] = [];
  const files: EvalRun['files'] = [];
  const grouped = (report: ReviewReport): number => report.findings.filter((f) => f.count !== undefined).length;
  try {
    mkdirSync(path.join(work, 'corpus'), { recursive: true });
    for (const g of generated) {
      const file = path.join(work, 'corpus', g.file);
      writeFileSync(file, g.text);
      const { report, ms } = await review(file);
      const seen = new Set<number>();
      for (const entry of report.frames) {
        const index = sheetOfFrame(entry.frame, g.sheets);
        const sheet = g.sheets[index];
        if (index >= 0) seen.add(index);
        outcomes.push({ unit: `${g.file}#${sheet ? `${entry.frame.id}` : `unmatched:${entry.frame.id}`}`, space: sheet?.space ?? g.space, expected: sheet?.expected ?? [], fired: firedBy(report, entry.frame.id) });
      }
      g.sheets.forEach((sheet, i) => {
        if (!seen.has(i)) outcomes.push({ unit: `${g.file}#no-frame:${i}`, space: sheet.space, expected: sheet.expected, fired: [] });
      });
      outcomes.push({ unit: `${g.file}#drawing`, space: g.space, expected: g.drawingExpected, fired: firedBy(report, null) });
      files.push({ file: g.file, origin: 'generated', space: g.space, sheets: g.sheets.length, ms: Math.round(ms), findings: report.findings.length, grouped: grouped(report) });
    }
    const realAvailable = existsSync(options.corpusDir);
    for (const label of realAvailable ? options.labels : []) {
      const { report, ms } = await review(path.join(options.corpusDir, label.file));
      for (const entry of report.frames) {
        const expected = label.frames[entry.frame.id];
        outcomes.push({ unit: `real/${label.file}#${expected ? entry.frame.id : `unlabelled:${entry.frame.id}`}`, space: label.space, expected: expected ?? [], fired: firedBy(report, entry.frame.id) });
      }
      outcomes.push({ unit: `real/${label.file}#drawing`, space: label.space, expected: label.drawingExpected, fired: firedBy(report, null) });
      files.push({ file: `real/${label.file}`, origin: 'real', space: label.space, sheets: report.frames.length, ms: Math.round(ms), findings: report.findings.length, grouped: grouped(report) });
    }
    return { outcomes, rules, files, skippedReal: realAvailable ? null : `${options.corpusDir} not found: the hand-labelled real sheets were not reviewed` };
  } finally {
    db.close();
  }
}
