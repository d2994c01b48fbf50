// The generated half of the review evaluation corpus: GB A3 sheets with one planted defect each
// (labelled with the rule that must find it), clean sheets and near-miss decoys (labelled with no
// rule: a finding there is a false positive), paper-space sheets behind a viewport, and drawing
// sets with a 图纸目录 (drawing list) — one consistent, others with a missing, an extra and a
// mistitled sheet. Each file is written through the project's DXF writer onto the template.
import { EntityWriter, type Pt, type Space } from './entityTags';
import { CLEAN_FIELDS, drawSheet, type Fields, type Placement, type SheetOptions, type SheetPlace } from './sheets';

export interface LabelledSheet extends SheetPlace {
  /** Rule items that must fire on this sheet (empty: a clean sheet or a decoy). */
  expected: string[];
  space: Space;
  note: string;
}

export interface GeneratedFile {
  file: string;
  sheets: LabelledSheet[];
  /** Drawing-level rule items that must fire on the file (GEO-003, SET-001, SET-002, …). */
  drawingExpected: string[];
  space: Space;
  text: string;
}

interface Variant {
  name: string;
  expected: string[];
  drawingExpected?: string[];
  note: string;
  options?: Partial<SheetOptions>;
  fields?: Fields;
  /** Layers added to the file's layer table (Continuous linetype). */
  layers?: string[];
  /** Text appended after the file's EOF marker (damage a reader must repair). */
  trailer?: string;
}

const extra = (draw: (w: EntityWriter, at: Placement) => void): Partial<SheetOptions> => ({ extra: draw });
const without = (...keys: (keyof Fields)[]): Fields => Object.fromEntries(Object.entries(CLEAN_FIELDS).filter(([k]) => !keys.includes(k as keyof Fields)));
const offSeriesTexts = (heights: number[]) => extra((w, at) => heights.forEach((h, i) => w.text(`注${i + 1}：表面发蓝处理`, at.sheet(250, 120 + 12 * i), h, '文字', at.sheetSpace)));

