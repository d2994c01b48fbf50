import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { localNodeHeadersDir } from './nativeDeps.mjs';

/** A node installation prefix (bin/node + include/node/node_version.h) in its own temporary folder. */
function fakePrefix(headerVersion: string | null): { prefix: string; execPath: string } {
  const prefix = mkdtempSync(path.join(tmpdir(), 'node-prefix-'));
  mkdirSync(path.join(prefix, 'bin'));
  if (headerVersion) {
    const [major, minor, patch] = headerVersion.split('.');
    mkdirSync(path.join(prefix, 'include', 'node'), { recursive: true });
    writeFileSync(
      path.join(prefix, 'include', 'node', 'node_version.h'),
      `#ifndef SRC_NODE_VERSION_H_\n#define NODE_MAJOR_VERSION ${major}\n#define NODE_MINOR_VERSION ${minor}\n#define NODE_PATCH_VERSION ${patch}\n#define NODE_VERSION_IS_RELEASE 1\n`,
    );
  }
  return { prefix, execPath: path.join(prefix, 'bin', 'node') };
}

describe('the Node headers a source build of better-sqlite3 uses instead of downloading them from nodejs.org', () => {
  it('uses the prefix of the running node when its include/node headers have the same version', () => {
    const { prefix, execPath } = fakePrefix('20.20.2');
    expect(localNodeHeadersDir(execPath, '20.20.2')).toBe(prefix);
  });

  it('refuses headers of another Node version (a binding built against them would not load)', () => {
    const { execPath } = fakePrefix('20.19.0');
    expect(localNodeHeadersDir(execPath, '20.20.2')).toBeNull();
    expect(localNodeHeadersDir(fakePrefix('2.20.2').execPath, '20.20.2')).toBeNull();
  });

  it('finds nothing where the installation ships no headers (Windows installers, some distro packages)', () => {
    expect(localNodeHeadersDir(fakePrefix(null).execPath, '20.20.2')).toBeNull();
  });

  it('finds the headers of the node running this test on this machine', () => {
    const found = localNodeHeadersDir();
    if (found === null) {
      process.stdout.write('SKIP: this node installation ships no include/node headers\n');
      return;
    }
    expect(path.resolve(found, 'bin')).toBe(path.dirname(process.execPath));
  });
});
