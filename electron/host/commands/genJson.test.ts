import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAULT_SCENARIOS } from '../../testSupport/cadgenPlayer/faults';
import { createFixturePlayer, type GenFixture } from '../../testSupport/cadgenPlayer/player';
import { startScriptedProvider, type ScriptedProvider } from '../../testSupport/scriptedProvider/index';

// The CLI as a script sees it: `--author chat/<model>` with only CHAT_BASE_URL set (the scripted
// provider over real HTTP), and every --json answer parsed as exactly one JSON document.

const CLI = path.resolve('dist/node/cli.js');
const fixture = JSON.parse(readFileSync(path.resolve('resources/evals/cadgen/v1/plate_with_holes.json'), 'utf8')) as GenFixture;
let provider: ScriptedProvider;
let dataDir = '';
let taskId = '';

function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [CLI, ...args], { env: { PATH: process.env.PATH ?? '', CADSIGHT_DATA_DIR: dataDir, CHAT_BASE_URL: provider.apiBaseUrl }, timeout: 240_000, maxBuffer: 32 << 20 }, (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

/** JSON.parse of the whole stdout: throws unless it is exactly one JSON document. */
const oneDocument = (stdout: string): unknown => JSON.parse(stdout);

beforeAll(async () => {
  provider = await startScriptedProvider({ script: createFixturePlayer(fixture, FAULT_SCENARIOS.format_rejection!.faults) });
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'cadsight-genjson-'));
}, 30_000);

afterAll(async () => {
  await provider?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('cadsight gen --json with the chat provider from the environment', () => {
  it('runs a task with --author chat/<model> (CHAT_BASE_URL only, no CHAT_MODEL) and prints the end state as one JSON document', async () => {
    const run = await cli(['gen', 'new', fixture.request, '--author', 'chat/scripted-model', '--reviewer', 'chat/scripted-model', '--json']);
    expect(run.stderr).not.toContain('[LLM_NOT_CONFIGURED]');
    const task = oneDocument(run.stdout) as { task_id: string; state: string; author: string };
    expect(task).toMatchObject({ state: 'COMPLETED', author: 'chat/scripted-model' });
    expect(run.code).toBe(0);
    taskId = task.task_id;
  }, 240_000);

  it('prints exactly one JSON document for list, show, ledger, ledger --all, export, check and a typed error', async () => {
    expect(taskId).not.toBe('');
    const out = path.join(dataDir, 'export-here');
    for (const args of [['list'], ['show', taskId], ['ledger', taskId], ['ledger', taskId, '--all'], ['export', taskId, '--out', out], ['check', '--author', 'chat/scripted-model', '--reviewer', 'chat/scripted-model'], ['show', 'task_doesnotexist']]) {
      const run = await cli(['gen', ...args, '--json']);
      expect(() => oneDocument(run.stdout), args.join(' ')).not.toThrow();
    }
    const missing = await cli(['gen', 'show', 'task_doesnotexist', '--json']);
    expect(missing.code).toBe(2);
    expect(oneDocument(missing.stdout)).toMatchObject({ error: { code: 'CDSL_TASK_NOT_FOUND', retryable: false } });
    const check = oneDocument((await cli(['gen', 'check', '--author', 'chat/scripted-model', '--reviewer', 'chat/scripted-model', '--json'])).stdout) as { passed: boolean; reports: unknown[] };
    expect(check.reports).toHaveLength(2);
  }, 240_000);

  it('keeps the default ledger as the record of seed §4.4, and --all adds every model output with its redacted arguments, format errors marked', async () => {
    const ledger = oneDocument((await cli(['gen', 'ledger', taskId, '--json'])).stdout) as { event: string; code?: string }[];
    expect(ledger.every((e) => typeof e.event === 'string')).toBe(true);
    expect(ledger.some((e) => e.code === 'CDSL_AUTHOR_FORMAT_INVALID')).toBe(false);
    const all = oneDocument((await cli(['gen', 'ledger', taskId, '--all', '--json'])).stdout) as { record: string; format_error?: boolean; raw_redacted?: string; field_errors?: { path: string; message: string }[] | null; status?: string }[];
    expect(all.filter((l) => l.record === 'ledger')).toHaveLength(ledger.length);
    const invocations = all.filter((l) => l.record === 'invocation');
    expect(invocations.length).toBeGreaterThan(ledger.length);
    const formatErrors = invocations.filter((l) => l.format_error);
    expect(formatErrors.length).toBeGreaterThanOrEqual(1);
    expect(formatErrors[0]).toMatchObject({ status: 'rejected', raw_redacted: expect.any(String), field_errors: [expect.objectContaining({ path: expect.any(String), message: expect.any(String) })] });
    for (const inv of invocations) expect(Buffer.byteLength(inv.raw_redacted ?? '', 'utf8')).toBeLessThanOrEqual(4096);
    // Without --json: one JSON line per record.
    const lines = (await cli(['gen', 'ledger', taskId, '--all'])).stdout.trim().split('\n');
    expect(lines).toHaveLength(all.length);
  }, 120_000);
});