/** Sheets with one planted defect, two variants per rule, and the decoys and clean sheets. */
const SINGLE_SHEETS: Variant[] = [
  { name: 'clean-a', expected: [], note: 'clean GB sheet' },
  { name: 'clean-b', expected: [], note: 'clean, other title and number', fields: { ...CLEAN_FIELDS, title: '端盖', drawingNo: 'CS-2002' } },
  { name: 'clean-c', expected: [], note: 'clean, scale written "1 : 1"', fields: { ...CLEAN_FIELDS, scale: '1 : 1' } },
  { name: 'clean-inline-scale', expected: [], note: 'decoy: scale as one text "比例 1:1"', options: { inlineScale: true } },
  { name: 'decoy-short-line', expected: [], note: 'decoy: a 0.5 mm line is short, not zero-length', options: extra((w, at) => w.line(at.part(70, 110), at.part(70.5, 110), '粗实线', 'model')) },
  { name: 'decoy-overlap', expected: [], note: 'decoy: collinear lines of different length are no duplicates', options: extra((w, at) => w.line(at.part(60, 100), at.part(120, 100), '细实线', 'model')) },
  { name: 'decoy-series-heights', expected: [], note: 'decoy: notes at 5 and 7 mm are on the series', options: offSeriesTexts([5, 7]) },
  { name: 'decoy-equal-override', expected: [], note: 'decoy: a dimension override equal to the measurement', options: { dimension: '120' } },
  { name: 'decoy-margin-text', expected: [], note: 'decoy: a note between border and sheet edge is on the sheet', options: extra((w, at) => w.text('A3', at.sheet(395, 3), 3.5, '文字', at.sheetSpace)) },
  { name: 'GEO-001-a', expected: ['GEO-001'], note: 'a zero-length line', options: extra((w, at) => w.line(at.part(100, 140), at.part(100, 140), '粗实线', 'model')) },
  { name: 'GEO-001-b', expected: ['GEO-001'], note: 'two zero-length lines', options: extra((w, at) => [150, 170].forEach((x) => w.line(at.part(x, 200), at.part(x, 200), '粗实线', 'model'))) },
  { name: 'GEO-002-a', expected: ['GEO-002'], note: 'a duplicated outline line', options: extra((w, at) => w.line(at.part(60, 100), at.part(180, 100), '粗实线', 'model')) },
  { name: 'GEO-002-b', expected: ['GEO-002'], note: 'a duplicated bore circle', options: extra((w, at) => w.circle(at.part(120, 160), 30 * at.partUnits, '粗实线', 'model')) },
  { name: 'LAY-001-a', expected: ['LAY-001'], note: 'a line on layer 0', options: extra((w, at) => w.line(at.part(70, 200), at.part(90, 200), '0', 'model')) },
  { name: 'LAY-001-b', expected: ['LAY-001'], note: 'a rectangle on layer 0', options: extra((w, at) => w.rectangle(at.part(150, 110), at.part(170, 120), '0', 'model')) },
  { name: 'TXT-001-a', expected: ['TXT-001'], note: 'a note 4.2 mm high', options: offSeriesTexts([4.2]) },
  { name: 'TXT-001-b', expected: ['TXT-001'], note: 'three notes 6 mm high (one grouped finding)', options: offSeriesTexts([6, 6, 6]) },
  { name: 'DIM-001-a', expected: ['DIM-001'], note: 'dimension text overridden to 125 (measures 120)', options: { dimension: '125' } },
  { name: 'DIM-001-b', expected: ['DIM-001'], note: 'dimension text overridden to 100', options: { dimension: '100' } },
  { name: 'TB-001-a', expected: ['TB-001'], note: 'designer cell empty', fields: { ...CLEAN_FIELDS, designer: '' } },
  { name: 'TB-001-b', expected: ['TB-001'], note: 'designer and checker cells empty (one grouped finding)', fields: { ...CLEAN_FIELDS, designer: '', checker: '' } },
  { name: 'DIM-003-a', expected: ['DIM-003'], note: 'no dimension', options: { dimension: false } },
  { name: 'DIM-003-b', expected: ['DIM-003'], note: 'no dimension, other title', options: { dimension: false }, fields: { ...CLEAN_FIELDS, title: '垫片', drawingNo: 'CS-3003' } },
  { name: 'GEO-003-a', expected: [], drawingExpected: ['GEO-003'], note: 'a circle outside the sheet', options: extra((w, at) => w.circle(at.part(700, 150), 20 * at.partUnits, '粗实线', 'model')) },
  { name: 'GEO-003-b', expected: [], drawingExpected: ['GEO-003'], note: 'a line far outside the sheet', options: extra((w, at) => w.line(at.part(-300, -200), at.part(-250, -200), '粗实线', 'model')) },
  { name: 'SCL-001-a', expected: ['SCL-001'], note: 'scale 1:3.5 is no preferred scale', fields: { ...CLEAN_FIELDS, scale: '1:3.5' } },
  { name: 'SCL-001-b', expected: ['SCL-001'], note: 'scale 1:7 is no preferred scale', fields: { ...CLEAN_FIELDS, scale: '1:7' } },
  { name: 'TB-002-a', expected: ['TB-002'], note: 'no 材料 and 重量 fields', fields: without('material', 'weight') },
  { name: 'TB-002-b', expected: ['TB-002'], note: 'no 单位名称 field', fields: without('organisation') },
  { name: 'GEO-004-a', expected: ['GEO-004'], note: 'bore without centre lines', options: { centreLines: false } },
  { name: 'GEO-004-b', expected: ['GEO-004'], note: 'bore without centre lines, other title', options: { centreLines: false }, fields: { ...CLEAN_FIELDS, title: '压盖', drawingNo: 'CS-4004' } },
  { name: 'SHT-002-a', expected: ['SHT-002'], note: 'left and right centring marks missing', options: { centringMarks: 2 } },
  { name: 'SHT-002-b', expected: ['SHT-002'], note: 'no centring marks', options: { centringMarks: 0 } },
  { name: 'TXT-002-a', expected: ['TXT-002'], note: 'a note in the Standard style (txt.shx)', options: extra((w, at) => w.text('去毛刺', at.sheet(40, 50), 5, '文字', at.sheetSpace, 'Standard')) },
  { name: 'LAY-002-a', expected: ['LAY-002'], note: 'a centre-line layer drawn Continuous', layers: ['中心线-2'], options: extra((w, at) => w.line(at.part(120, 90), at.part(120, 230), '中心线-2', 'model')) },
  { name: 'LAY-002-b', expected: ['LAY-002'], note: 'a hidden-line layer drawn Continuous', layers: ['虚线-2'], options: extra((w, at) => w.line(at.part(70, 150), at.part(90, 150), '虚线-2', 'model')) },
  { name: 'DXF-001-a', expected: [], drawingExpected: ['DXF-001'], note: 'data after the EOF marker', trailer: '  0\nLINE\n  8\n0\n' },
  { name: 'DXF-001-b', expected: [], drawingExpected: ['DXF-001'], note: 'a second EOF section after the end', trailer: '  0\nSECTION\n  2\nENTITIES\n' },
  { name: 'SHT-001-a', expected: ['SHT-001'], note: 'a 500 × 300 border at 1:1 is no standard sheet', options: { border: { x: 510, y: 310 } } },
  { name: 'SHT-001-b', expected: ['SHT-001'], note: 'a 600 × 300 border at 1:1 is no standard sheet', options: { border: { x: 610, y: 310 } } },
  { name: 'TXT-002-b', expected: ['TXT-002'], note: 'two notes in the Standard style', options: extra((w, at) => [250, 270].forEach((y) => w.text('锐边倒钝', at.sheet(250, y), 5, '文字', at.sheetSpace, 'Standard'))) },
];

