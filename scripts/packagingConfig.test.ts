import { createRequire } from 'node:module';
import Ajv from 'ajv';
import { describe, expect, it } from 'vitest';

const require = createRequire(import.meta.url);
const config = require('../build/electron-builder.config.cjs') as Record<string, any>;
const schema = require('app-builder-lib/scheme.json') as Record<string, unknown>;
// The very matcher electron-builder applies to asarUnpack (its own minimatch, `dot: true`).
const { minimatch } = createRequire(require.resolve('app-builder-lib'))('minimatch') as { minimatch: (file: string, pattern: string, options: { dot: boolean }) => boolean };

/** Whether electron-builder's asarUnpack globs send `file` outside the asar. */
const unpacked = (file: string): boolean => (config.asarUnpack as string[]).some((pattern) => minimatch(file, pattern, { dot: true }));

describe('electron-builder configuration', () => {
  it('validates against electron-builder\'s own configuration schema', () => {
    const ajv = new Ajv({ strict: false, allErrors: true });
    const validate = ajv.compile(schema);
    const valid = validate(config);
    expect(validate.errors ?? []).toEqual([]);
    expect(valid).toBe(true);
  });

  it('hardens the Electron fuses', () => {
    expect(config.electronFuses).toMatchObject({
      runAsNode: false,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
    });
  });

  it('unpacks native modules and WASM from the asar and rebuilds natives for Electron', () => {
    expect(config.asar).toBe(true);
    expect(config.npmRebuild).toBe(true);
    for (const file of [
      'node_modules/better-sqlite3/build/Release/better_sqlite3.node',
      'node_modules/@img/sharp-linux-x64/lib/sharp-linux-x64-0.35.5.node',
      'node_modules/@img/sharp-libvips-linux-x64/lib/libvips-cpp.so.8.18.7',
      'node_modules/@img/sharp-win32-x64/lib/libvips-42.dll',
      'node_modules/replicad-opencascadejs/dist/replicad_single.wasm',
    ]) {
      expect(unpacked(file), file).toBe(true);
    }
  });

  it('keeps the Node bundles, the OpenCascade worker script and plain JavaScript inside the asar, where its integrity is checked', () => {
    for (const file of [
      'dist/node/occtWorker.js',
      'dist/node/serve.js',
      'dist/node/cli.js',
      'dist/electron/main.js',
      'node_modules/better-sqlite3/lib/database.js',
      'node_modules/replicad-opencascadejs/dist/replicad_single.js',
      'node_modules/sharp/lib/index.js',
    ]) {
      expect(unpacked(file), file).toBe(false);
    }
  });

  it('targets Windows NSIS and portable and a Linux AppImage', () => {
    expect(config.win.target.map((t: { target: string }) => t.target)).toEqual(['nsis', 'portable']);
    expect(config.linux.target.map((t: { target: string }) => t.target)).toEqual(['AppImage']);
  });

  it('never packages the test corpus or test support', () => {
    const files = JSON.stringify([config.files, config.extraResources]);
    expect(files).not.toMatch(/shared\/corpus|testSupport|fixtures/);
  });
});
