import { randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, openSync, readdirSync, rmSync, statSync, writeSync } from 'node:fs';
import path from 'node:path';
import type { PlatformRuntime } from '../composition/platformRuntime';
import type { DoctorCheck } from './doctorCheck';

/** What openDatabase sets and asserts on every open; the check reads them back from the live handle. */
const EXPECTED_PRAGMAS: Record<string, string | number> = { journal_mode: 'wal', synchronous: 2, foreign_keys: 1 };
/** The size walk stops here so a huge artifact store cannot stall the check. */
const MAX_FILES_COUNTED = 200_000;

function folderBytes(root: string): { bytes: number; files: number } {
  let bytes = 0;
  let files = 0;
  const stack = [root];
  while (stack.length > 0 && files < MAX_FILES_COUNTED) {
    const dir = stack.pop()!;
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) stack.push(full);
      else if (entry.isFile()) {
        bytes += statSync(full).size;
        files += 1;
      }
    }
  }
  return { bytes, files };
}

const megabytes = (bytes: number): number => Number((bytes / 1_048_576).toFixed(1));

/** The data folder: writable (a synced probe file), the database pragmas in force, its size. */
export function dataFolderCheck(platform: Pick<PlatformRuntime, 'layout' | 'db'>): DoctorCheck {
  return {
    id: 'data',
    group: 'data',
    label: 'Data folder',
    async run() {
      const probe = path.join(platform.layout.root, `.doctor-${randomBytes(6).toString('hex')}`);
      const fd = openSync(probe, 'wx');
      try {
        writeSync(fd, 'cadsight doctor write probe');
        fsyncSync(fd);
      } finally {
        closeSync(fd);
        rmSync(probe, { force: true });
      }
      const wrong = Object.entries(EXPECTED_PRAGMAS)
        .map(([name, expected]) => [name, platform.db.pragma(name, { simple: true }), expected] as const)
        .filter(([, actual, expected]) => String(actual).toLowerCase() !== String(expected));
      const busy = Number(platform.db.pragma('busy_timeout', { simple: true }));
      const { bytes, files } = folderBytes(platform.layout.root);
      const folder = platform.layout.root;
      const facts = { folder, megabytes: megabytes(bytes), files };
      const where = `${folder}: writable, ${facts.megabytes} MB in ${files} files`;
      if (wrong.length > 0) {
        const pragmas = wrong.map(([n, a, e]) => `${n}=${String(a)} (want ${e})`).join(', ');
        return { status: 'fail', detail: `${where}; database pragmas wrong: ${pragmas}`, finding: { code: 'data-pragmas', params: { ...facts, pragmas } } };
      }
      return {
        status: 'pass',
        detail: `${where}; database WAL, synchronous=FULL, foreign_keys on, busy_timeout ${busy} ms`,
        finding: { code: 'data-ok', params: { ...facts, busyMs: busy } },
      };
    },
  };
}