/** Paper-space sheets: border and title block in Layout1, the part in model space behind a 1:2 viewport. */
const PAPER_SHEETS: Variant[] = [
  { name: 'clean-a', expected: [], note: 'clean paper sheet, part behind a 1:2 viewport', fields: { ...CLEAN_FIELDS, scale: '1:2' } },
  { name: 'clean-b', expected: [], note: 'clean paper sheet, other title', fields: { ...CLEAN_FIELDS, scale: '1:2', title: '端盖', drawingNo: 'CS-2002' } },
  { name: 'decoy-viewport-caption', expected: [], note: 'decoy: a "Rectangular Viewport" caption on Defpoints is no title', fields: { ...CLEAN_FIELDS, scale: '1:2' }, options: extra((w, at) => w.text('Rectangular Viewport', at.sheet(300, 40), 7, 'Defpoints', 'paper')) },
  { name: 'decoy-scale-label', expected: [], note: 'decoy: scale written "比例 1:2" in one text', fields: { ...CLEAN_FIELDS, scale: '1:2' }, options: { inlineScale: true } },
  { name: 'GEO-001', expected: ['GEO-001'], note: 'a zero-length line in paper space', fields: { ...CLEAN_FIELDS, scale: '1:2' }, options: extra((w, at) => w.line(at.sheet(300, 200), at.sheet(300, 200), '粗实线', 'paper')) },
  { name: 'GEO-002', expected: ['GEO-002'], note: 'a duplicated title-block line in paper space', fields: { ...CLEAN_FIELDS, scale: '1:2' }, options: extra((w, at) => w.line(at.sheet(230, 66), at.sheet(410, 66), '图框', 'paper')) },
  { name: 'LAY-001', expected: ['LAY-001'], note: 'a paper-space line on layer 0', fields: { ...CLEAN_FIELDS, scale: '1:2' }, options: extra((w, at) => w.line(at.sheet(300, 200), at.sheet(340, 200), '0', 'paper')) },
  { name: 'TXT-001', expected: ['TXT-001'], note: 'paper notes 4.2 mm high', fields: { ...CLEAN_FIELDS, scale: '1:2' }, options: offSeriesTexts([4.2, 4.2]) },
  { name: 'TB-001', expected: ['TB-001'], note: 'designer cell empty', fields: { ...CLEAN_FIELDS, scale: '1:2', designer: '' } },
  { name: 'TB-002', expected: ['TB-002'], note: 'no 材料 and 重量 fields', fields: { ...without('material', 'weight'), scale: '1:2' } },
  { name: 'SCL-001', expected: ['SCL-001'], note: 'title says 1:3.5', fields: { ...CLEAN_FIELDS, scale: '1:3.5' }, options: { partScale: 3.5 } },
  { name: 'DIM-001', expected: ['DIM-001'], note: 'a wrong dimension override in model space behind the viewport', fields: { ...CLEAN_FIELDS, scale: '1:2' }, options: { dimension: '250' } },
  { name: 'SHT-002', expected: ['SHT-002'], note: 'paper sheet without its left and right centring marks', fields: { ...CLEAN_FIELDS, scale: '1:2' }, options: { centringMarks: 2 } },
];

