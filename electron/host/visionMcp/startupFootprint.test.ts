import path from 'node:path';
import { build, type Metafile } from 'esbuild';
import { beforeAll, describe, expect, it } from 'vitest';

const repoRoot = path.resolve(import.meta.dirname, '../../..');

/**
 * What cadsight-vision evaluates before it can answer tools/list: its bundle as
 * scripts/build-node.mjs builds it (npm packages external), read from esbuild's metafile. The
 * cold start (`coldStartMs` in `npm run bench:vision`) is timed by the bench; this pins the
 * causes structurally, so a stray import of another slice's index.ts or a static import of a
 * native module shows up here and not only as a slower bench.
 */
let inputs: string[];
let staticPackages: string[];
let lazyPackages: string[];
beforeAll(async () => {
  const result = await build({
    absWorkingDir: repoRoot,
    entryPoints: ['electron/host/visionMcp.ts'],
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'esm',
    packages: 'external',
    write: false,
    outdir: 'out',
    metafile: true,
    logLevel: 'silent',
  });
  const metafile: Metafile = result.metafile;
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
    const heavy = /^(sharp|pdfjs-dist|@napi-rs\/canvas|fontkit|@resvg\/resvg-js|@gltf-transform\/|ajv)(\/|$)/;
    expect(staticPackages.filter((pkg) => heavy.test(pkg))).toEqual([]);
    // sharp is still wired as a dynamic import the first image resolves; PDFs render in their own
    // worker thread (dist/node/pdfWorker.js, bounded heap), so the server never imports pdf.js.
    expect(lazyPackages).toContain('sharp');
    expect(lazyPackages.filter((pkg) => pkg.startsWith('pdfjs-dist'))).toEqual([]);
  });
});
