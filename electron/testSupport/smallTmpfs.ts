import { execFileSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** A small RAM file system mounted for a test, or why it could not be. */
export type SmallTmpfs = { mounted: true; dir: string; unmount(): void } | { mounted: false; reason: string };

/**
 * Mounts a tmpfs of `sizeBytes` on a new temp folder: a real file system that really runs out of
 * space (ENOSPC). Needs Linux and root (CI containers, this machine); elsewhere it returns the
 * reason, which the caller prints when it skips.
 */
export function mountSmallTmpfs(sizeBytes: number): SmallTmpfs {
  if (process.platform !== 'linux') return { mounted: false, reason: `tmpfs mounts need Linux (this is ${process.platform})` };
  if (process.getuid?.() !== 0) return { mounted: false, reason: 'mounting a tmpfs needs root' };
  const dir = mkdtempSync(path.join(tmpdir(), 'cadsight-small-fs-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${sizeBytes},mode=0700`, 'tmpfs', dir], { stdio: 'pipe' });
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    return { mounted: false, reason: `mount -t tmpfs was refused (${String((error as { stderr?: Buffer }).stderr ?? error).trim().slice(0, 200)})` };
  }
  return {
    mounted: true,
    dir,
    unmount() {
      execFileSync('umount', ['-l', dir], { stdio: 'pipe' });
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Writes `file` until the file system refuses (ENOSPC) and returns how many bytes it took. */
export function fillUp(file: string): number {
  const fd = openSync(file, 'w');
  let written = 0;
  try {
    for (const size of [1 << 20, 64 << 10, 4 << 10, 512]) {
      const chunk = Buffer.alloc(size, 0x55);
      for (;;) {
        try {
          written += writeSync(fd, chunk);
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code === 'ENOSPC') break;
          throw error;
        }
      }
    }
  } finally {
    closeSync(fd);
  }
  return written;
}