const SHEET_TITLES = ['总平面图', '一层平面图', '二层平面图', '三层平面图', '屋顶平面图', '南立面图', '北立面图', '东立面图', '1-1 剖面图', '节点详图', '楼梯详图', '门窗表'];
const number = (k: number): string => `JS-${String(k).padStart(2, '0')}`;

interface SetPlan {
  name: string;
  /** Sheets drawn (number → title on the sheet). */
  present: [string, string][];
  /** Rows of the drawing list (number → listed title). */
  listed: [string, string][];
  expected: string[];
  note: string;
}

function setPlan(name: string, size: number, change: { drop?: number; extra?: number; retitle?: number }, note: string): SetPlan {
  const sheets: [string, string][] = Array.from({ length: size }, (_, i) => [number(i + 1), SHEET_TITLES[i % SHEET_TITLES.length]!]);
  const listed = sheets.map(([no, title], i): [string, string] => [no, i + 1 === change.retitle ? `${title}（修改）` : title]);
  let present = sheets.filter((_, i) => i + 1 !== change.drop);
  if (change.extra !== undefined) present = [...present, [number(change.extra), '附加详图']];
  return { name, present, listed, expected: change.drop || change.extra || change.retitle ? ['SET-002'] : [], note };
}

const SETS: SetPlan[] = [
  setPlan('set-consistent', 10, {}, 'a 10-sheet set whose 图纸目录 lists exactly its sheets'),
  setPlan('set-three-issues', 10, { drop: 10, extra: 12, retitle: 3 }, 'listed JS-10 missing, JS-12 not listed, JS-03 titled differently'),
  setPlan('set-missing', 4, { drop: 2 }, 'listed JS-02 missing'),
  setPlan('set-extra', 4, { extra: 9 }, 'JS-09 present but not listed'),
  setPlan('set-retitled', 4, { retitle: 1 }, 'JS-01 titled differently in the list'),
];

/** The drawing list sheet: a table 序号 | 图号 | 图名 | 图幅 above the title block. */
function drawList(w: EntityWriter, origin: Pt, listed: [string, string][]): void {
  const at = (x: number, y: number): Pt => ({ x: origin.x + x, y: origin.y + y });
  const head: [string, number][] = [['序号', 30], ['图号', 60], ['图名', 110], ['图幅', 200]];
  for (const [label, x] of head) w.text(label, at(x, 260), 5, '文字');
  listed.forEach(([no, title], i) => {
    const y = 248 - 10 * i;
    w.text(String(i + 1), at(32, y), 3.5, '文字');
    w.text(no, at(60, y), 3.5, '文字');
    w.text(title, at(110, y), 3.5, '文字');
    w.text('A3', at(200, y), 3.5, '文字');
  });
}

