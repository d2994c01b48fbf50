import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCdslCatalog, createOcctRuntime, OCCT_OPERATION_IDS, type CadRuntime, type Claim } from '../../features/cadgen/index';
import { DrawingIndex, findFrames, parseDxfBytes } from '../../features/drawing/index';
import { createSqliteReviewStore, reviewMigrations } from '../../features/review/index';
import { openDatabase } from '../../platform/db/openDatabase';
import { writePartDrawing, type PartDrawingOutcome } from './cadgenDrawing';

const root = path.resolve(import.meta.dirname, '../../..');
const examples = path.join(root, 'resources/examples/cdsl');
const catalog = createCdslCatalog(OCCT_OPERATION_IDS);
const dir = mkdtempSync(path.join(tmpdir(), 'gb-drawing-'));
const db = openDatabase({ file: path.join(dir, 'review.db'), migrations: reviewMigrations }).db;
const store = createSqliteReviewStore(db, () => new Date());
let runtime: CadRuntime;

/** ezdxf (the independent reader): audit errors and every DIMENSION's measurement and text. */
const EZDXF = `
import json, sys, ezdxf
doc = ezdxf.readfile(sys.argv[1])
auditor = doc.audit()
dims = [{"m": d.get_measurement(), "text": d.dxf.text, "type": d.dimtype} for d in doc.modelspace().query("DIMENSION")]
print(json.dumps({"errors": [str(e.message) for e in auditor.errors], "dims": dims}))
`;
function ezdxf(file: string): { errors: string[]; dims: { m: number; text: string; type: number }[] } {
  const run = spawnSync('/usr/bin/python3', ['-c', EZDXF, file], { encoding: 'utf8' });
  expect(run.status, run.stderr).toBe(0);
  return JSON.parse(run.stdout);
}

const outcomes = new Map<string, PartDrawingOutcome>();
async function drawing(name: string): Promise<PartDrawingOutcome> {
  const cached = outcomes.get(name);
  if (cached) return cached;
  const document = catalog.validateDocument(JSON.parse(readFileSync(path.join(examples, `${name}.json`), 'utf8')));
  const claims = (JSON.parse(readFileSync(path.join(examples, `${name}.claims.json`), 'utf8')) as { claims: Claim[] }).claims;
  const outcome = await writePartDrawing(
    { runtime, store },
    { document, claims, method: 'first_angle', format: 'auto', lang: 'zh-CN', titleBlock: { title: `${name} 零件`, drawingNo: `CS-${name.toUpperCase()}-001`, material: 'Q235', date: '2026-12-04', revision: 'rev_003' } },
    path.join(dir, name),
  );
  outcomes.set(name, outcome);
  return outcome;
}

