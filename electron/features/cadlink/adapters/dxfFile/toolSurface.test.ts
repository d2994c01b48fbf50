import path from 'node:path';
import { Ajv } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import type { ToolResult } from '../../domain/protocol/mcpTools';
import { openDxfBackend } from './openDxfBackend';

const fixture = (name: string): string => path.resolve('electron/testSupport/fixtures/dxf', name);
const SAMPLE = fixture('mech_flange_3frames_modelspace_DERIVED.dxf');

function json(result: ToolResult): any {
  const text = result.content.find((c) => c.type === 'text');
  if (!text || text.type !== 'text') throw new Error('no text content');
  return JSON.parse(text.text);
}

async function darkPixels(result: ToolResult): Promise<number> {
  const image = result.content.find((c) => c.type === 'image');
  if (!image || image.type !== 'image') throw new Error(`no image: ${JSON.stringify(result.content)}`);
  const { data } = await sharp(Buffer.from(image.data, 'base64')).greyscale().raw().toBuffer({ resolveWithObject: true });
  let n = 0;
  for (const v of data) if (v < 128) n++;
  return n;
}

describe('dxf-server tool surface', () => {
  it('publishes input schemas that strict draft-07 and 2020-12 validators compile, without tuple items:false', async () => {
    const backend = await openDxfBackend(SAMPLE);
    const tools = await backend.listTools();
    expect(tools.length).toBeGreaterThanOrEqual(15);
    for (const tool of tools) {
      const text = JSON.stringify(tool.inputSchema);
      expect(text, tool.name).not.toContain('"items":false');
      expect(text, tool.name).not.toContain('prefixItems');
      for (const ajv of [new Ajv({ strict: true, strictTypes: false }), new Ajv2020({ strict: true, strictTypes: false })]) expect(() => ajv.compile(tool.inputSchema ?? {}), tool.name).not.toThrow();
    }
    const screenshot = tools.find((t) => t.name === 'get_screenshot')!;
    const validate = new Ajv({ strict: true, strictTypes: false }).compile(screenshot.inputSchema ?? {});
    expect(validate({ bbox: [0, 0, 10, 10] })).toBe(true);
    expect(validate({ bbox: [0, 0, 10] })).toBe(false);
    expect(validate({ bbox: [0, 0, 10, 10, 5] })).toBe(false);
    expect(validate({ frame_id: 3 })).toBe(true);
    const leader = new Ajv({ strict: true, strictTypes: false }).compile(tools.find((t) => t.name === 'add_leader_annotation')?.inputSchema ?? {});
    expect(leader({ points: [[0, 0], [1, 1]], text: 'x' })).toBe(true);
    expect(leader({ points: [[0, 0, 0], [1, 1]], text: 'x' })).toBe(false);
  });

  it('accepts frame_id as a number as well as a string', async () => {
    const backend = await openDxfBackend(SAMPLE);
    const missing = json(await backend.callTool('get_screenshot', { frame_id: 424242 }));
    expect(missing).toMatchObject({ code: 'CAD_DXF_FRAME_NOT_FOUND', data: { frame_id: '424242' } });
    const { frames } = json(await backend.callTool('find_frames', {}));
    const id = String(frames[0].id);
    const asString = await backend.callTool('get_screenshot', { frame_id: id, max_edge: 200 });
    expect(asString.isError).toBeUndefined();
    if (/^\d+$/.test(id)) expect(await darkPixels(await backend.callTool('get_screenshot', { frame_id: Number(id), max_edge: 200 }))).toBe(await darkPixels(asString));
  });

  it('leaves hidden_layers out of the picture and draws them again when shown', async () => {
    const backend = await openDxfBackend(SAMPLE);
    const { layers } = json(await backend.callTool('get_layers', {}));
    const { frames } = json(await backend.callTool('find_frames', {}));
    const used = layers.filter((l: any) => l.entityCount > 0 && l.on && !l.frozen).map((l: any) => l.name as string);
    expect(used.length).toBeGreaterThan(1);
    const shot = (hidden: string[]) => backend.callTool('get_screenshot', { frame_id: frames[0].id, max_edge: 600, hidden_layers: hidden });
    const all = await darkPixels(await shot([]));
    const busiest = [...layers].filter((l: any) => used.includes(l.name)).sort((a: any, b: any) => b.entityCount - a.entityCount)[0].name;
    const without = await darkPixels(await shot([busiest.toLowerCase()]));
    expect(without).toBeLessThan(all);
    expect(without).toBeGreaterThan(0);
    expect(await darkPixels(await shot(used))).toBe(0);
    expect(await darkPixels(await shot([]))).toBe(all);
  });

  it('counts the annotations added in the session in get_drawing_info and get_layers', async () => {
    const backend = await openDxfBackend(SAMPLE);
    const before = json(await backend.callTool('get_drawing_info', {}));
    const model = (info: any) => info.layouts.find((l: any) => !l.paperSpace);
    expect((await backend.callTool('add_leader_annotation', { points: [[0, 0], [10, 10]], text: 'check' })).isError).toBeUndefined();
    expect((await backend.callTool('add_text', { position: [5, 5], text: '审核' })).isError).toBeUndefined();
    const after = json(await backend.callTool('get_drawing_info', {}));
    expect(model(after).entityCount).toBe(model(before).entityCount + 3);
    expect(model(after).countsByType.LEADER ?? 0).toBe((model(before).countsByType.LEADER ?? 0) + 1);
    expect(model(after).countsByType.TEXT).toBe((model(before).countsByType.TEXT ?? 0) + 2);
    expect(after.annotationsAdded).toBe(2);
    const review = json(await backend.callTool('get_layers', {})).layers.find((l: any) => l.name.toUpperCase() === 'AI_REVIEW');
    expect(review.entityCount).toBe(3);
  });
});
