import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import type { ToolResult } from '../../domain/protocol/mcpTools';
import { openDxfBackend } from './openDxfBackend';
import { parseDxfBytes } from '../../../drawing';
import { ezdxfPython } from '../../../../testSupport/prereqs';

const python = ezdxfPython('openDxfBackend.test ezdxf audits');

const FIXTURES = path.resolve('electron/testSupport/fixtures/dxf');
const fixture = (name: string): string => path.join(FIXTURES, name);

function json(result: ToolResult): any {
  const text = result.content.find((c) => c.type === 'text');
  if (!text || text.type !== 'text') throw new Error('no text content');
  return JSON.parse(text.text);
}

function ezdxfAudit(file: string): { errors: string[]; fixes: number; counts: Record<string, number>; review_layer: string[]; texts: string[] } {
  return JSON.parse(execFileSync(python!, [fixture('ezdxf_audit.py'), file], { encoding: 'utf8' }));
}

describe('embedded DXF backend on real drawings', () => {
  it('finds the three A3 frames of the planted sample with their title-block fields', async () => {
    const backend = await openDxfBackend(fixture('mech_flange_3frames_modelspace_DERIVED.dxf'));
    const { frames } = json(await backend.callTool('find_frames', {}));
    expect(frames).toHaveLength(3);
    expect(frames.map((f: any) => f.sheet?.sheet)).toEqual(['A3', 'A3', 'A3']);
    expect(frames.map((f: any) => f.titleBlock.title)).toEqual(['Flange', '法兰盘', '法兰盖']);
    expect(frames.map((f: any) => f.titleBlock.drawingNo)).toEqual(['136727/GK', '136727/GK-2', '136727/GK-3']);
    expect(frames[1].titleBlock.designer).toBe('张工');
    expect(frames[2].titleBlock.revision).toBeUndefined();
    expect(frames[0].titleBlock.revision).toBe('Rev. 2');
  });

  it('finds the A3 border drawn as four lines and its English title-block labels', async () => {
    const backend = await openDxfBackend(fixture('frame_iso_en_a3_titleblock.dxf'));
    const { frames } = json(await backend.callTool('find_frames', { layout: 'Model' }));
    expect(frames).toHaveLength(1);
    expect(frames[0]).toMatchObject({ kind: 'rectangle', bbox: [10, 10, 410, 287], sheet: { sheet: 'A3', outline: 'border', scaleText: '1:1' } });
    expect(frames[0].fieldSources).toMatchObject({ designer: 'Designed by', checker: 'Checked by', date: 'Date', scale: 'Scale' });
  });

  it('counts the planted zero-length line and duplicate pair', async () => {
    const backend = await openDxfBackend(fixture('mech_flange_3frames_modelspace_DERIVED.dxf'));
    const zero = json(await backend.callTool('find_zero_length', {}));
    expect(zero.count).toBe(1);
    expect(zero.entities[0].type).toBe('LINE');
    const dup = json(await backend.callTool('find_duplicate_entities', {}));
    expect(dup.groupCount).toBe(1);
    expect(dup.groups[0].handles).toHaveLength(2);
  });

  it('decodes GBK (ANSI_936) Chinese text and layer names', async () => {
    const backend = await openDxfBackend(fixture('cn_arch_gh109_1_R2000_GBK_DERIVED.dxf'));
    const info = json(await backend.callTool('get_drawing_info', {}));
    expect(info).toMatchObject({ version: 'AC1015', codePage: 'ANSI_936' });
    const texts = json(await backend.callTool('get_texts', {})).texts.map((t: any) => t.text);
    expect(texts).toEqual(expect.arrayContaining(['房间', '天正单行文字输入']));
    expect(json(await backend.callTool('get_layers', {})).layers.map((l: any) => l.name)).toContain('洁具');
  });

  it('reads a binary DXF like ezdxf does', async () => {
    const backend = await openDxfBackend(fixture('bad_binary_dxf_R2000.dxf'));
    const info = json(await backend.callTool('get_drawing_info', {}));
    expect(info.version).toBe('AC1015');
    expect(info.layouts[0].countsByType).toEqual({ TEXT: 1 });
  });

  it('refuses DWG bytes with advice instead of parsing them', () => {
    const dwg = Buffer.concat([Buffer.from('AC1027'), Buffer.alloc(64)]);
    expect(() => parseDxfBytes(dwg, 'x.dwg')).toThrow(expect.objectContaining({ code: 'CAD_DWG_UNSUPPORTED', message: expect.stringContaining('save it as DXF') }));
  });

  it('answers bad arguments and unknown handles as isError results with a code', async () => {
    const backend = await openDxfBackend(fixture('libredwg_r2.6_dim_AC1003.dxf'));
    const bad = await backend.callTool('add_leader_annotation', { points: [[0, 0]], text: 'x' });
    expect(bad.isError).toBe(true);
    expect(json(bad).code).toBe('CAD_BAD_ARGUMENTS');
    const missing = await backend.callTool('get_entity', { handle: 'FFFFFF' });
    expect(json(missing).code).toBe('CAD_DXF_ENTITY_NOT_FOUND');
  });

  it('renders a frame screenshot with dark linework and text on a white sheet', async () => {
    const backend = await openDxfBackend(fixture('mech_flange_3frames_modelspace_DERIVED.dxf'));
    const { frames } = json(await backend.callTool('find_frames', {}));
    const shot = await backend.callTool('get_screenshot', { frame_id: frames[1].id, max_edge: 1200 });
    const image = shot.content.find((c) => c.type === 'image');
    if (!image || image.type !== 'image') throw new Error('no image');
    const transform = json({ content: shot.content.filter((c) => c.type === 'text') });
    const { data, info } = await sharp(Buffer.from(image.data, 'base64')).greyscale().raw().toBuffer({ resolveWithObject: true });
    expect(info.width).toBe(1200);
    const dark = (x0: number, y0: number, x1: number, y1: number): number => {
      let n = 0;
      for (let y = Math.max(0, Math.floor(y0)); y < Math.min(info.height, y1); y++) for (let x = Math.max(0, Math.floor(x0)); x < Math.min(info.width, x1); x++) if ((data[y * info.width + x] ?? 255) < 128) n++;
      return n;
    };
    const [minX, , , maxY] = transform.drawingBbox;
    const toPx = (x: number, y: number): [number, number] => [(x - minX) * transform.pixelsPerUnit, (maxY - y) * transform.pixelsPerUnit];
    // the title 法兰盘 (height 5) is written at (357, -107) top-left aligned
    const [tx, ty] = toPx(357, -107);
    expect(dark(tx, ty, tx + 15 * transform.pixelsPerUnit, ty + 5 * transform.pixelsPerUnit)).toBeGreaterThan(200);
    expect(dark(0, 0, info.width, info.height)).toBeGreaterThan(5000);
    // an empty part of the sheet (right of the side view, above the title block) stays white
    const [ex, ey] = toPx(380, -40);
    expect(dark(ex, ey, ex + 10 * transform.pixelsPerUnit, ey + 10 * transform.pixelsPerUnit)).toBe(0);
  });

  it.skipIf(!python).each([
    ['mech_flange_3frames_modelspace_DERIVED.dxf', 'R2010'],
    ['cn_arch_gh109_1_R2000_GBK_DERIVED.dxf', 'R2000 GBK'],
    ['libredwg_r2.6_dim_AC1003.dxf', 'R12 era'],
    ['bad_binary_dxf_R2000.dxf', 'binary R2000'],
  ])('writes annotations to %s (%s) that ezdxf reads and audits without errors', async (name) => {
    const dir = mkdtempSync(path.join(tmpdir(), 'dxf-write-'));
    const source = path.join(dir, name);
    copyFileSync(fixture(name), source);
    const before = ezdxfAudit(source);
    const backend = await openDxfBackend(source);
    expect((await backend.callTool('add_leader_annotation', { points: [[0, 0], [10, 10], [20, 10]], text: '尺寸缺失 check', height: 2.5 })).isError).toBeUndefined();
    expect((await backend.callTool('add_text', { position: [5, 5], text: '审核意见' })).isError).toBeUndefined();
    expect((await backend.callTool('add_revision_cloud', { bbox: [0, 0, 40, 20] })).isError).toBeUndefined();
    const refused = await backend.callTool('save_drawing', { path: source });
    expect(json(refused).code).toBe('CAD_DXF_OVERWRITE_REFUSED');
    const saved = json(await backend.callTool('save_drawing', {}));
    expect(saved.path).toBe(source.replace(/\.dxf$/, '.ai-review.dxf'));
    const after = ezdxfAudit(saved.path);
    expect(after.errors).toEqual([]);
    expect(after.texts).toEqual(expect.arrayContaining(['尺寸缺失 check', '审核意见']));
    for (const [type, count] of Object.entries(before.counts)) expect(after.counts[type] ?? 0).toBeGreaterThanOrEqual(count);
    expect(after.review_layer.length).toBeGreaterThanOrEqual(3);
    expect(readFileSync(source)).toEqual(readFileSync(fixture(name)));
  });
});
