import type { SheetEntity, SheetPoint } from '../../../../../shared/drawingSheet';

export type SheetFormat = 'A4' | 'A3' | 'A2';
export type SheetLanguage = 'zh-CN' | 'en';

/** GB/T 14689 landscape sizes (mm) and the margin c (a = 25 mm binding margin on the left). */
export const SHEET_FORMATS: Record<SheetFormat, { width: number; height: number; margin: number }> = {
  A4: { width: 297, height: 210, margin: 5 },
  A3: { width: 420, height: 297, margin: 5 },
  A2: { width: 594, height: 420, margin: 10 },
};
export const BINDING_MARGIN = 25;
/** GB/T 10609.1 title block: 180 mm wide, 7 rows of 8 mm. */
export const TITLE_BLOCK = { width: 180, rowHeight: 8, rows: 7 };

export interface TitleBlockValues {
  title: string;
  drawingNo: string;
  scale: string;
  material: string | null;
  date: string;
  revision: string;
}

const LABELS: Record<SheetLanguage, { title: string; drawingNo: string; scale: string; material: string; designer: string; checker: string; date: string; revision: string; sheets: (n: number, m: number) => string; general: string }> = {
  'zh-CN': { title: '图名', drawingNo: '图号', scale: '比例', material: '材料', designer: '设计', checker: '审核', date: '日期', revision: '版本', sheets: (n, m) => `共 ${n} 张 第 ${m} 张`, general: '未注尺寸公差按 GB/T 1804-m' },
  en: { title: 'Title', drawingNo: 'Drawing No.', scale: 'Scale', material: 'Material', designer: 'Drawn', checker: 'Checked', date: 'Date', revision: 'Revision', sheets: (n, m) => `Sheet ${m} of ${n}`, general: 'General tolerances GB/T 1804-m' },
};

/** Paper millimetres → model units at scale factor k, from the sheet origin. */
const at = (k: number, x: number, y: number): SheetPoint => ({ x: x * k, y: y * k });

/**
 * Trimmed edge (细实线), border with the binding margin (图框, 0.5 mm), centring marks from the
 * trimmed edge 5 mm into the border at the middle of each side, the title block with its labels
 * and values in 3.5/5 mm lettering, the general-tolerance note and the first-angle symbol.
 */
export function frameEntities(format: SheetFormat, k: number, values: TitleBlockValues, lang: SheetLanguage, method: 'first_angle' | 'third_angle'): SheetEntity[] {
  const { width: W, height: H, margin: c } = SHEET_FORMATS[format];
  const L = LABELS[lang];
  const out: SheetEntity[] = [];
  const rect = (x0: number, y0: number, x1: number, y1: number, layer: '图框' | '细实线'): void => {
    out.push({ kind: 'polyline', layer, closed: true, points: [at(k, x0, y0), at(k, x1, y0), at(k, x1, y1), at(k, x0, y1)] });
  };
  const line = (x0: number, y0: number, x1: number, y1: number, layer: '图框' | '细实线' = '细实线'): void => void out.push({ kind: 'line', layer, from: at(k, x0, y0), to: at(k, x1, y1) });
  const text = (x: number, y: number, value: string, height = 3.5, align: 'left' | 'center' | 'middle' = 'left'): void => void out.push({ kind: 'text', layer: '文字', at: at(k, x, y), height: height * k, text: value, align });
  rect(0, 0, W, H, '细实线');
  const bx0 = BINDING_MARGIN;
  const by0 = c;
  const bx1 = W - c;
  const by1 = H - c;
  rect(bx0, by0, bx1, by1, '图框');
  // Centring marks: 0.5 mm lines from the trimmed edge to 5 mm inside the border.
  line(W / 2, 0, W / 2, by0 + 5, '图框');
  line(W / 2, H, W / 2, by1 - 5, '图框');
  line(0, H / 2, bx0 + 5, H / 2, '图框');
  line(W, H / 2, bx1 - 5, H / 2, '图框');

  const { width: tw, rowHeight: rh, rows } = TITLE_BLOCK;
  const tx0 = bx1 - tw;
  rect(tx0, by0, bx1, by0 + rows * rh, '图框');
  const labelW = 22;
  const half = tw / 2;
  for (let i = 1; i < rows; i++) line(tx0, by0 + i * rh, bx1, by0 + i * rh);
  line(tx0 + labelW, by0, tx0 + labelW, by0 + rows * rh);
  line(tx0 + half, by0, tx0 + half, by0 + 3 * rh);
  line(tx0 + half + labelW, by0, tx0 + half + labelW, by0 + 3 * rh);
  const row = (i: number): number => by0 + (rows - 1 - i) * rh + 2.25;
  // Rows from the top: title, drawing number, scale, material; then designer | date, checker | revision, sheets.
  text(tx0 + 2, row(0), L.title);
  text(tx0 + labelW + 3, row(0), values.title, 5);
  text(tx0 + 2, row(1), L.drawingNo);
  text(tx0 + labelW + 3, row(1), values.drawingNo);
  text(tx0 + 2, row(2), L.scale);
  text(tx0 + labelW + 3, row(2), values.scale);
  text(tx0 + 2, row(3), L.material);
  if (values.material) text(tx0 + labelW + 3, row(3), values.material);
  text(tx0 + 2, row(4), L.designer);
  text(tx0 + half + 2, row(4), L.date);
  text(tx0 + half + labelW + 3, row(4), values.date);
  text(tx0 + 2, row(5), L.checker);
  text(tx0 + half + 2, row(5), L.revision);
  text(tx0 + half + labelW + 3, row(5), values.revision);
  text(tx0 + labelW + 3, row(6), L.sheets(1, 1));

  // General tolerance note above the title block; projection symbol at its left.
  text(tx0, by0 + rows * rh + 4, L.general);
  out.push(...projectionSymbol(k, bx1 - 22, by0 + rh / 2, method));
  return out;
}

/**
 * The GB/T 14692 projection symbol (h = 4 mm, to sit in an 8 mm title-block row): a truncated cone seen from the front (trapezium)
 * and end-on (two circles with a centre line), the circles right of the trapezium for first angle.
 */
function projectionSymbol(k: number, cx: number, cy: number, method: 'first_angle' | 'third_angle'): SheetEntity[] {
  const h = 4;
  const side = method === 'first_angle' ? 1 : -1;
  const tx = cx - side * h;
  const ex = cx + side * h;
  const out: SheetEntity[] = [];
  const pts = [at(k, tx - h / 2, cy - h / 4), at(k, tx + h / 2, cy - h / 2), at(k, tx + h / 2, cy + h / 2), at(k, tx - h / 2, cy + h / 4)];
  if (side < 0) pts.forEach((p, i) => (pts[i] = { x: 2 * tx * k - p.x, y: p.y }));
  out.push({ kind: 'polyline', layer: '粗实线', closed: true, points: pts });
  out.push({ kind: 'circle', layer: '粗实线', center: at(k, ex, cy), radius: (h / 2) * k });
  out.push({ kind: 'circle', layer: '粗实线', center: at(k, ex, cy), radius: (h / 4) * k });
  out.push({ kind: 'line', layer: '中心线', from: at(k, tx - h / 2 - 2, cy), to: at(k, ex + h / 2 + 2, cy) });
  out.push({ kind: 'line', layer: '中心线', from: at(k, ex, cy - h / 2 - 2), to: at(k, ex, cy + h / 2 + 2) });
  return out;
}
