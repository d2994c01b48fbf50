import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFsTaskArtifacts, createSqliteTaskRepository } from '../../features/cadgen/index';
import { exportRevisionFolder } from './generationExportFolder';
import { openCompletedTask, readFixture, type GenerationHarness } from './generationHandlers.testSupport';

// A completed task's record (checklist + claims.json) and its integrity: a flipped byte in a
// published file is refused on read, IPC transfer, zip and folder export.

const fixture = readFixture('flange');
let completed: Awaited<ReturnType<typeof openCompletedTask>> | undefined;
let h: GenerationHarness;
let taskId = '';
const scratch: string[] = [];

beforeAll(async () => {
  completed = await openCompletedTask(fixture);
  ({ h, taskId } = completed);
}, 180_000);

afterAll(async () => {
  await completed?.close();
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
});

const taskFile = (name: string): string => path.join(h.tasksRoot, taskId, name);
const freshDir = (): string => {
  const dir = mkdtempSync(path.join(tmpdir(), 'gen-export-'));
  scratch.push(dir);
  return dir;
};

/** The published revisions as the database holds them (what the checks trust). */
const publishedRevisions = () => createSqliteTaskRepository(h.db, { now: () => new Date() }).load(taskId).revisions;

describe('the record of a completed task', () => {
  it('checks every passing claim in completion.md with its measured values, and writes the same results as claims.json', () => {
    const claims = JSON.parse(readFileSync(taskFile('claims.json'), 'utf8')) as { schema_version: string; stage: string; revision_id: string; passed: number; total: number; claims: { claim_id: string; requirement_id: string | null; kind: string; status: string; expected: unknown; measured: Record<string, unknown>; evidence: unknown }[] };
    expect(claims).toMatchObject({ schema_version: 'cad.claim-results.v1', stage: 'final', revision_id: 'rev_003' });
    expect(claims.claims.length).toBeGreaterThan(3);
    expect(claims.passed).toBe(claims.total);
    for (const row of claims.claims) {
      expect(row, row.claim_id).toMatchObject({ status: 'pass', kind: expect.any(String) });
      expect(row.evidence, row.claim_id).toBeDefined();
      expect('expected' in row && 'measured' in row, row.claim_id).toBe(true);
    }
    const contract = JSON.parse(readFileSync(taskFile('requirements-contract.json'), 'utf8')) as { claims: { claim_id: string }[] };
    for (const c of contract.claims) expect(claims.claims.find((r) => r.claim_id === c.claim_id)?.requirement_id, c.claim_id).toEqual(expect.any(String));
    const checklist = readFileSync(taskFile('completion.md'), 'utf8');
    expect(checklist).toContain(`(final: ${claims.total}/${claims.total} pass)`);
    expect(checklist).not.toContain('- [ ]');
    expect(checklist.match(/^- \[x\]/gm)).toHaveLength(claims.total);
    expect(checklist).toContain('status: **pass**');
    expect(checklist).toMatch(/measured: `\{/);
  });

  it('exports claims.json beside completion.md, in the zip and in the folder export', async () => {
    const zip = await h.call<{ entries: string[] }>('genExportZip', { taskId });
    expect(zip.entries).toEqual(expect.arrayContaining(['completion.md', 'claims.json', 'revisions/rev_003/manifest.json']));
    const out = freshDir();
    const head = publishedRevisions().find((r) => r.revision_id === 'rev_003')!;
    const exported = await exportRevisionFolder({ taskDir: path.join(h.tasksRoot, taskId), revision: head, revisions: publishedRevisions(), out });
    expect(exported.files).toEqual(expect.arrayContaining(['claims.json', 'completion.md', 'revisions/rev_003/model.step']));
    expect(readFileSync(path.join(out, 'claims.json'), 'utf8')).toBe(readFileSync(taskFile('claims.json'), 'utf8'));
    expect(existsSync(path.join(out, 'rev_003', 'model.step'))).toBe(true);
    await expect(exportRevisionFolder({ taskDir: path.join(h.tasksRoot, taskId), revision: head, revisions: publishedRevisions(), out })).rejects.toMatchObject({ code: 'CDSL_EXPORT_TARGET_EXISTS' });
  });
});

describe('a flipped byte in a published model.step', () => {
  const name = 'revisions/rev_003/model.step';
  let original: Buffer;

  beforeAll(() => {
    original = readFileSync(taskFile(name));
    const tampered = Buffer.from(original);
    const at = Math.floor(tampered.length / 2);
    tampered[at] = tampered[at]! ^ 0x01;
    writeFileSync(taskFile(name), tampered);
  });
  afterAll(() => writeFileSync(taskFile(name), original));

  const corrupt = { code: 'CDSL_ARTIFACT_CORRUPT', retryable: false, data: { file: name } };

  it('is refused on read by the task store with CDSL_ARTIFACT_CORRUPT naming the file', async () => {
    const artifacts = createFsTaskArtifacts(h.tasksRoot);
    await expect(artifacts.readText(taskId, name)).rejects.toMatchObject(corrupt);
    await expect(artifacts.readBytes(taskId, name)).rejects.toMatchObject(corrupt);
    expect(await artifacts.verifyRevision(taskId, 'rev_003')).toBe(false);
    // The other files of the folder still read.
    expect(await artifacts.readText(taskId, 'revisions/rev_003/topology.json')).toContain('snapshot_id');
  });

  it('is refused by the IPC file transfer (app and browser mode) and by the zip export', async () => {
    await expect(h.generation.handlers.genGetArtifact({ taskId, name }, { transport: 'test' })).rejects.toMatchObject(corrupt);
    await expect(h.generation.handlers.genExportZip({ taskId }, { transport: 'test' })).rejects.toMatchObject(corrupt);
    // An untouched revision still transfers and exports.
    expect((await h.call<{ name: string }>('genGetArtifact', { taskId, name: 'revisions/rev_002/model.step' })).name).toBe('revisions/rev_002/model.step');
    expect((await h.call<{ fileName: string }>('genExportZip', { taskId, revision: 'rev_002' })).fileName).toBe(`${taskId}-rev_002.zip`);
  });

  it('is refused by the folder export (gen export), which then writes nothing', async () => {
    const out = freshDir();
    const revisions = publishedRevisions();
    await expect(exportRevisionFolder({ taskDir: path.join(h.tasksRoot, taskId), revision: revisions.find((r) => r.revision_id === 'rev_003')!, revisions, out })).rejects.toMatchObject(corrupt);
    expect(readdirSync(out)).toEqual([]);
  });

  it('also guards the manifest itself: a rewritten manifest.json that lists the tampered bytes is refused', async () => {
    const manifestPath = taskFile('revisions/rev_003/manifest.json');
    const manifestText = readFileSync(manifestPath, 'utf8');
    try {
      const manifest = JSON.parse(manifestText) as { files: { name: string; sha256: string }[] };
      const { createHash } = await import('node:crypto');
      manifest.files.find((f) => f.name === 'model.step')!.sha256 = createHash('sha256').update(readFileSync(taskFile(name))).digest('hex');
      writeFileSync(manifestPath, JSON.stringify(manifest, null, 2));
      // The folder's own manifest now agrees, but the database's copy does not.
      await expect(h.generation.handlers.genGetArtifact({ taskId, name }, { transport: 'test' })).rejects.toMatchObject(corrupt);
      await expect(h.generation.handlers.genGetArtifact({ taskId, name: 'revisions/rev_003/manifest.json' }, { transport: 'test' })).rejects.toMatchObject({ code: 'CDSL_ARTIFACT_CORRUPT', data: { file: 'revisions/rev_003/manifest.json' } });
      await expect(h.generation.handlers.genExportZip({ taskId }, { transport: 'test' })).rejects.toMatchObject({ code: 'CDSL_ARTIFACT_CORRUPT' });
    } finally {
      writeFileSync(manifestPath, manifestText);
    }
  });
});

describe('after the byte is restored', () => {
  it('serves and exports the revision again', async () => {
    const served = await h.call<{ size: number }>('genGetArtifact', { taskId, name: 'revisions/rev_003/model.step' });
    expect(served.size).toBe(readFileSync(taskFile('revisions/rev_003/model.step')).length);
    expect((await h.call<{ entries: string[] }>('genExportZip', { taskId })).entries).toContain('revisions/rev_003/model.step');
  });
});

