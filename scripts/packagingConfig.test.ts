import { createRequire } from 'node:module';
import Ajv from 'ajv';
import { describe, expect, it } from 'vitest';

const require = createRequire(import.meta.url);
const config = require('../build/electron-builder.config.cjs') as Record<string, any>;
const schema = require('app-builder-lib/scheme.json') as Record<string, unknown>;

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
    for (const pattern of ['**/*.node', '**/*.wasm', 'node_modules/better-sqlite3/**', 'node_modules/replicad-opencascadejs/**']) {
      expect(config.asarUnpack).toContain(pattern);
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
