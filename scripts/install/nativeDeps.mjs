// The two native pieces an install needs, fetched so that a machine reaching only the npm registry
// still installs (issue #26). package.json's allowScripts denies better-sqlite3's and electron's own
// install scripts (both download from GitHub and fail the whole `npm install` when it is blocked);
// the root postinstall (scripts/postinstall.mjs) runs these instead:
// - better-sqlite3 (required): its prebuilt binary (prebuild-install, honouring the
//   npm_config_better_sqlite3_binary_host_mirror setting), else a source build against the Node
//   headers installed next to the running node (official tarballs, nvm, Homebrew, Debian's
//   libnode-dev ship include/node), so node-gyp never downloads headers from nodejs.org.
// - Electron's binary (optional): downloaded by electron/install.js (honouring ELECTRON_MIRROR);
//   a failure leaves browser mode, which scripts/start.mjs falls back to.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(import.meta.url);
const DOWNLOAD_TIMEOUT_MS = 5 * 60_000;
const BUILD_TIMEOUT_MS = 15 * 60_000;

/** True when better-sqlite3's binding loads in a fresh node (no cached failed require). */
export function sqliteBindingLoads() {
  const probe = "new (require('better-sqlite3'))(':memory:').close()";
  return spawnSync(process.execPath, ['-e', probe], { stdio: 'ignore' }).status === 0;
}

/**
 * The folder to pass node-gyp as --nodedir: the prefix of the running node when it has headers of
 * the same version (`<prefix>/include/node/node_version.h`), else null (node-gyp would download).
 */
export function localNodeHeadersDir(execPath = process.execPath, version = process.versions.node) {
  const prefix = path.dirname(path.dirname(execPath));
  const versionHeader = path.join(prefix, 'include', 'node', 'node_version.h');
  if (!existsSync(versionHeader)) return null;
  const text = readFileSync(versionHeader, 'utf8');
  const part = (name) => new RegExp(`#define\\s+NODE_${name}_VERSION\\s+(\\d+)`).exec(text)?.[1];
  const headersVersion = `${part('MAJOR')}.${part('MINOR')}.${part('PATCH')}`;
  return headersVersion === version ? prefix : null;
}

/** node-gyp's CLI: npm's own copy when run by npm, else the one in node_modules. */
function nodeGypCli() {
  const npmCli = process.env.npm_execpath;
  if (npmCli) {
    const bundled = path.join(path.dirname(path.dirname(npmCli)), 'node_modules', 'node-gyp', 'bin', 'node-gyp.js');
    if (existsSync(bundled)) return bundled;
  }
  try {
    return require.resolve('node-gyp/bin/node-gyp.js');
  } catch {
    return null;
  }
}

function run(args, cwd, timeout, log) {
  const result = spawnSync(process.execPath, args, { cwd, timeout, stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' });
  const output = `${result.stdout ?? ''}${result.stderr ?? ''}`.trim();
  if (result.status !== 0 && output) log(output.split('\n').slice(-8).join('\n'));
  return result.status === 0;
}

/**
 * Makes better-sqlite3's binding load: prebuilt binary, else a source build with local headers.
 * @returns true when the binding loads afterwards.
 */
export function ensureSqliteBinding(log = (line) => process.stdout.write(`${line}\n`)) {
  if (sqliteBindingLoads()) return true;
  const packageDir = path.dirname(require.resolve('better-sqlite3/package.json'));
  const prebuild = createRequire(path.join(packageDir, 'package.json')).resolve('prebuild-install/bin.js');
  log('better-sqlite3: fetching its prebuilt binary');
  if (run([prebuild], packageDir, DOWNLOAD_TIMEOUT_MS, log) && sqliteBindingLoads()) return true;

  const gyp = nodeGypCli();
  if (!gyp) {
    log('better-sqlite3: no prebuilt binary and no node-gyp to build it');
    return false;
  }
  const nodedir = localNodeHeadersDir();
  log(
    nodedir
      ? `better-sqlite3: no prebuilt binary; building it from source with the Node headers in ${nodedir}`
      : 'better-sqlite3: no prebuilt binary and no local Node headers; building it from source (node-gyp downloads the headers)',
  );
  const args = [gyp, 'rebuild', '--release', '--jobs=max', ...(nodedir ? [`--nodedir=${nodedir}`] : [])];
  return run(args, packageDir, BUILD_TIMEOUT_MS, log) && sqliteBindingLoads();
}

/** The Electron binary's path when installed, else null. */
export function electronBinary() {
  try {
    const binary = require('electron'); // the package exports the binary path as a string
    return typeof binary === 'string' && existsSync(binary) ? binary : null;
  } catch {
    return null;
  }
}

/**
 * Downloads Electron's binary unless skipped or present. Never throws: a failure is reported
 * and leaves browser mode.
 * @returns 'present' | 'skipped' | 'downloaded' | 'failed' | 'not-installed'
 */
export function installElectronBinary(log = (line) => process.stdout.write(`${line}\n`)) {
  let packageDir;
  try {
    packageDir = path.dirname(require.resolve('electron/package.json'));
  } catch {
    return 'not-installed'; // `npm install --omit=dev`: no desktop app wanted
  }
  if (electronBinary()) return 'present';
  if (process.env.ELECTRON_SKIP_BINARY_DOWNLOAD) return 'skipped';
  log('electron: downloading the desktop binary (set ELECTRON_MIRROR to use a mirror)');
  const result = spawnSync(process.execPath, ['install.js'], {
    cwd: packageDir,
    timeout: DOWNLOAD_TIMEOUT_MS,
    stdio: ['ignore', 'pipe', 'pipe'],
    encoding: 'utf8',
  });
  if (electronBinary()) return 'downloaded';
  const reason = `${result.stderr ?? ''}${result.stdout ?? ''}`.split('\n').find((line) => line.trim()) ?? (result.error?.message || 'no reason given');
  log(`electron: the desktop binary could not be downloaded (${reason.trim()}).`);
  log('electron: `npm start` will open browser mode. For the desktop app, set ELECTRON_MIRROR (see README) and run `npm run install:desktop`.');
  return 'failed';
}