beforeAll(() => {
  runtime = createOcctRuntime({ workerScript: path.join(root, 'dist/node/occtWorker.js') });
});
afterAll(async () => {
  await runtime.dispose();
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

describe.each(['flange', 'plate_hole_grid', 'l_bracket', 'chamfered_block'])('the GB drawing of the %s example', (name) => {
  it('opens in ezdxf without audit errors and shows every dimensional claim value as a DIMENSION measurement', async () => {
    const outcome = await drawing(name);
    const read = ezdxf(outcome.dxfPath);
    expect(read.errors).toEqual([]);
    const measured = read.dims.map((d) => d.m);
    for (const claim of outcome.sheet.claims) {
      if (claim.reason === 'not_dimensional') continue;
      // A covered claim (coaxial) points at the dimensions that show its values.
      expect([undefined, 'covered_by_other_dimension'], claim.claim_id).toContain(claim.reason);
      expect(claim.dimensions.length, claim.claim_id).toBeGreaterThan(0);
      for (const value of claim.values_mm) expect(measured.some((m) => Math.abs(m - value) < 1e-6), `${claim.claim_id} ${value} in ${measured.join(', ')}`).toBe(true);
    }
    // Each planned dimension is written once.
    expect(read.dims).toHaveLength(outcome.sheet.dimensions.length);
  });

  it('reads back its title block with our frame reader and passes our rules-only review without a blocking finding', async () => {
    const outcome = await drawing(name);
    const doc = parseDxfBytes(readFileSync(outcome.dxfPath), outcome.dxfPath).document;
    const frames = findFrames(new DrawingIndex(doc));
    expect(frames).toHaveLength(1);
    const fields = frames[0]!.titleBlock.fields;
    expect(fields).toMatchObject({ title: `${name} 零件`, drawingNo: `CS-${name.toUpperCase()}-001`, scale: outcome.sheet.scale, material: 'Q235', date: '2026-12-04', revision: 'rev_003', sheetCount: '1', sheetNo: '1', designer: null, checker: null });
    expect(frames[0]!.sheet).toMatchObject({ sheet: outcome.sheet.format, orientation: 'landscape', scale: outcome.sheet.scale === '1:1' ? 1 : expect.any(Number) });
    expect(outcome.review.status).toBe('completed');
    expect(outcome.review.findings.blocking).toBe(0);
    expect(outcome.review.hasBlocking).toBe(false);
  });

  it('aligns the views: front and top share x, front and side share the height', async () => {
    const { placements } = (await drawing(name)).sheet;
    expect(Math.abs(placements.front.offset.x - placements.top.offset.x)).toBeLessThan(0.01);
    expect(Math.abs(placements.front.offset.y - placements.side.offset.y)).toBeLessThan(0.01);
    expect(placements.top.offset.y).toBeLessThan(placements.front.offset.y);
    expect(placements.side.offset.x).toBeGreaterThan(placements.front.offset.x);
  });
});

const POPPLER = spawnSync('pdfinfo', ['-v']).status === 0;
if (!POPPLER) console.log('skipping the PDF checks: poppler-utils (pdfinfo, pdfimages, pdftotext) is not installed');

describe.skipIf(!POPPLER)('the PDF of a drawing', () => {
  it('is one vector page of the sheet size: no raster images, the lettering as text', async () => {
    const outcome = await drawing('flange');
    const info = spawnSync('pdfinfo', [outcome.pdfPath], { encoding: 'utf8' }).stdout;
    expect(info).toMatch(/Pages:\s+1\b/);
    expect(info).toMatch(/Page size:\s+1191 x 842 pts \(A3\)/);
    const images = spawnSync('pdfimages', ['-list', outcome.pdfPath], { encoding: 'utf8' }).stdout.trim().split('\n');
    expect(images).toHaveLength(2); // the two header lines, no image rows
    const text = spawnSync('pdftotext', [outcome.pdfPath, '-'], { encoding: 'utf8' }).stdout;
    for (const word of ['图名', '图号', '设计', '审核', 'EQS', 'A—A']) expect(text).toContain(word);
  });
});

describe('the flange drawing', () => {
  it('carries Ø120, Ø40, 12 and 4×Ø10 EQS on a PCD Ø90 centre-line circle', async () => {
    const outcome = await drawing('flange');
    const shown = outcome.sheet.dimensions.map((d) => `${d.text.replace('%%c', 'Ø').replace('<>', String(d.value))}`);
    expect(shown.sort()).toEqual(['12', '4×Ø10 EQS', 'Ø120', 'Ø40', 'Ø90'].sort());
    const doc = parseDxfBytes(readFileSync(outcome.dxfPath), outcome.dxfPath).document;
    const centreCircles = [...doc.layouts[0]!.entities].filter((e) => e.layer === '中心线' && e.geometry.kind === 'circle');
    expect(centreCircles.map((e) => (e.geometry.kind === 'circle' ? e.geometry.radius : 0))).toContain(45);
    // The front view is the full section A–A through the bore: hatched cut faces, no hidden lines.
    const layout = doc.layouts[0]!.entities;
    expect(layout.filter((e) => e.layer === '剖面线' && e.geometry.kind === 'hatch')).toHaveLength(4);
    expect(layout.some((e) => e.geometry.kind === 'text' && e.geometry.text === 'A—A')).toBe(true);
    const frontBand = { minY: outcome.sheet.placements.front.offset.y, maxY: outcome.sheet.placements.front.offset.y + 12 };
    const hiddenInFront = layout.filter((e) => e.layer === '虚线' && e.geometry.kind === 'line' && e.geometry.a.y >= frontBand.minY - 1e-6 && e.geometry.a.y <= frontBand.maxY + 1e-6 && e.geometry.a.x < outcome.sheet.placements.side.offset.x - 60);
    expect(hiddenInFront).toEqual([]);
    expect(outcome.sheet.claims.find((c) => c.claim_id === 'volume')?.reason).toBe('not_dimensional');
    expect(outcome.sheet.claims.find((c) => c.claim_id === 'concentric')?.reason).toBe('covered_by_other_dimension');
  });
});
