import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ezdxfPython } from '../../../../testSupport/prereqs';
import { openDxfFile } from './openDxfFile';

const repoRoot = path.resolve(__dirname, '../../../../..');
const corpus = path.join(path.resolve(repoRoot, '../shared/corpus'), 'dxf');
const present = existsSync(corpus);
if (!present) process.stdout.write(`[dxf corpus] skipped: ${corpus} is not present (shared corpus not mounted)\n`);

const files = present ? readdirSync(corpus).filter((f) => /\.(dxf|dwg)$/i.test(f)).sort() : [];

type EzdxfCounts = { ok: true; layouts: Record<string, Record<string, number>> } | { ok: false; error: string };
let reference: Record<string, EzdxfCounts> = {};

const python = present ? ezdxfPython('dxf corpus counts vs ezdxf') : undefined;

describe.skipIf(!present || !python)('every corpus drawing', () => {
  beforeAll(() => {
    const dxf = files.filter((f) => f.endsWith('.dxf')).map((f) => path.join(corpus, f));
    reference = JSON.parse(execFileSync(python!, [path.join(repoRoot, 'electron/testSupport/fixtures/dxf/ezdxf_counts.py'), ...dxf], { encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 }));
  });

  it.each(files.filter((f) => f.endsWith('.dwg')))('%s is refused as DWG with advice', async (name) => {
    await expect(openDxfFile(path.join(corpus, name))).rejects.toMatchObject({ code: 'CAD_DWG_UNSUPPORTED' });
  });

  it.each(files.filter((f) => f.endsWith('.dxf')))('%s opens and its entity counts per layout equal ezdxf\'s where ezdxf reads it', async (name) => {
    const file = path.join(corpus, name);
    const opened = await openDxfFile(file);
    const ours = Object.fromEntries(opened.document.layouts.map((l) => [l.name, countTypes(l.entities.map((e) => e.type))]));
    const expected = reference[file];
    if (!expected?.ok) {
      // ezdxf refuses these broken files; we still load what is recoverable (counts unchecked)
      expect(expected).toBeDefined();
      expect(opened.document.layouts.length).toBeGreaterThan(0);
      return;
    }
    for (const [layout, counts] of Object.entries(expected.layouts)) expect({ layout, counts: ours[layout] }).toEqual({ layout, counts });
  });
});

function countTypes(types: string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const t of types) counts[t] = (counts[t] ?? 0) + 1;
  return counts;
}
