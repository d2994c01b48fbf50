import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

const CLI = path.resolve('dist/node/cli.js');

let dataDir: string | undefined;
afterEach(() => {
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  dataDir = undefined;
});

function runGen(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'cadsight-gen-'));
  return new Promise((resolve) => {
    execFile(process.execPath, [CLI, 'gen', ...args], { env: { PATH: process.env.PATH ?? '', CADSIGHT_DATA_DIR: dataDir! }, timeout: 60_000 }, (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

describe('cadsight gen, as a new user meets it', () => {
  it('says how to start a task when there is none yet, instead of printing nothing', async () => {
    const { code, stdout } = await runGen(['list']);
    expect(code).toBe(0);
    expect(stdout).toContain('no generation tasks yet; start one with: cadsight gen new "<request>"');
  });

  it('lists no tasks as an empty JSON array with --json', async () => {
    const { code, stdout } = await runGen(['list', '--json']);
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toEqual([]);
  });

  it('refuses a new task without a configured author model with the typed error and exit code 2', async () => {
    const { code, stderr } = await runGen(['new', 'flange OD 120']);
    expect(code).toBe(2);
    expect(stderr).toContain('[LLM_NOT_CONFIGURED]');
  });

  it('refuses a drawing with an unknown sheet size, and a drawing of a task that does not exist, with typed errors', async () => {
    const badSheet = await runGen(['drawing', 'task_x', '--sheet', 'A0', '--out', 'x']);
    expect(badSheet.code).toBe(2);
    expect(badSheet.stderr).toContain('[CDSL_REQUEST_INVALID]');
    expect(badSheet.stderr).toContain('--sheet auto|A4|A3|A2');
    const missing = await runGen(['drawing', 'task_does_not_exist', '--out', path.join(os.tmpdir(), 'never-written')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/\[CDSL_TASK_NOT_FOUND\]|\[CDSL_REQUEST_INVALID\]/);
  });
});
