// One GB A3 sheet of the review evaluation, the TypeScript twin of the clean sheet that
// scripts/samples/generate_rule_fixtures.py draws (the negative fixture of every rule): inner
// border inside the GB/T 14689 margins, zone labels, centring marks, a GB/T 10609.1 title block, a
// dimensioned plate with a bore and centre lines. Options plant what a variant needs; `extra`
// draws a planted defect. A paper sheet puts border and title block in paper space and the part
// in model space behind a viewport at 1:`partScale`, as plotted sheets are drawn.
import type { EntityWriter, Pt, Space } from './entityTags';

export type Fields = Partial<Record<'title' | 'drawingNo' | 'scale' | 'material' | 'designer' | 'weight' | 'checker' | 'date' | 'approver' | 'revision' | 'organisation' | 'sheets', string>>;

export const CLEAN_FIELDS: Fields = {
  title: '法兰盘', drawingNo: 'CS-1001', scale: '1:1', material: 'Q235', designer: '张工', weight: '1.2kg',
  checker: '李工', date: '2026-11-30', approver: '王工', revision: 'A', organisation: 'CadSight', sheets: '共 1 张 第 1 张',
};

export interface SheetOptions {
  fields: Fields;
  space: Space;
  /** Sheet origin (lower-left of the 420 × 297 sheet) in its space. */
  origin: Pt;
  centreLines?: boolean;
  /** false: no dimension; a string: the dimension's text override. */
  dimension?: false | string;
  centringMarks?: number;
  /** Paper sheets: model units per paper mm of the viewport; model sheets are drawn 1:1. */
  partScale?: number;
  /** Where the part sits in model space for a paper sheet. */
  modelCentre?: Pt;
  /** Draws no part, no dimension, no technical note (a drawing list, a cover). */
  noPart?: boolean;
  /** Upper-right corner of the inner border (default 410, 287: A3 inside the GB margins). */
  border?: Pt;
  /** Title-block fields as one text "比例 1:1" instead of label and value cells (the inline form). */
  inlineScale?: boolean;
  /** Planted content: `sheet` maps sheet mm to the sheet's space, `part` maps them to where the part is drawn. */
  extra?: (w: EntityWriter, at: Placement) => void;
}

export interface Placement {
  sheetSpace: Space;
  sheet: (x: number, y: number) => Pt;
  part: (x: number, y: number) => Pt;
  /** Drawing units per sheet mm where the part is drawn. */
  partUnits: number;
}

/** Where a generated sheet is: its layout and its 420 × 297 box, to match the review's frames. */
export interface SheetPlace {
  layout: string;
  box: { minX: number; minY: number; maxX: number; maxY: number };
}

const TITLE_ROWS: [string, keyof Fields][][] = [
  [['图名', 'title'], ['图号', 'drawingNo']], [['比例', 'scale'], ['材料', 'material']],
  [['设计', 'designer'], ['重量', 'weight']], [['审核', 'checker'], ['日期', 'date']],
  [['批准', 'approver'], ['版本', 'revision']], [['单位名称', 'organisation']],
];

/** The part's centre on the sheet and the viewport around it (paper sheets). */
const PART_CENTRE = { x: 120, y: 160 };
const VIEWPORT = { width: 180, height: 170 };

export function drawSheet(w: EntityWriter, o: SheetOptions): SheetPlace {
  const space = o.space;
  const sheet = (x: number, y: number): Pt => ({ x: o.origin.x + x, y: o.origin.y + y });
  const scale = space === 'paper' ? (o.partScale ?? 1) : 1;
  const modelCentre = o.modelCentre ?? { x: 5000, y: 5000 };
  const part = space === 'paper' ? (x: number, y: number): Pt => ({ x: modelCentre.x + (x - PART_CENTRE.x) * scale, y: modelCentre.y + (y - PART_CENTRE.y) * scale }) : sheet;
  const partSpace: Space = 'model';
  const text = (value: string, x: number, y: number, h = 3.5): void => w.text(value, sheet(x, y), h, '文字', space);

  const border = o.border ?? { x: 410, y: 287 };
  w.rectangle(sheet(10, 10), sheet(border.x, border.y), '图框', space);
  'ABC'.split('').forEach((label, i) => text(label, 4, 60 + 90 * i));
  '1234'.split('').forEach((label, i) => text(label, 60 + 100 * i, 290));
  const marks: [Pt, Pt][] = [[{ x: 210, y: 0 }, { x: 210, y: 15 }], [{ x: 210, y: 282 }, { x: 210, y: 297 }], [{ x: 0, y: 148.5 }, { x: 15, y: 148.5 }], [{ x: 405, y: 148.5 }, { x: 420, y: 148.5 }]];
  for (const [a, b] of marks.slice(0, o.centringMarks ?? 4)) w.line(sheet(a.x, a.y), sheet(b.x, b.y), '图框', space);

  // The title block sits in the border's lower-right corner, wherever the border ends.
  const tb = (x: number, y: number): Pt => sheet(x + border.x - 410, y);
  const tbText = (value: string, x: number, y: number): void => w.text(value, tb(x, y), 3.5, '文字', space);
  TITLE_ROWS.forEach((row, r) => {
    const y = 56 - 8 * r;
    row.forEach(([label, key], c) => {
      const value = o.fields[key];
      if (value === undefined) return;
      const x = 232 + 98 * c;
      if (key === 'scale' && o.inlineScale) {
        tbText(`${label} ${value}`, x, y);
        return;
      }
      tbText(label, x, y);
      if (value !== '') tbText(value, x + 20, y);
    });
  });
  if (o.fields.sheets) tbText(o.fields.sheets, 330, 16);
  for (const y of [10, 66]) w.line(tb(230, y), tb(410, y), '图框', space);
  w.line(tb(230, 10), tb(230, 66), '图框', space);

  if (!o.noPart) {
    const corners: [number, number][] = [[60, 100], [180, 100], [180, 220], [60, 220]];
    corners.forEach(([x1, y1], i) => {
      const [x2, y2] = corners[(i + 1) % 4]!;
      w.line(part(x1, y1), part(x2, y2), '粗实线', partSpace);
    });
    for (let i = 0; i < 24; i++) {
      const a1 = (2 * Math.PI * i) / 24;
      const a2 = (2 * Math.PI * (i + 1)) / 24;
      w.line(part(120 + 45 * Math.cos(a1), 160 + 45 * Math.sin(a1)), part(120 + 45 * Math.cos(a2), 160 + 45 * Math.sin(a2)), '粗实线', partSpace);
    }
    w.circle(part(120, 160), 30 * scale, '粗实线', partSpace);
    if (o.centreLines ?? true) {
      w.line(part(85, 160), part(155, 160), '中心线', partSpace);
      w.line(part(120, 125), part(120, 195), '中心线', partSpace);
    }
    if (o.dimension !== false) w.dimension(part(60, 100), part(180, 100), part(120, 85).y, o.dimension ?? '', '尺寸线', partSpace);
    text('技术要求：未注倒角 C1。', 40, 60, 5);
    if (space === 'paper') w.viewport(sheet(PART_CENTRE.x, PART_CENTRE.y), VIEWPORT.width, VIEWPORT.height, modelCentre, scale, 2);
  }
  o.extra?.(w, { sheetSpace: space, sheet, part, partUnits: scale });
  return { layout: space === 'paper' ? 'Layout1' : 'Model', box: { minX: o.origin.x, minY: o.origin.y, maxX: o.origin.x + Math.max(420, border.x + 10), maxY: o.origin.y + Math.max(297, border.y + 10) } };
}
