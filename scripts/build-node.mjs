// Bundles the Node-side entry points (desktop main/preload, browser-mode host, CLI,
// MCP stdio servers, worker threads) with esbuild. npm packages stay external so native
// modules (better-sqlite3, sharp) and WASM (OpenCascade) load from node_modules, except the
// pure-JS packages an entry bundles for its start-up time (scripts/nodeBundles.mjs).
import { build } from 'esbuild';
import { existsSync, readFileSync } from 'node:fs';
import { bundledPackages, bundleOptionsFor } from './nodeBundles.mjs';

/** Entry points: [source, output name]. A slice adds its entries here. */
const nodeEntries = [
  ['electron/host/cli.ts', 'cli'],
  ['electron/host/serve.ts', 'serve'],
  ['electron/host/visionMcp.ts', 'visionMcp'],
  ['electron/host/cadBridge.ts', 'cadBridge'],
  ['electron/features/cadgen/adapters/occt/occtWorker.ts', 'occtWorker'],
  ['electron/features/vision/adapters/pdf/pdfRenderWorker.ts', 'pdfWorker'],
  // Test support (offline evals and the README's scripted walkthrough), never loaded by the app.
  ['electron/testSupport/cadgenPlayer/serve.ts', 'scriptedCadgenProvider'],
  ['electron/testSupport/cadgenCrash/child.ts', 'cadgenCrashChild'],
];

const present = nodeEntries.filter(([src]) => existsSync(src));

const optionsFor = (name) => bundleOptionsFor(name, JSON.parse(readFileSync('package.json', 'utf8')));

const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  sourcemap: true,
  logLevel: 'warning',
  packages: 'external',
};

// --lenient (used by the vitest global setup): build entries one by one and only warn about a
// broken one, so one slice's work in progress does not stop every other slice's tests.
// `npm run build` (and so CI) is strict.
const lenient = process.argv.includes('--lenient');
const esmBanner = { js: "import { createRequire as __cadsightCreateRequire } from 'node:module'; const require = __cadsightCreateRequire(import.meta.url);" };
// Entries with bundled packages are built on their own: esbuild options are per build.
const shared = present.filter(([, name]) => !bundledPackages[name]);
const own = present.filter(([, name]) => bundledPackages[name]).map((entry) => [entry]);
const groups = [...(lenient ? shared.map((entry) => [entry]) : [shared]), ...own];
for (const group of groups) {
  try {
    await build({
      ...common,
      ...optionsFor(group[0][1]),
      format: 'esm',
      entryPoints: Object.fromEntries(group.map(([src, name]) => [name, src])),
      outdir: 'dist/node',
      banner: esmBanner,
    });
  } catch (error) {
    if (!lenient) throw error;
    process.stderr.write(`build-node: skipped ${group.map(([src]) => src).join(', ')}: ${error.message.split('\n')[0]}\n`);
  }
}

if (existsSync('electron/main/main.ts')) {
  await build({ ...common, format: 'esm', entryPoints: { main: 'electron/main/main.ts' }, outdir: 'dist/electron', outExtension: { '.js': '.js' },
    banner: esmBanner });
}
if (existsSync('electron/preload/preload.ts')) {
  // A sandboxed preload can only require('electron'): bundle everything else in, CommonJS.
  await build({ ...common, packages: undefined, external: ['electron'], format: 'cjs', entryPoints: { preload: 'electron/preload/preload.ts' }, outdir: 'dist/electron', outExtension: { '.js': '.cjs' } });
}
