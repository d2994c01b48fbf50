import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createSqliteTaskRepository, LATEST_CONFORMANCE } from '../../features/cadgen/index';
import { openDatabase } from '../../platform/db/openDatabase';
import { startDxfServerProcess, type DxfServerProcess } from '../../testSupport/cadPeers/dxfServerProcess';
import { allMigrations } from '../composition/migrations';
import { CONFORMING_MODEL_SCRIPT, startScriptedProvider, type ScriptedProvider } from '../../testSupport/scriptedProvider';

const CLI = path.resolve('dist/node/cli.js');
const DRAWING = path.resolve('electron/testSupport/fixtures/dxf/mech_flange_3frames_modelspace_DERIVED.dxf');
const KEY = 'sk-doctor-canary-5e4d3c2b1a09';

let provider: ScriptedProvider | undefined;
let server: DxfServerProcess | undefined;
let dataDir: string | undefined;
afterEach(async () => {
  await provider?.close();
  await server?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  provider = server = dataDir = undefined;
});

function runDoctor(args: string[], env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [CLI, 'doctor', ...args], { env: { PATH: process.env.PATH ?? '', ...env }, timeout: 120_000 }, (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

async function startDxfServer(): Promise<string> {
  server = await startDxfServerProcess([DRAWING]);
  return server.address;
}

function freshDataDir(): string {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'cadsight-doctor-'));
  return dataDir;
}

describe('cadsight doctor', () => {
  it('reports the scripted provider, the DXF server and the kernel as working, and exits 0', async () => {
    // The first answer is the system check's own authenticated call, then the capability checks.
    provider = await startScriptedProvider({ script: [{ text: 'pong' }, ...CONFORMING_MODEL_SCRIPT], apiKey: KEY });
    const cad = await startDxfServer();
    const env = { CADSIGHT_DATA_DIR: freshDataDir(), CHAT_BASE_URL: provider.apiBaseUrl, CHAT_API_KEY: KEY, CHAT_MODEL: 'scripted-vl' };
    const { code, stdout, stderr } = await runDoctor(['--json', '--cad', cad], env);
    expect(stderr).toBe('');
    const report = JSON.parse(stdout);
    const row = (id: string) => report.items.find((item: { id: string }) => item.id === id);
    expect(row('kernel')).toMatchObject({ status: 'pass', detail: expect.stringMatching(/kernel started in \d+ ms/) });
    expect(row('provider:chat')).toMatchObject({ status: 'pass', detail: expect.stringContaining('capabilities: plainText, imageInput, forcedToolCall, toolLoop') });
    // The generation protocol's own schema check is a stored result of `cadsight gen check`.
    expect(row('provider:chat').detail).toContain('CAD protocol schemas not checked (run cadsight gen check --author chat/scripted-vl)');
    expect(row('cad')).toMatchObject({ status: 'pass', detail: expect.stringMatching(/verify-cad (\d+)\/\1 checks pass/) });
    expect(row('data')).toMatchObject({ status: 'pass', detail: expect.stringContaining('WAL, synchronous=FULL') });
    // The same rows as codes the UI words in its language (Settings → System check).
    expect(row('kernel').finding).toMatchObject({ code: 'kernel-started', params: { ms: expect.any(Number) } });
    expect(row('cad').finding).toMatchObject({ code: 'cad-pass', params: { address: cad } });
    expect(row('data').finding).toMatchObject({ code: 'data-ok', params: { files: expect.any(Number) } });
    expect(row('fonts').status).toBe('pass');
    expect(row('node').status).toBe('pass');
    expect(report.ok).toBe(true);
    expect(code).toBe(0);
    expect(stdout).not.toContain(KEY);
  });

  it('shows the stored result of cadsight gen check for the provider model', async () => {
    provider = await startScriptedProvider({ script: [{ text: 'pong' }, ...CONFORMING_MODEL_SCRIPT], apiKey: KEY });
    const data = freshDataDir();
    const { db } = openDatabase({ file: path.join(data, 'cadsight.db'), migrations: allMigrations });
    createSqliteTaskRepository(db, { now: () => new Date('2026-12-01T00:00:00Z') }).saveCapabilities('chat/scripted-vl', LATEST_CONFORMANCE, true, { mode: 'strict' });
    db.close();
    const { stdout } = await runDoctor(['--json', '--cad', '127.0.0.1:9'], { CADSIGHT_DATA_DIR: data, CHAT_BASE_URL: provider.apiBaseUrl, CHAT_API_KEY: KEY, CHAT_MODEL: 'scripted-vl' });
    const row = JSON.parse(stdout).items.find((item: { id: string }) => item.id === 'provider:chat');
    expect(row.detail).toContain('CAD protocol schemas passed (cadsight gen check, 2026-12-01)');
  });

  it('fails with the typed reason when a named AutoCAD address is down or a provider rejects its key', async () => {
    provider = await startScriptedProvider({ script: CONFORMING_MODEL_SCRIPT, apiKey: KEY });
    const env = { CADSIGHT_DATA_DIR: freshDataDir(), CHAT_BASE_URL: provider.apiBaseUrl, CHAT_API_KEY: `${KEY}-wrong`, CHAT_MODEL: 'scripted-vl' };
    const { code, stdout } = await runDoctor(['--cad', '127.0.0.1:9'], env);
    expect(code).toBe(1);
    expect(stdout).toMatch(/AutoCAD plugin address\s+FAIL\s+\[CAD_/);
    expect(stdout).toMatch(/Provider chat \(environment\)\s+FAIL\s+model scripted-vl: \[LLM_AUTH\]/);
    expect(stdout).toMatch(/\d+ checks failed/);
    expect(stdout).not.toContain(KEY);
  });

  it('treats an unconfigured provider and a closed AutoCAD at the default address as warnings, not failures', async () => {
    const { code, stdout } = await runDoctor(['--no-model-calls'], { CADSIGHT_DATA_DIR: freshDataDir(), CADSIGHT_CAD_PORT: '9' });
    // CADSIGHT_CAD_PORT is an explicit choice: a closed port there is a failure.
    expect(stdout).toMatch(/AutoCAD plugin address\s+FAIL/);
    expect(stdout).toMatch(/Model providers\s+warn\s+none configured/);
    expect(code).toBe(1);
    const defaults = await runDoctor(['--no-model-calls'], { CADSIGHT_DATA_DIR: dataDir! });
    expect(defaults.stdout).toMatch(/AutoCAD plugin address\s+(warn|ok)/);
  });
});
