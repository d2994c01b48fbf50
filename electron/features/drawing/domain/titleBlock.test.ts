import { describe, expect, it } from 'vitest';
import { readTitleBlock } from './titleBlock';
import type { Primitive } from './world';

type TextPrimitive = Extract<Primitive, { kind: 'text' }>;
const text = (value: string, x: number, y: number, height = 3.5, tag?: string): TextPrimitive =>
  ({ kind: 'text', text: value, at: { x, y }, height, rotation: 0, hAlign: 0, vAlign: 0, mtext: false, layer: 'TB', color: { aci: 7 }, ...(tag ? { tag } : {}) }) as unknown as TextPrimitive;

describe('readTitleBlock', () => {
  it('reads a GB/T 10609.1 title block with 共 N 张 第 M 张 split over cells', () => {
    const fields = readTitleBlock([
      text('图号', 300, 40),
      text('GB-07-01', 320, 40),
      text('材料', 300, 30),
      text('Q235', 320, 30),
      text('共', 300, 20),
      text('3', 306, 20),
      text('张', 312, 20),
      text('第', 330, 20),
      text('1', 336, 20),
      text('张', 342, 20),
    ]).fields;
    expect(fields).toMatchObject({ drawingNo: 'GB-07-01', material: 'Q235', sheetCount: '3', sheetNo: '1' });
  });

  it('never takes a date as the drawing number, and prefers attribute tags over neighbours', () => {
    const fields = readTitleBlock([text('Drawing No.', 100, 10, 2), text('11/10/2017', 120, 10, 3), text('Flange', 150, 30, 5, 'TITLE'), text('A-100-7', 100, 4, 3)]).fields;
    expect(fields.drawingNo).toBe('A-100-7');
    expect(fields.title).toBe('Flange');
    expect(fields.date).toBe('11/10/2017');
  });

  it('reads "Sheet 2 of 5" as sheet number and count', () => {
    expect(readTitleBlock([text('Sheet 2 of 5', 0, 0)]).fields).toMatchObject({ sheetNo: '2', sheetCount: '5' });
  });
});

describe('title-block reading ignores CAD artefacts and reads labels with their value in one text', () => {
  it('never reads a viewport caption, a layout name or Defpoints text as the title', () => {
    const caption = text('Rectangular Viewport', 100, 40, 10);
    const defpoints = { ...text('VPORT-HIDDEN', 100, 60, 12), layer: 'Defpoints' } as TextPrimitive;
    const fields = readTitleBlock([caption, defpoints, text('Layout1', 100, 80, 9), text('首层平面图', 100, 20, 5), text('图号', 200, 10), text('A-101', 220, 10)]).fields;
    expect(fields.title).toBe('首层平面图');
    expect(fields.drawingNo).toBe('A-101');
  });

  it('reads "Scale: 1: 75", "比例 1:75" and "比例：1/75" as the scale of the sheet', () => {
    expect(readTitleBlock([text('Scale: 1: 75', 100, 10)]).fields.scale).toBe('1: 75');
    expect(readTitleBlock([text('比例 1:75', 100, 10)]).fields.scale).toBe('1:75');
    expect(readTitleBlock([text('比例：1/75', 100, 10)]).fields.scale).toBe('1/75');
    expect(readTitleBlock([text('比例', 100, 10), text('1 : 75', 120, 10)]).fields.scale).toBe('1 : 75');
  });

  it('takes an unlabelled "18/8" for no scale (a steel grade), while a labelled "1/75" is one', () => {
    expect(readTitleBlock([text('18/8', 100, 10)]).fields.scale).toBeUndefined();
    expect(readTitleBlock([text('比例', 100, 10), text('1/75', 120, 10)]).fields.scale).toBe('1/75');
  });

  it('takes a colon-joined pair ("图号：A-01") but not a sentence that starts with a label word', () => {
    expect(readTitleBlock([text('图号：A-01', 100, 10)]).fields.drawingNo).toBe('A-01');
    expect(readTitleBlock([text('Material handling notes apply', 100, 10)]).fields.material).toBeUndefined();
  });
});

describe('an empty title-block cell', () => {
  it('stays empty instead of taking the value of the row below, which has its own label', () => {
    const fields = readTitleBlock([text('设计', 232, 40), text('审核', 232, 32), text('李工', 252, 32), text('批准', 232, 24), text('王工', 252, 24)]).fields;
    expect(fields.designer).toBeNull();
    expect(fields.checker).toBe('李工');
    expect(fields.approver).toBe('王工');
  });

  it('still takes a value written under its label when that row has no label of its own', () => {
    expect(readTitleBlock([text('图号', 100, 40), text('A-100-7', 100, 33)]).fields.drawingNo).toBe('A-100-7');
  });
});
