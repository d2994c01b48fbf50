import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCdslCatalog, createOcctRuntime, OCCT_OPERATION_IDS, type CadRuntime, type Claim } from '../../features/cadgen/index';
import { DrawingIndex, findFrames, measureDimension, parseDxfBytes } from '../../features/drawing/index';
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
def tol(d):
    ov = d.override()
    return {"on": ov.get("dimtol", 0), "tp": ov.get("dimtp", 0), "tm": ov.get("dimtm", 0)}
def pts(d):
    return [[p.x, p.y] for p in (d.dxf.get("defpoint2"), d.dxf.get("defpoint3")) if p is not None]
dims = [{"m": d.get_measurement(), "text": d.dxf.text, "type": d.dimtype & 7, "angle": d.dxf.get("angle", 0), "tol": tol(d), "pts": pts(d)} for d in doc.modelspace().query("DIMENSION")]
print(json.dumps({"errors": [str(e.message) for e in auditor.errors], "dims": dims}))
`;
interface EzdxfDimension {
  m: number;
  text: string;
  /** 0 linear, 2 angular (2-line), 3 diameter, 4 radius, 5 angular (3-point). */
  type: number;
  angle: number;
  tol: { on: number; tp: number; tm: number };
  /** Linear dimensions: the two definition points (13, 14). */
  pts: [number, number][];
}
function ezdxf(file: string): { errors: string[]; dims: EzdxfDimension[] } {
  const run = spawnSync('/usr/bin/python3', ['-c', EZDXF, file], { encoding: 'utf8' });
  expect(run.status, run.stderr).toBe(0);
  return JSON.parse(run.stdout);
}

const outcomes = new Map<string, PartDrawingOutcome>();
async function drawing(name: string, extraClaims: Claim[] = []): Promise<PartDrawingOutcome> {
  const key = `${name}${extraClaims.map((c) => `+${c.id}`).join('')}`;
  const cached = outcomes.get(key);
  if (cached) return cached;
  const document = catalog.validateDocument(JSON.parse(readFileSync(path.join(examples, `${name}.json`), 'utf8')));
  const claims = [...(JSON.parse(readFileSync(path.join(examples, `${name}.claims.json`), 'utf8')) as { claims: Claim[] }).claims, ...extraClaims];
  const outcome = await writePartDrawing(
    { runtime, store },
    { document, claims, method: 'first_angle', format: 'auto', lang: 'zh-CN', titleBlock: { title: `${name} 零件`, drawingNo: `CS-${name.toUpperCase()}-001`, material: 'Q235', date: '2026-12-04', revision: 'rev_003' } },
    path.join(dir, key),
  );
  outcomes.set(key, outcome);
  return outcome;
}

beforeAll(() => {
  runtime = createOcctRuntime({ workerScript: path.join(root, 'dist/node/occtWorker.js') });
});
afterAll(async () => {
  await runtime.dispose();
  db.close();
  // CDSL_KEEP_DRAWINGS=<folder> keeps the sheets to look at (DXF, PDF, report per example).
  if (process.env.CDSL_KEEP_DRAWINGS) cpSync(dir, process.env.CDSL_KEEP_DRAWINGS, { recursive: true });
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
      const angles = read.dims.filter((d) => d.type === 2 || d.type === 5).map((d) => d.m);
      for (const value of claim.values_deg ?? []) expect(angles.some((m) => Math.abs(m - value) < 1e-6), `${claim.claim_id} ${value}° in ${angles.join(', ')}`).toBe(true);
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

describe('the plate with a grid of holes', () => {
  it('fits an A4 sheet at 1:1 and locates every hole from the datum edges by one chain per direction, measured the same by ezdxf and by our reader', async () => {
    const outcome = await drawing('plate_hole_grid');
    expect(outcome.sheet).toMatchObject({ format: 'A4', scale: '1:1' });
    // Holes at x = −30, 0, 30 and y = −15, 15 on a 100 × 60 plate: 20, 30, 30 from the left edge, 15, 30 from the front edge.
    const locations = outcome.sheet.dimensions.filter((d) => d.kind === 'location');
    const read = ezdxf(outcome.dxfPath);
    const top = outcome.sheet.placements.top.offset;
    const chain = (angle: number): EzdxfDimension[] => read.dims.filter((d) => d.type === 0 && Math.abs(d.angle - angle) < 1e-9 && d.pts.every(([x, y]) => y <= top.y + 30 + 1e-6 && x <= top.x + 50 + 1e-6));
    const horizontal = chain(0).sort((a, b) => Math.min(a.pts[0]![0], a.pts[1]![0]) - Math.min(b.pts[0]![0], b.pts[1]![0]));
    const vertical = chain(90).sort((a, b) => Math.min(a.pts[0]![1], a.pts[1]![1]) - Math.min(b.pts[0]![1], b.pts[1]![1]));
    expect(horizontal.map((d) => d.m)).toEqual([20, 30, 30]);
    expect(vertical.map((d) => d.m)).toEqual([15, 30]);
    expect(locations.map((d) => d.value).sort((a, b) => a - b)).toEqual([15, 20, 30, 30, 30]);
    // The chain starts on the datum edge (x = −50 / y = −30) and ends on each hole's centre.
    const xs = [...new Set(horizontal.flatMap((d) => d.pts.map(([x]) => Number((x - top.x).toFixed(6)))))].sort((a, b) => a - b);
    const ys = [...new Set(vertical.flatMap((d) => d.pts.map(([, y]) => Number((y - top.y).toFixed(6)))))].sort((a, b) => a - b);
    expect(xs).toEqual([-50, -30, 0, 30]);
    expect(ys).toEqual([-30, -15, 15]);
    // Our own measured-dimension code reads the same values from the definition points.
    const doc = parseDxfBytes(readFileSync(outcome.dxfPath), outcome.dxfPath).document;
    const ours = doc.layouts[0]!.entities.flatMap((e) => measureDimension(doc, e) ?? []).map((m) => m.measured);
    expect(ours.sort()).toEqual(read.dims.map((d) => d.m).sort());
    // The holes' callout is one "6×Ø6" for the six equal holes, the claims point at their chains.
    expect(outcome.sheet.dimensions.filter((d) => d.kind === 'diameter').map((d) => d.text)).toEqual(['6×%%c<>']);
    expect(outcome.sheet.claims.find((c) => c.claim_id === 'corner_hole')!.dimensions.length).toBeGreaterThan(1);
  });
});

describe('radius, angle and tolerance claims', () => {
  it('become a radial R5 on the bracket’s inside fillet, a 135° angular dimension on the chamfer and a Ø8 ±0.015 with DIMTOL set', async () => {
    const bracket = ezdxf((await drawing('l_bracket')).dxfPath);
    const radial = bracket.dims.filter((d) => d.type === 4);
    expect(radial.map((d) => d.text)).toEqual(['R<>']);
    expect(radial[0]!.m).toBeCloseTo(5, 6);
    const block = await drawing('chamfered_block');
    const read = ezdxf(block.dxfPath);
    const angular = read.dims.filter((d) => d.type === 2 || d.type === 5);
    expect(angular).toHaveLength(1);
    expect(angular[0]!.m).toBeCloseTo(135, 6);
    const bore = read.dims.find((d) => d.type === 3)!;
    expect(bore.m).toBeCloseTo(8, 6);
    expect(bore.tol).toEqual({ on: 1, tp: 0.015, tm: 0.015 });
    // Only the claim with a workshop tolerance carries one: the 0.001 mm verification precision does not.
    expect(read.dims.filter((d) => d.tol.on === 1)).toHaveLength(1);
    expect(block.sheet.claims.find((c) => c.claim_id === 'chamfer_angle')).toMatchObject({ values_deg: [135], dimensions: [expect.any(String)] });
    expect(block.sheet.claims.find((c) => c.claim_id === 'chamfer_angle')!.reason).toBeUndefined();
  });

  it('lists a claim that cannot be dimensioned with its typed reason instead of drawing something else', async () => {
    const outcome = await drawing('l_bracket', [
      { id: 'no_such_angle', kind: 'face_angle_deg', expected: { edge_direction: [0, 1, 0], angle_deg: 60, tolerance_deg: 0.01 } },
      { id: 'oblique_edge', kind: 'face_angle_deg', expected: { edge_direction: [1, 1, 0], angle_deg: 90, tolerance_deg: 0.01 } },
      { id: 'no_convex_fillet', kind: 'fillet_radius', expected: { radius_mm: 5, convexity: 'convex', tolerance_mm: 0.001 } },
    ]);
    const reasons = Object.fromEntries(outcome.sheet.claims.map((c) => [c.claim_id, c.reason]));
    expect(reasons).toMatchObject({ no_such_angle: 'geometry_not_found', oblique_edge: 'not_seen_end_on', no_convex_fillet: 'geometry_not_found' });
    const report = JSON.parse(readFileSync(outcome.reportPath, 'utf8')) as { claims: { claim_id: string; reason?: string; dimensions: string[] }[] };
    expect(report.claims.find((c) => c.claim_id === 'no_such_angle')).toMatchObject({ reason: 'geometry_not_found', dimensions: [] });
  });
});
