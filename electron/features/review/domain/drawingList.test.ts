import { describe, expect, it } from 'vitest';
import type { TextItem } from './evidence';
import type { Frame } from './frame';
import { drawingListIssues, isDrawingListFrame, readDrawingList } from './drawingList';

let handle = 0;
const text = (value: string, x: number, y: number, height = 3.5): TextItem => ({ handle: String(++handle), text: value, position: { x, y }, height, layer: '文字' });
const frame = (id: string, drawingNo: string | undefined, title: string | undefined, x = 0): Frame => ({
  id,
  label: id,
  bbox: { minX: x + 10, minY: 10, maxX: x + 410, maxY: 287 },
  layout: 'Model',
  sheetName: 'A3',
  unitsPerPaperMm: null,
  titleBlock: { ...(drawingNo ? { drawingNo } : {}), ...(title ? { title } : {}) },
  titleBlockAnchors: {},
  origin: 'detected',
});

/** A 图纸目录 table as CAD users draw it: 序号 | 图号 | 图名 | 图幅, one text per cell. */
function table(rows: [string, string][]): TextItem[] {
  return [
    text('图纸目录', 150, 275, 7),
    text('序号', 30, 260, 5), text('图号', 60, 260, 5), text('图名', 110, 260, 5), text('图幅', 200, 260, 5),
    ...rows.flatMap(([no, title], i) => [text(String(i + 1), 32, 248 - 10 * i), text(no, 60, 248 - 10 * i), text(title, 110, 248 - 10 * i), text('A3', 200, 248 - 10 * i)]),
  ];
}

describe('reading a 图纸目录', () => {
  it('reads each row\'s number and title from the columns under 图号 and 图名', () => {
    const rows = readDrawingList(table([['JS-01', '一层平面图'], ['JS-02', '1-1 剖面图']]));
    expect(rows.map((r) => [r.drawingNo, r.title])).toEqual([['JS-01', '一层平面图'], ['JS-02', '1-1 剖面图']]);
  });

  it('ignores the title block\'s own 图号/图名 labels when its box is known, and an English list reads the same', () => {
    const titleBlock = [text('图名', 232, 56), text('图纸目录', 252, 56), text('图号', 330, 56), text('JS-00', 350, 56)];
    const rows = readDrawingList([...table([['JS-01', '总平面图']]), ...titleBlock], { minX: 230, minY: 10, maxX: 410, maxY: 66 });
    expect(rows.map((r) => r.drawingNo)).toEqual(['JS-01']);
    const english = readDrawingList([text('Drawing No.', 20, 100), text('Title', 80, 100), text('A-101', 20, 90), text('Ground floor plan', 80, 90)]);
    expect(english).toEqual([{ drawingNo: 'A-101', title: 'Ground floor plan', position: { x: 20, y: 90 } }]);
  });

  it('knows a list by its title or its heading, and reads nothing from a sheet without a table', () => {
    expect(isDrawingListFrame(frame('L', 'JS-00', '图纸目录'), [])).toBe(true);
    expect(isDrawingListFrame(frame('L', 'JS-00', undefined), [text('图纸目录：', 100, 100)])).toBe(true);
    expect(isDrawingListFrame(frame('S', 'JS-01', '一层平面图'), [text('技术要求', 10, 10)])).toBe(false);
    expect(readDrawingList([text('图号', 10, 10), text('JS-01', 30, 10)])).toEqual([]);
  });
});

describe('the drawing list against the sheets present', () => {
  const list = { frameId: 'L', rows: readDrawingList(table([['JS-00', '图纸目录'], ['JS-01', '一层平面图'], ['JS-02', '二层平面图'], ['JS-03', '屋顶平面图']])) };
  const frames = [frame('L', 'JS-00', '图纸目录'), frame('A', 'JS-01', '一层平面图', 450), frame('B', 'JS-02', '二层平面图（修改）', 900), frame('C', 'JS-09', '节点详图', 1350)];

  it('names a listed sheet that is missing, a sheet not listed and a listed title that differs — and nothing else', () => {
    const issues = drawingListIssues(list, frames);
    expect(issues.map((i) => `${i.kind}:${i.drawingNo}`).sort()).toEqual(['extra:JS-09', 'missing:JS-03', 'title:JS-02']);
  });

  it('is silent when the list and the sheets agree, whatever the spacing and full-width forms', () => {
    const agreeing = [frame('L', 'JS-00', '图纸目录'), frame('A', 'ＪＳ-01', '一层 平面图', 450), frame('B', 'JS-02', '二层平面图', 900), frame('C', 'JS-03', '屋顶平面图', 1350)];
    expect(drawingListIssues(list, agreeing)).toEqual([]);
  });

  it('does not judge sheets without a number, nor the synthetic whole-drawing frame', () => {
    const unnumbered = [...frames.slice(0, 3), { ...frame('W', undefined, undefined), origin: 'whole-drawing' as const }, frame('D', undefined, '说明', 1800)];
    expect(drawingListIssues(list, unnumbered).map((i) => i.kind).sort()).toEqual(['missing', 'title']);
  });
});
