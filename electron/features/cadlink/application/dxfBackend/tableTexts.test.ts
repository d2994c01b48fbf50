import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDxfBackend } from '../../adapters/dxfFile/openDxfBackend';

const table = path.resolve(__dirname, '../../../../../../shared/corpus/dxf/ezdxf_acad_table_with_blk_ref.dxf');
if (!existsSync(table)) console.log(`[tableTexts.test] skipped: ${table} is absent`);

describe.skipIf(!existsSync(table))('ACAD_TABLE', () => {
  it('returns the cell texts of a table in get_texts and draws its grid (ezdxf acad_table_with_blk_ref.dxf)', async () => {
    const provider = await openDxfBackend(table);
    const texts = JSON.parse((((await provider.callTool('get_texts', {})).content[0]) as { text: string }).text) as { texts: { text: string; source: string }[] };
    const cells = texts.texts.filter((t) => t.source === 'ACAD_TABLE').map((t) => t.text);
    expect(cells).toEqual(expect.arrayContaining(['Title', '1', '9', '17', 'line']));
    const shot = await provider.callTool('get_screenshot', { max_edge: 400 });
    expect(shot.isError).not.toBe(true);
  });
});
