import { afterEach, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { startJsonRpcLineServer } from '../../features/cadlink/index';
import { createRecordingToolProvider } from '../../testSupport/cadPeers/testToolProvider';
import { startBrokenPeer } from '../../testSupport/cadPeers/brokenPeer';

function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['dist/node/cli.js', ...args], { timeout: 30_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

describe('cadsight verify-cad', () => {
  it('prints an all-pass table and exits 0 against a conforming server', async () => {
    const server = await startJsonRpcLineServer({ port: 0, handler: createRecordingToolProvider() });
    cleanups.push(() => server.close());
    const result = await cli(['verify-cad', server.address]);
    expect(result.stdout).toContain('All 11 checks passed');
    expect(result.code).toBe(0);
  });

  it('exits 1 with a FAIL row and valid JSON against a peer that truncates at 2 KB', async () => {
    const peer = await startBrokenPeer('truncate-2k');
    cleanups.push(() => peer.close());
    const result = await cli(['verify-cad', `127.0.0.1:${peer.port}`, '--json']);
    expect(result.code).toBe(1);
    const report = JSON.parse(result.stdout) as { passed: boolean; rows: Array<{ id: string; passed: boolean }> };
    expect(report.passed).toBe(false);
    expect(report.rows.find((row) => row.id === 'large-request')?.passed).toBe(false);
  });

  it('exits 2 with a clear message when nothing listens or the endpoint is malformed', async () => {
    const server = await startJsonRpcLineServer({ port: 0, handler: createRecordingToolProvider() });
    const port = server.port;
    await server.close();
    const down = await cli(['verify-cad', `127.0.0.1:${port}`]);
    expect(down.code).toBe(2);
    expect(down.stderr).toContain(`[CAD_NOT_CONNECTED] Cannot connect to the CAD plugin at 127.0.0.1:${port}`);
    const bad = await cli(['verify-cad', 'localhost']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('CAD_BAD_ENDPOINT');
  });
});
