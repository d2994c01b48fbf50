import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { dataDirLayout, prepareDataDir, resolveDataDir } from './resolveDataDir';

describe('resolveDataDir', () => {
  it('uses an absolute CADSIGHT_DATA_DIR before everything else', () => {
    const resolved = resolveDataDir({ env: { CADSIGHT_DATA_DIR: '/srv/cad/../cadsight' }, platform: 'linux', homedir: '/home/u', electronUserData: '/e' });
    expect(resolved).toEqual({ dir: '/srv/cadsight', source: 'env' });
  });

  it('refuses a relative CADSIGHT_DATA_DIR with a typed error', () => {
    expect(() => resolveDataDir({ env: { CADSIGHT_DATA_DIR: 'data' }, platform: 'linux', homedir: '/home/u' })).toThrow(
      expect.objectContaining({ code: 'STORE_DATA_DIR_INVALID' }),
    );
  });

  it('uses Electron userData when no override is set', () => {
    expect(resolveDataDir({ env: {}, platform: 'win32', homedir: 'C:\\Users\\u', electronUserData: 'C:\\x\\CadSight' })).toEqual({
      dir: 'C:\\x\\CadSight',
      source: 'electron',
    });
  });

  it('follows XDG_CONFIG_HOME on Linux and ignores a relative one', () => {
    expect(resolveDataDir({ env: { XDG_CONFIG_HOME: '/xdg' }, platform: 'linux', homedir: '/home/u' }).dir).toBe('/xdg/CadSight');
    expect(resolveDataDir({ env: { XDG_CONFIG_HOME: 'rel' }, platform: 'linux', homedir: '/home/u' }).dir).toBe('/home/u/.config/CadSight');
  });

  it('uses APPDATA on Windows and Application Support on macOS', () => {
    expect(resolveDataDir({ env: { APPDATA: 'C:\\Users\\u\\AppData\\Roaming' }, platform: 'win32', homedir: 'C:\\Users\\u' }).dir).toBe(
      'C:\\Users\\u\\AppData\\Roaming\\CadSight',
    );
    expect(resolveDataDir({ env: {}, platform: 'win32', homedir: 'C:\\Users\\u' }).dir).toBe('C:\\Users\\u\\AppData\\Roaming\\CadSight');
    expect(resolveDataDir({ env: {}, platform: 'darwin', homedir: '/Users/u' }).dir).toBe('/Users/u/Library/Application Support/CadSight');
  });
});

describe('prepareDataDir', () => {
  let root = '';
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('creates the data folder with mode 0700 and the documented layout', () => {
    root = mkdtempSync(path.join(tmpdir(), 'cadsight-datadir-'));
    const dataDir = path.join(root, 'nested', 'data');
    const layout = prepareDataDir(dataDir);
    expect(layout).toEqual(dataDirLayout(dataDir));
    expect(layout.database).toBe(path.join(dataDir, 'cadsight.db'));
    expect(layout.settings).toBe(path.join(dataDir, 'settings.json'));
    expect(statSync(layout.artifacts).isDirectory()).toBe(true);
    expect(statSync(layout.logs).isDirectory()).toBe(true);
    if (process.platform !== 'win32') expect(statSync(dataDir).mode & 0o777).toBe(0o700);
  });

  it('reports a folder that cannot be created as STORE_DATA_DIR_UNWRITABLE', () => {
    root = mkdtempSync(path.join(tmpdir(), 'cadsight-datadir-'));
    const blocker = path.join(root, 'file');
    writeFileSync(blocker, 'x');
    expect(() => prepareDataDir(path.join(blocker, 'data'))).toThrow(expect.objectContaining({ code: 'STORE_DATA_DIR_UNWRITABLE' }));
  });
});
