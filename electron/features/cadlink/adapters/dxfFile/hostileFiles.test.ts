import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { blockBombDxf, cyclicAndDeepDxf, longStringDxf } from '../../../../testSupport/fixtures/hostileDxf';
import { openDxfBackend } from './openDxfBackend';

const dir = mkdtempSync(path.join(os.tmpdir(), 'hostile-dxf-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function write(name: string, text: string): string {
  const file = path.join(dir, name);
  writeFileSync(file, text);
  return file;
}

async function call(provider: Awaited<ReturnType<typeof openDxfBackend>>, name: string, args: Record<string, unknown>): Promise<{ isError: boolean; json: Record<string, unknown> }> {
  const result = await provider.callTool(name, args);
  const text = result.content.find((c) => c.type === 'text') as { text: string };
  return { isError: result.isError === true, json: JSON.parse(text.text) as Record<string, unknown> };
}

describe('hostile DXF files', () => {
  it('answers CAD_DXF_TOO_COMPLEX for a small file whose blocks expand to 10⁹ entities and keeps serving other calls', async () => {
    const text = blockBombDxf(10, 9);
    expect(text.length).toBeLessThan(30_000);
    const provider = await openDxfBackend(write('bomb.dxf', text));
    const info = await call(provider, 'get_drawing_info', {});
    expect(info.isError).toBe(false);
    expect((info.json.problems as { kind: string }[]).map((p) => p.kind)).toContain('block_expansion_too_large');
    const shot = await call(provider, 'get_screenshot', { max_edge: 256 });
    expect(shot.isError).toBe(true);
    expect(shot.json.code).toBe('CAD_DXF_TOO_COMPLEX');
    const texts = await call(provider, 'get_texts', {});
    expect(texts.json.code ?? 'ok').toMatch(/^(ok|CAD_DXF_TOO_COMPLEX)$/);
    // the server still answers: the plain LINE is found by a bbox query over the bomb's box too
    const entities = await call(provider, 'get_entities', { bbox: [50, 50, 150, 150] });
    expect(entities.isError).toBe(false);
    expect(JSON.stringify(entities.json)).toContain('LINE');
  });

  it('reports self-referencing blocks and nesting deeper than the cap as problems of the drawing, and still draws the rest', async () => {
    const provider = await openDxfBackend(write('cyclic.dxf', cyclicAndDeepDxf(20)));
    const info = await call(provider, 'get_drawing_info', {});
    const problems = info.json.problems as { kind: string; message: string }[];
    const selfRef = problems.filter((p) => p.kind === 'self_referencing_block').map((p) => p.message).join(' ');
    expect(selfRef).toContain('SELF');
    expect(selfRef).toMatch(/block (A|B) /);
    expect(problems.some((p) => p.kind === 'block_nesting_too_deep' && p.message.includes('D19'))).toBe(true);
    const shot = await call(provider, 'get_screenshot', { max_edge: 256 });
    expect(shot.isError).toBe(false);
  });

  it('refuses a file over the size limit with CAD_DXF_TOO_LARGE before reading it', async () => {
    const file = write('big.dxf', longStringDxf(200_000));
    await expect(openDxfBackend(file, { limits: { maxFileBytes: 100_000, maxValueBytes: 1 << 20 } })).rejects.toMatchObject({ code: 'CAD_DXF_TOO_LARGE', data: { maxFileBytes: 100_000 } });
  });

  it('refuses a value longer than the string limit with CAD_DXF_TOO_LARGE before decoding it', async () => {
    const file = write('longstring.dxf', longStringDxf(17 * 1024 * 1024));
    await expect(openDxfBackend(file)).rejects.toMatchObject({ code: 'CAD_DXF_TOO_LARGE', data: { valueBytes: 17 * 1024 * 1024 } });
    // the same file under a raised value limit opens: the cap, not the content, refused it
    const provider = await openDxfBackend(file, { limits: { maxFileBytes: 1 << 30, maxValueBytes: 32 * 1024 * 1024 } });
    expect((await call(provider, 'get_drawing_info', {})).isError).toBe(false);
  });
});
