import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { build, type BuildOptions, type Metafile } from 'esbuild';
import { beforeAll, describe, expect, it } from 'vitest';
// The bundling rule scripts/build-node.mjs applies (plain .mjs shared with the build script).
// @ts-expect-error -- a JavaScript module without declarations
import { bundleOptionsFor } from '../../../scripts/nodeBundles.mjs';
import { startScriptedProvider } from '../../testSupport/scriptedProvider';
import { visionEnv } from '../../testSupport/visionFixtures/mcpClient';

const repoRoot = path.resolve(import.meta.dirname, '../../..');
const entry = path.join(repoRoot, 'dist/node/visionMcp.js');

/**
 * What cadsight-vision evaluates before it can answer tools/list: its bundle as
 * scripts/build-node.mjs builds it (npm packages external but for the ones it bundles), read
 * from esbuild's metafile. The cold start (`coldStartMs` in `npm run bench:vision`) is timed by
 * the bench; this pins the causes structurally, so a stray import of another slice's index.ts,
 * a static import of a native module or an SDK loaded file by file shows up here and not only
 * as a slower bench.
 */
let inputs: string[];
let staticPackages: string[];
let lazyPackages: string[];
beforeAll(async () => {
  const options = bundleOptionsFor('visionMcp', JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8'))) as Pick<BuildOptions, 'packages' | 'external'>;
  const result = await build({
    absWorkingDir: repoRoot,
    entryPoints: ['electron/host/visionMcp.ts'],
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'esm',
    packages: 'external',
    ...options,
    write: false,
    outdir: 'out',
    metafile: true,
    logLevel: 'silent',
  });
  const metafile: Metafile = result.metafile!;
  inputs = Object.keys(metafile.inputs);
  const external = (kind: string) => Object.values(metafile.inputs).flatMap((input) => input.imports.filter((i) => i.external && i.kind === kind).map((i) => i.path));
  staticPackages = external('import-statement');
  lazyPackages = external('dynamic-import');
}, 60_000);

describe('the cadsight-vision bundle at start-up', () => {
  it('holds no code of the drawing and CadLink slices', () => {
    expect(inputs.filter((file) => /^electron\/features\/(drawing|cadlink)\//.test(file))).toEqual([]);
  });

  it('holds only the migrations of the review and cadgen slices', () => {
    const foreign = inputs.filter((file) => /^electron\/features\/(review|cadgen)\//.test(file));
    expect(foreign.length).toBeGreaterThan(0);
    expect(foreign.filter((file) => !/migrations\.ts$/i.test(file))).toEqual([]);
  });

  it('loads sharp only on first use, pdf.js only inside the PDF worker, and no canvas, font or CAD-export package at all', () => {
    const heavy = /^(sharp|pdfjs-dist|@napi-rs\/canvas|fontkit|@resvg\/resvg-js|@gltf-transform\/)(\/|$)/;
    expect(staticPackages.filter((pkg) => heavy.test(pkg))).toEqual([]);
    // sharp is still wired as a dynamic import the first image resolves; PDFs render in their own
    // worker thread (dist/node/pdfWorker.js, bounded heap), so the server never imports pdf.js.
    expect(lazyPackages).toContain('sharp');
    expect(lazyPackages.filter((pkg) => pkg.startsWith('pdfjs-dist'))).toEqual([]);
  });

  it('carries the MCP SDK, zod and ajv inside the bundle, so none of their hundreds of modules is resolved at start', () => {
    expect(staticPackages.filter((pkg) => /^(@modelcontextprotocol\/sdk|zod|ajv)(\/|$)/.test(pkg))).toEqual([]);
    expect(inputs.some((file) => file.includes('node_modules/@modelcontextprotocol/sdk/'))).toBe(true);
    // Only better-sqlite3 (native) is loaded from node_modules before the first call.
    expect([...new Set(staticPackages.filter((pkg) => !pkg.startsWith('node:')))]).toEqual(['better-sqlite3']);
  });
});

describe('the cadsight-vision process at start-up', () => {
  it('answers initialize and tools/list without opening the session database, and opens it on the first tool call', async () => {
    const provider = await startScriptedProvider({ script: [] });
    const dir = mkdtempSync(path.join(tmpdir(), 'cadsight-vision-start-'));
    const child = spawn(process.execPath, [entry], { env: visionEnv(provider, dir), stdio: ['pipe', 'pipe', 'ignore'] });
    try {
      let out = '';
      const reply = (id: number) =>
        new Promise<void>((resolve, reject) => {
          const check = () => (out.includes(`"id":${id}`) ? resolve() : undefined);
          child.stdout.on('data', (chunk: Buffer) => {
            out += chunk.toString('utf8');
            check();
          });
          child.once('exit', () => reject(new Error(`exited before answering ${id}: ${out}`)));
          check();
        });
      const send = (message: object) => child.stdin.write(`${JSON.stringify(message)}\n`);
      send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } });
      send({ jsonrpc: '2.0', method: 'notifications/initialized' });
      send({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
      await reply(2);
      const dataDir = path.join(dir, 'data');
      expect(existsSync(dataDir) ? readdirSync(dataDir) : []).toEqual([]);
      send({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'list_sessions', arguments: {} } });
      await reply(3);
      expect(JSON.parse(out.trim().split('\n').at(-1)!)).toMatchObject({ id: 3, result: { structuredContent: { sessions: [] } } });
      expect(readdirSync(dataDir)).toContain('cadsight.db');
    } finally {
      child.kill();
      await provider.close();
    }
  }, 30_000);
});
