import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const examples = path.join(repoRoot, 'resources/examples/cdsl');
let workDir: string;

/** Runs the bundled CLI as a user would; resolves with the exit code and both streams. */
async function cadsight(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [path.join(repoRoot, 'bin/cadsight.js'), ...args], { cwd: repoRoot, maxBuffer: 32 * 1024 * 1024 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

beforeAll(async () => {
  workDir = await mkdtemp(path.join(os.tmpdir(), 'cdsl-cli-'));
});
afterAll(async () => rm(workDir, { recursive: true, force: true }));

describe('cadsight cdsl', () => {
  it('builds the flange with artifacts and prints every claim passing or awaiting review', async () => {
    const out = path.join(workDir, 'flange');
    const result = await cadsight('cdsl', 'build', path.join(examples, 'flange.json'), '--out', out, '--claims', path.join(examples, 'flange.claims.json'), '--json');
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout) as { ok: boolean; claims: { kind: string; status: string }[]; artifacts: { files: { name: string }[] } };
    expect(report.ok).toBe(true);
    expect(report.claims.filter((c) => c.kind !== 'visual').every((c) => c.status === 'pass')).toBe(true);
    expect(report.artifacts.files.map((f) => f.name)).toEqual(expect.arrayContaining(['model.step', 'model.glb', 'view-iso.png', 'measurements.json']));
    expect(JSON.parse(await readFile(path.join(out, 'manifest.json'), 'utf8'))).toHaveProperty('input_sha256');
  });

  it('exits 1 and names the failing claim when the geometry contradicts a claim', async () => {
    const claims = path.join(workDir, 'wrong.claims.json');
    await writeFile(claims, JSON.stringify({ claims: [{ id: 'too_thick', kind: 'bbox_dimension_mm', expected: { axis: 'z', value_mm: 15, tolerance_mm: 0.01 } }] }));
    const result = await cadsight('cdsl', 'build', path.join(examples, 'tube.json'), '--claims', claims);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/too_thick\s+bbox_dimension_mm\s+fail/);
  });

  it('exits 2 with a typed schema error for a document with an unknown parameter', async () => {
    const bad = JSON.parse(await readFile(path.join(examples, 'tube.json'), 'utf8')) as { features: { params: Record<string, unknown> }[] };
    (bad.features[0] as { params: Record<string, unknown> }).params.depth_mm = 3;
    const file = path.join(workDir, 'bad.json');
    await writeFile(file, JSON.stringify(bad));
    const result = await cadsight('cdsl', 'validate', file);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('[CDSL_SCHEMA_INVALID]');
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });

  it('lists the offered operations and prints one contract with its fragment schema', async () => {
    const list = await cadsight('cdsl', 'contracts');
    expect(list.code).toBe(0);
    expect(list.stdout).toContain('pattern_circular');
    const hole = await cadsight('cdsl', 'contracts', 'hole');
    const contract = JSON.parse(hole.stdout) as { selector_policy: { slot: string }[]; fragment_schema: { additionalProperties: boolean } };
    expect(contract.selector_policy[0]?.slot).toBe('host_face_token');
    expect(contract.fragment_schema.additionalProperties).toBe(false);
  });
});
