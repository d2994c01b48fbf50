import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDxfBackend } from './openDxfBackend';

const fixture = (name: string): string => path.resolve('electron/testSupport/fixtures/dxf', name);
/** A Chinese A3 sheet in layout "A3图纸": 200 × 140 mm viewport centred (130, 180) on paper, showing model (200, 130) at 1:2. */
const paperA3 = fixture('paper_a3_cn_viewport_1to2.dxf');

async function call(file: string, tool: string, args: Record<string, unknown>): Promise<any> {
  const backend = await openDxfBackend(file);
  const result = await backend.callTool(tool, args);
  return { isError: result.isError === true, json: JSON.parse((result.content.find((c) => c.type === 'text') as { text: string }).text) };
}

describe('the DXF backend reads and writes a paper sheet in its own space', () => {
  it('get_dimensions through the viewports reports model dimensions where the sheet shows them, measured in model units', async () => {
    const { json } = await call(paperA3, 'get_dimensions', { layout: 'A3图纸', through_viewports: true });
    expect(json.dimensions).toHaveLength(3);
    const wrong = json.dimensions.find((d: any) => d.textOverride === '320');
    expect(wrong).toMatchObject({ space: 'model', measured: 300 });
    // model text at x = 200 (the edge's middle) is paper x = 130 + (200 - 200) / 2
    expect(wrong.textAt[0]).toBeCloseTo(130, 3);
    expect(wrong.model_textAt[0]).toBeCloseTo(200, 3);
    // DIMTXT 3.5 × DIMSCALE 2 in model space prints 3.5 mm on the sheet
    expect(wrong.blockTextHeight).toBeCloseTo(3.5, 3);
    // without the flag the layout's own dimensions only (there are none)
    expect((await call(paperA3, 'get_dimensions', { layout: 'A3图纸' })).json.dimensions).toEqual([]);
  });

  it('a dimension written without its block (as ezdxf does without render()) is still seen through the viewport, placed by its definition points', async () => {
    const blockless = path.join(mkdtempSync(path.join(tmpdir(), 'sheet-tools-')), 'blockless.dxf');
    writeFileSync(blockless, readFileSync(paperA3, 'latin1').replace(/(AcDbDimension\r?\n\s*280\r?\n\s*0\r?\n)\s*2\r?\n\*D\d+\r?\n/g, '$1'), 'latin1');
    const { json } = await call(blockless, 'get_dimensions', { layout: 'A3图纸', through_viewports: true });
    expect(json.dimensions.map((d: any) => d.block)).toEqual(['', '', '']);
    expect(json.dimensions.find((d: any) => d.textOverride === '320')).toMatchObject({ space: 'model', measured: 300 });
  });

  it('find_frames gives the sheet its border, its layout and the viewport it shows (scale 2 = 1:2)', async () => {
    const { json } = await call(paperA3, 'find_frames', {});
    expect(json.frames).toHaveLength(1);
    expect(json.frames[0]).toMatchObject({ layout: 'A3图纸', bbox: [0, 0, 420, 297], viewports: [{ bbox: [30, 110, 230, 250], modelBbox: [0, -10, 400, 270], scale: 2 }] });
  });

  it('a model-space entity lying at paper coordinates never reaches the sheet: only what the viewports show does', async () => {
    const { json } = await call(paperA3, 'get_entities', { layout: 'A3图纸', through_viewports: true, types: ['CIRCLE'], limit: 100 });
    expect(json.entities.map((e: any) => e.space)).toEqual(['model', 'model']);
    expect(json.entities.every((e: any) => e.bbox[0] > 30 && e.bbox[2] < 230)).toBe(true);
  });

  it('add_leader_annotation and add_text refuse an unknown layout with a typed error', async () => {
    const backend = await openDxfBackend(paperA3);
    const result = await backend.callTool('add_text', { position: [1, 1], text: 'x', layout: 'NoSuchLayout' });
    expect(result.isError).toBe(true);
    expect((result.content[0] as { text: string }).text).toContain('CAD_DXF_LAYOUT_NOT_FOUND');
  });
});
