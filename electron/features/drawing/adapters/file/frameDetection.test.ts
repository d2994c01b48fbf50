import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DrawingIndex } from '../../domain/bounds';
import { findFrames } from '../../domain/frames';
import { openDxfFile } from './openDxfFile';

const FIXTURES = path.resolve('electron/testSupport/fixtures/dxf');
const framesOf = async (name: string) => findFrames(new DrawingIndex((await openDxfFile(path.join(FIXTURES, name))).document));

describe('frames found in real drawings', () => {
  it('take the border rectangle as the frame, not the small label block inside it', async () => {
    const frames = await framesOf('gh209_1_symbol_border_R2010.dxf');
    expect(frames.map((f) => [f.id, f.kind])).toEqual([['6C', 'rectangle']]);
  });

  it('read an attribute-tagged title block: the "Flange" title and the date, and no date as the drawing number', async () => {
    const frames = await framesOf('mech_flange_layouts.dxf');
    const border = frames.find((f) => f.kind === 'block_insert')!;
    expect(border.titleBlock.fields).toMatchObject({ title: 'Flange', date: '11/10/2017', scale: '1:1' });
    expect(border.titleBlock.fields.drawingNo ?? null).toBeNull();
    expect(border.titleBlock.sources.title).toBe('attribute:Title');
  });

  it('tell the inner border from the trimmed sheet and report the sheet size, dropping layouts that only view the model frame', async () => {
    const frames = await framesOf('frame_iso_en_a3_titleblock.dxf');
    expect(frames).toHaveLength(1);
    const [frame] = frames;
    expect(frame!.sheet).toMatchObject({ sheet: 'A3', outline: 'border', paperWidth: 420, paperHeight: 297 });
    expect(frame!.bbox).toEqual({ minX: 10, minY: 10, maxX: 410, maxY: 287 });
    expect(frame!.sheetBox).toEqual({ minX: 0, minY: 0, maxX: 420, maxY: 297 });
  });

  it('keep the three model-space frames of a sheet set with their own title blocks', async () => {
    const frames = await framesOf('mech_flange_3frames_modelspace_DERIVED.dxf');
    expect(frames.map((f) => f.titleBlock.fields.title)).toEqual(['Flange', '法兰盘', '法兰盖']);
    expect(frames.every((f) => f.titleBlock.fields.scale === undefined)).toBe(true);
  });
});
