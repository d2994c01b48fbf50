// The generated evaluation corpus is real DXF: written through the project's writer onto the
// fixture generator's template, read back by the project's reader, and audited by ezdxf.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseDxfBytes } from '../../../electron/features/drawing/index';
import { ezdxfPython } from '../../../electron/testSupport/prereqs';
import { EntityWriter } from './entityTags';
import { generateCorpus, type GeneratedFile } from './corpus';

const repoRoot = path.resolve(__dirname, '../../..');
const python = ezdxfPython('eval review corpus');

describe.skipIf(!python)('the generated review evaluation corpus', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'eval-corpus-'));
  let files: GeneratedFile[] = [];

  beforeAll(() => {
    execFileSync(python!, [path.join(repoRoot, 'scripts/samples/generate_rule_fixtures.py'), dir], { encoding: 'utf8' });
    const template = readFileSync(path.join(dir, 'template.dxf'));
    const doc = parseDxfBytes(new Uint8Array(template), 'template.dxf').document;
    files = generateCorpus(() => new EntityWriter(doc));
  }, 120_000);

  it('holds at least 50 sheets, 10 on paper layouts, and a set of at least 10 sheets with a 图纸目录', () => {
    const sheets = files.flatMap((f) => f.sheets);
    expect(sheets.length).toBeGreaterThanOrEqual(50);
    expect(sheets.filter((s) => s.space === 'paper').length).toBeGreaterThanOrEqual(10);
    expect(files.some((f) => f.sheets.length >= 11 && f.sheets.some((s) => s.note.endsWith('the drawing list')))).toBe(true);
    expect(new Set(files.map((f) => f.file)).size).toBe(files.length);
  });

  it('writes files that the project reader loads and ezdxf audits clean, each sheet drawn in its labelled space', () => {
    const picked = ['model-clean-a.dxf', 'paper-clean-a.dxf', 'model-set-consistent.dxf', 'model-DIM-001-a.dxf'];
    for (const name of picked) {
      const file = files.find((f) => f.file === name)!;
      const target = path.join(dir, name);
      writeFileSync(target, file.text);
      const doc = parseDxfBytes(new Uint8Array(readFileSync(target)), target).document;
      expect(doc.version, name).toBe('AC1024');
      const audit = execFileSync(python!, ['-c', 'import sys, ezdxf; d = ezdxf.readfile(sys.argv[1]); a = d.audit(); print(len(a.errors), len(d.modelspace()), len(d.layout("Layout1")))', target], { encoding: 'utf8' }).trim().split(' ').map(Number);
      expect(audit[0], `${name}: ezdxf audit errors`).toBe(0);
      const paper = file.space === 'paper';
      expect(paper ? audit[2] : audit[1], `${name}: entities in the sheet's space`).toBeGreaterThan(20);
    }
  }, 120_000);
});
