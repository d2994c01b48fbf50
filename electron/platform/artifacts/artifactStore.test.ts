import { createHash } from 'node:crypto';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createArtifactStore } from './artifactStore';

const sha = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

describe('createArtifactStore', () => {
  let root = '';
  beforeEach(() => {
    root = mkdtempSync(path.join(tmpdir(), 'cadsight-artifacts-'));
  });
  afterEach(() => {
    // Stored files are read-only; make them removable again.
    rmSync(root, { recursive: true, force: true });
  });

  it('stores bytes under their sha256 in a two-character fan-out folder as a read-only file', async () => {
    const store = createArtifactStore(root);
    const bytes = Buffer.from('hello artifact');
    const ref = await store.put(bytes, { mediaType: 'text/plain' });
    expect(ref).toEqual({ sha256: sha(bytes), size: bytes.length, path: path.join(root, sha(bytes).slice(0, 2), sha(bytes)), mediaType: 'text/plain' });
    expect(readFileSync(ref.path).equals(bytes)).toBe(true);
    if (process.platform !== 'win32') expect(statSync(ref.path).mode & 0o222).toBe(0);
    expect(await store.has(ref.sha256)).toBe(true);
    expect(readdirSync(path.join(root, '.staging'))).toEqual([]);
  });

  it('stores identical content once, also when many puts race', async () => {
    const store = createArtifactStore(root);
    const bytes = Buffer.alloc(256 * 1024, 9);
    const refs = await Promise.all(Array.from({ length: 12 }, () => store.put(bytes)));
    expect(new Set(refs.map((r) => r.path)).size).toBe(1);
    expect(readdirSync(path.dirname(refs[0]!.path))).toEqual([sha(bytes)]);
    expect(readdirSync(path.join(root, '.staging'))).toEqual([]);
  });

  it('stores streams and files by streaming', async () => {
    const store = createArtifactStore(root);
    const parts = [Buffer.from('part one, '), Buffer.from('part two')];
    const fromStream = await store.put(Readable.from(parts));
    expect(fromStream.sha256).toBe(sha(Buffer.concat(parts)));
    const source = path.join(root, 'source.bin');
    writeFileSync(source, Buffer.concat(parts));
    const fromFile = await store.putFile(source);
    expect(fromFile.path).toBe(fromStream.path);
  });

  it('refuses content above maxBytes while streaming and leaves nothing behind', async () => {
    const store = createArtifactStore(root);
    await expect(store.put(Readable.from([Buffer.alloc(10), Buffer.alloc(10)]), { maxBytes: 15 })).rejects.toMatchObject({ code: 'STORE_ARTIFACT_TOO_LARGE' });
    expect(readdirSync(root)).toEqual(['.staging']);
    expect(readdirSync(path.join(root, '.staging'))).toEqual([]);
  });

  it('reports a missing source file as STORE_IO', async () => {
    const store = createArtifactStore(root);
    await expect(store.putFile(path.join(root, 'missing.png'))).rejects.toMatchObject({ code: 'STORE_IO', data: { errno: 'ENOENT' } });
  });

  it('validates ids so a path can never leave the root', async () => {
    const store = createArtifactStore(root);
    for (const bad of ['../../etc/passwd', 'A'.repeat(64), 'a'.repeat(63), `${'a'.repeat(62)}/x`]) {
      expect(() => store.pathOf(bad)).toThrow(expect.objectContaining({ code: 'STORE_ARTIFACT_ID_INVALID' }));
    }
    await expect(store.read('nope')).rejects.toMatchObject({ code: 'STORE_ARTIFACT_ID_INVALID' });
  });

  it('reports a missing artifact as STORE_ARTIFACT_NOT_FOUND', async () => {
    const store = createArtifactStore(root);
    const absent = 'f'.repeat(64);
    expect(await store.has(absent)).toBe(false);
    await expect(store.read(absent)).rejects.toMatchObject({ code: 'STORE_ARTIFACT_NOT_FOUND' });
    await expect(store.markReferenced(absent)).rejects.toMatchObject({ code: 'STORE_ARTIFACT_NOT_FOUND' });
  });

  it('detects altered bytes on verify, verified read and markReferenced, and never replaces them on put', async () => {
    const store = createArtifactStore(root);
    const bytes = Buffer.from('original drawing bytes');
    const ref = await store.put(bytes);
    chmodSync(ref.path, 0o644);
    writeFileSync(ref.path, 'tampered drawing bytes');
    await expect(store.verify(ref.sha256)).rejects.toMatchObject({ code: 'STORE_ARTIFACT_CORRUPT' });
    // Every read checks the hash: altered bytes are reported, never served.
    await expect(store.read(ref.sha256)).rejects.toMatchObject({ code: 'STORE_ARTIFACT_CORRUPT' });
    await expect(store.markReferenced(ref.sha256)).rejects.toMatchObject({ code: 'STORE_ARTIFACT_CORRUPT' });
    await store.put(bytes);
    expect(readFileSync(ref.path, 'utf8')).toBe('tampered drawing bytes');
  });

  it('markReferenced returns the verified ref and restores the read-only mode', async () => {
    const store = createArtifactStore(root);
    const ref = await store.put(Buffer.from('x'));
    chmodSync(ref.path, 0o644);
    expect(await store.markReferenced(ref.sha256)).toEqual({ sha256: ref.sha256, size: 1, path: ref.path });
    if (process.platform !== 'win32') expect(statSync(ref.path).mode & 0o222).toBe(0);
  });

  it('removes only staging files older than the given time', async () => {
    const store = createArtifactStore(root);
    expect(await store.removeStaleStaging(new Date())).toBe(0);
    const staging = path.join(root, '.staging');
    mkdirSync(staging, { recursive: true });
    writeFileSync(path.join(staging, 'old.tmp'), 'crashed put');
    writeFileSync(path.join(staging, 'fresh.tmp'), 'put in progress');
    const twoHoursAgo = new Date(Date.now() - 2 * 3600_000);
    utimesSync(path.join(staging, 'old.tmp'), twoHoursAgo, twoHoursAgo);
    expect(await store.removeStaleStaging(new Date(Date.now() - 3600_000))).toBe(1);
    expect(readdirSync(staging)).toEqual(['fresh.tmp']);
  });

  it('round-trips any byte array with the right sha256', async () => {
    const store = createArtifactStore(root);
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 4096 }), fc.integer({ min: 1, max: 7 }), async (bytes, pieces) => {
        const chunkSize = Math.max(1, Math.ceil(bytes.length / pieces));
        const chunks = Array.from({ length: Math.ceil(bytes.length / chunkSize) }, (_, i) => bytes.slice(i * chunkSize, (i + 1) * chunkSize));
        const ref = await store.put(Readable.from(chunks));
        expect(ref.sha256).toBe(sha(bytes));
        expect(ref.size).toBe(bytes.length);
        expect(new Uint8Array(await store.read(ref.sha256))).toEqual(bytes);
      }),
      { numRuns: 60 },
    );
  });
});