/** Every generated file of the corpus, written onto `template` (a fresh writer per file). */
export function generateCorpus(newWriter: () => EntityWriter): GeneratedFile[] {
  const files: GeneratedFile[] = [];
  const single = (space: Space, v: Variant): void => {
    const w = newWriter();
    const fields = v.fields ?? CLEAN_FIELDS;
    const place = drawSheet(w, { fields, space, origin: { x: 0, y: 0 }, ...(space === 'paper' ? { partScale: 2 } : {}), ...v.options });
    const layers = [...(space === 'paper' ? ['VIEWPORTS', 'Defpoints'] : []), ...(v.layers ?? [])];
    files.push({ file: `${space}-${v.name}.dxf`, sheets: [{ ...place, expected: v.expected, space, note: v.note }], drawingExpected: v.drawingExpected ?? [], space, text: w.serialise(layers) + (v.trailer ?? '') });
  };
  for (const v of SINGLE_SHEETS) single('model', v);
  for (const v of PAPER_SHEETS) single('paper', v);
  // SET-001 within one drawing: two sheets with one number (positive) and two numbered 1 of 2 (positive).
  for (const [name, second, note] of [
    ['SET-001-duplicate-number', { ...CLEAN_FIELDS, title: '法兰盖', sheets: '共 2 张 第 2 张' }, 'two sheets share 图号 CS-1001'],
    ['SET-001-sheet-numbers', { ...CLEAN_FIELDS, title: '法兰盖', drawingNo: 'CS-1002', sheets: '共 2 张 第 1 张' }, 'both sheets say 第 1 张 of 2'],
    ['SET-001-decoy', { ...CLEAN_FIELDS, title: '法兰盖', drawingNo: 'CS-1002', sheets: '共 2 张 第 2 张' }, 'decoy: two sheets numbered 1 and 2 of 2'],
  ] as [string, Fields, string][]) {
    const w = newWriter();
    const a = drawSheet(w, { fields: { ...CLEAN_FIELDS, sheets: '共 2 张 第 1 张' }, space: 'model', origin: { x: 0, y: 0 } });
    const b = drawSheet(w, { fields: second, space: 'model', origin: { x: 450, y: 0 } });
    const expected = name.endsWith('decoy') ? [] : ['SET-001'];
    files.push({ file: `model-${name}.dxf`, sheets: [{ ...a, expected: [], space: 'model', note }, { ...b, expected: [], space: 'model', note }], drawingExpected: expected, space: 'model', text: w.serialise() });
  }
  for (const plan of SETS) {
    const w = newWriter();
    const total = plan.present.length + 1;
    const sheets: LabelledSheet[] = [];
    const list = drawSheet(w, { fields: { ...CLEAN_FIELDS, title: '图纸目录', drawingNo: 'JS-00', scale: '1:1', sheets: `共 ${total} 张 第 1 张` }, space: 'model', origin: { x: 0, y: 0 }, noPart: true });
    drawList(w, { x: 0, y: 0 }, plan.listed);
    sheets.push({ ...list, expected: [], space: 'model', note: `${plan.name}: the drawing list` });
    plan.present.forEach(([no, title], i) => {
      const place = drawSheet(w, { fields: { ...CLEAN_FIELDS, title, drawingNo: no, sheets: `共 ${total} 张 第 ${i + 2} 张` }, space: 'model', origin: { x: 450 * (i + 1), y: 0 } });
      sheets.push({ ...place, expected: [], space: 'model', note: `${plan.name}: ${no} ${title}` });
    });
    files.push({ file: `model-${plan.name}.dxf`, sheets, drawingExpected: plan.expected, space: 'model', text: w.serialise() });
  }
  return files;
}
