import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ezdxfPython } from '../../electron/testSupport/prereqs';

const repoRoot = path.resolve(__dirname, '../..');
const python = ezdxfPython('generateSample.test');

describe.skipIf(!python)('the sample drawing generator', () => {
  it('reproduces the committed sample byte for byte, and ezdxf audits it clean', () => {
    const out = path.join(mkdtempSync(path.join(tmpdir(), 'sample-')), 'sample.dxf');
    execFileSync(python!, [path.join(repoRoot, 'scripts/samples/generate_sample.py'), out], { cwd: repoRoot });
    expect(readFileSync(out).equals(readFileSync(path.join(repoRoot, 'resources/samples/cadsight_sample_gb_a3_3frames.dxf')))).toBe(true);
    const audit = execFileSync(python!, ['-c', 'import ezdxf,sys; d=ezdxf.readfile(sys.argv[1]); a=d.audit(); print(len(a.errors), len(a.fixes), len(d.modelspace()))', out], { encoding: 'utf8' });
    expect(audit.trim()).toBe('0 0 155');
  });
});
