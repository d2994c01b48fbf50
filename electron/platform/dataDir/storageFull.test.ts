import { closeSync, fsyncSync, mkdtempSync, openSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AppError } from '../../../shared/errors';
import { createIpcRouter } from '../ipc/router';
import { type AtomicWriteFs, writeFileAtomicSync } from './fileSafety';
import { asStorageFull } from './storageFull';

const errno = (code: string, extra: Record<string, unknown> = {}): NodeJS.ErrnoException => Object.assign(new Error(`${code}: simulated`), { code, ...extra });

/** The real file system, except that writes fail with `code` after `allowBytes` bytes (a disk filling up mid-write). */
function fullAfter(allowBytes: number, code = 'ENOSPC'): AtomicWriteFs & { writes: number[] } {
  let left = allowBytes;
  const writes: number[] = [];
  return {
    writes,
    openSync: (file, flags, mode) => openSync(file, flags, mode),
    writeSync(fd, bytes, offset, length) {
      if (left <= 0) throw errno(code);
      // A nearly full disk accepts part of a write before refusing the rest.
      const n = Math.min(length, left);
      left -= n;
      writes.push(n);
      return writeSync(fd, bytes, offset, n);
    },
    fsyncSync,
    closeSync,
    renameSync,
    rmSync: (file, options) => rmSync(file, options),
  };
}

describe('writes that find the disk full (injected file-system port: runs everywhere)', () => {
  let dir = '';
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'cadsight-storage-full-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('turns ENOSPC, EDQUOT and EROFS during an atomic write into one retryable STORAGE_FULL naming the folder and the size, keeps the old file and leaves no temp file', () => {
    fc.assert(
      fc.property(fc.constantFrom('ENOSPC', 'EDQUOT', 'EROFS'), fc.nat(5000), fc.integer({ min: 1, max: 20_000 }), (code, allow, size) => {
        const file = path.join(dir, 'settings.json');
        writeFileSync(file, 'acknowledged');
        const bytes = Buffer.alloc(size, 0x41);
        let thrown: unknown;
        try {
          writeFileAtomicSync(file, bytes, 0o600, fullAfter(allow, code));
        } catch (error) {
          thrown = error;
        }
        if (allow >= size) {
          expect(thrown).toBeUndefined();
          expect(readFileSync(file).equals(bytes)).toBe(true);
        } else {
          expect(thrown).toBeInstanceOf(AppError);
          expect(thrown).toMatchObject({ code: 'STORAGE_FULL', retryable: true, data: { folder: dir, neededBytes: Math.max(4096, size), errno: code } });
          expect((thrown as Error).message).toContain(dir);
          expect(readFileSync(file, 'utf8')).toBe('acknowledged');
        }
        expect(readdirSync(dir)).toEqual(['settings.json']);
      }),
      { numRuns: 60 },
    );
  });

  it('writes everything across short writes instead of leaving a cut file', () => {
    const file = path.join(dir, 'big.bin');
    const bytes = Buffer.alloc(100_000, 7);
    const ports = { ...fullAfter(Number.MAX_SAFE_INTEGER), writeSync: (fd: number, b: Uint8Array, offset: number, length: number) => writeSync(fd, b, offset, Math.min(length, 4096)) };
    writeFileAtomicSync(file, bytes, 0o600, ports);
    expect(readFileSync(file).equals(bytes)).toBe(true);
  });

  it('leaves every other failure as it was (a permission problem is not a full disk)', () => {
    const failing = { ...fullAfter(0), writeSync: () => { throw errno('EACCES'); } };
    expect(() => writeFileAtomicSync(path.join(dir, 'x.json'), 'x', 0o600, failing)).toThrow(expect.objectContaining({ code: 'EACCES' }));
    expect(readdirSync(dir)).toEqual([]);
    expect(asStorageFull(errno('EACCES'), { folder: dir, neededBytes: 1 })).toBeNull();
    // SQLite reports a full disk as SQLITE_FULL, also when wrapped as the cause of another error.
    expect(asStorageFull(new Error('wrapped', { cause: Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' }) }), { folder: dir, neededBytes: 1 })).toMatchObject({ code: 'STORAGE_FULL', data: { errno: 'SQLITE_FULL' } });
  });

  it('answers STORAGE_FULL over IPC for a full disk met on any write path, naming the folder the call wrote to or the data folder', async () => {
    const contract = { write: { input: z.object({}).strict(), output: z.null() } };
    const failures: unknown[] = [
      errno('ENOSPC', { syscall: 'mkdir', path: path.join(dir, 'sets', 'set-1') }),
      Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' }),
      new AppError('STORE_IO', 'Could not write the staging file (EDQUOT).', { cause: errno('EDQUOT') }),
    ];
    const internal: unknown[] = [];
    let next = 0;
    const router = createIpcRouter(contract, { write: () => { throw failures[next++]; } }, (_channel, error) => internal.push(error), { storageFolder: dir });
    expect(await router.dispatch('write', {}, { transport: 'test' })).toMatchObject({ ok: false, error: { code: 'STORAGE_FULL', retryable: true, data: { folder: path.join(dir, 'sets'), errno: 'ENOSPC' } } });
    expect(await router.dispatch('write', {}, { transport: 'test' })).toMatchObject({ ok: false, error: { code: 'STORAGE_FULL', retryable: true, data: { folder: dir, errno: 'SQLITE_FULL' } } });
    expect(await router.dispatch('write', {}, { transport: 'test' })).toMatchObject({ ok: false, error: { code: 'STORAGE_FULL', retryable: true, data: { errno: 'EDQUOT' } } });
    expect(internal).toEqual([]);
  });
});
