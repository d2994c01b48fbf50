import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { moveAside, writeFileAtomicSync } from './fileSafety';

describe('fileSafety', () => {
  let dir = '';
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'cadsight-filesafety-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('replaces a file atomically and leaves no temp file behind', () => {
    const file = path.join(dir, 'settings.json');
    writeFileAtomicSync(file, 'one');
    writeFileAtomicSync(file, new Uint8Array([116, 119, 111]));
    expect(readFileSync(file, 'utf8')).toBe('two');
    expect(readdirSync(dir)).toEqual(['settings.json']);
  });

  it('moves a file and its companions aside with the original bytes and never overwrites an earlier copy', () => {
    const file = path.join(dir, 'cadsight.db');
    const now = new Date('2026-01-02T03:04:05.678Z');
    writeFileSync(file, 'first');
    writeFileSync(`${file}-wal`, 'wal');
    const first = moveAside(file, now, ['-wal', '-shm']);
    expect(first.movedTo).toBe(`${file}.corrupt-2026-01-02T03-04-05-678Z`);
    expect(first.companions).toEqual([`${first.movedTo}-wal`]);
    writeFileSync(file, 'second');
    const second = moveAside(file, now);
    expect(second.movedTo).not.toBe(first.movedTo);
    expect(readFileSync(first.movedTo, 'utf8')).toBe('first');
    expect(readFileSync(`${first.movedTo}-wal`, 'utf8')).toBe('wal');
    expect(readFileSync(second.movedTo, 'utf8')).toBe('second');
  });
});
