import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createFixturePlayer, requestFacts, type GenFixture } from '../../testSupport/cadgenPlayer/player';
import { startScriptedProvider } from '../../testSupport/scriptedProvider/server';
import type { ScriptedProvider } from '../../testSupport/scriptedProvider/types';

// Two `cadsight gen` processes on one task (issue 24 item 6), from the CLI as a user meets it:
// the scripted provider over real HTTP holds the author's first action proposal long enough for a
// second process to try to drive the same task; after the first process is killed, a resume takes
// the task over and completes it.

const CLI = path.resolve('dist/node/cli.js');
const plate = JSON.parse(readFileSync(path.resolve('resources/evals/cadgen/v1/plate_with_holes.json'), 'utf8')) as GenFixture;
const fixture: GenFixture = { ...plate, request: 'Rectangular plate 100 x 60 mm, 8 mm thick', requirements: plate.requirements.slice(0, 1), actions: plate.actions.slice(0, 1) };

const cleanups: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});

interface Run {
  child: ChildProcess;
  done: Promise<{ code: number | null; stdout: string; stderr: string }>;
}

function gen(dataDir: string, provider: ScriptedProvider, args: string[]): Run {
  const env = { PATH: process.env.PATH ?? '', CADSIGHT_DATA_DIR: dataDir, DEFAULT_PROVIDER: 'chat', CHAT_BASE_URL: provider.apiBaseUrl, CHAT_MODEL: 'scripted-model' };
  const child = spawn(process.execPath, [CLI, 'gen', ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
  const done = once(child, 'exit').then(([code]) => ({ code: code as number | null, stdout, stderr }));
  cleanups.push(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  return { child, done };
}

describe('two processes driving one generation task', () => {
  it('refuses the second driver with CDSL_TASK_BUSY while the first lives, and lets a resume take over once the first was killed', async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'cadsight-two-drivers-'));
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    const player = createFixturePlayer(fixture);
    let holding = true;
    let held: () => void = () => undefined;
    const heldNow = new Promise<void>((resolve) => (held = resolve));
    const provider = await startScriptedProvider({
      script: (request) => {
        const step = player(request);
        // The first process's first action proposal hangs (a slow model) until the test lets go.
        if (holding && requestFacts(request)?.state === 'AWAITING_ACTION') {
          held();
          return { ...step, delayMs: 120_000 };
        }
        return step;
      },
    });
    cleanups.push(() => provider.close());

    const first = gen(dataDir, provider, ['new', fixture.request]);
    await Promise.race([heldNow, first.done.then((r) => Promise.reject(new Error(`first driver ended early: ${r.stderr}`)))]);
    const listed = await gen(dataDir, provider, ['list', '--json']).done;
    const [task] = JSON.parse(listed.stdout) as { task_id: string }[];
    expect(task).toBeDefined();

    const second = await gen(dataDir, provider, ['resume', task!.task_id]).done;
    expect(second.code).not.toBe(0);
    expect(second.stderr).toContain('CDSL_TASK_BUSY');

    first.child.kill('SIGKILL');
    await first.done;
    holding = false;
    const takeover = await gen(dataDir, provider, ['resume', task!.task_id, '--json']).done;
    expect(takeover.code, takeover.stderr).toBe(0);
    expect(JSON.parse(takeover.stdout)).toMatchObject({ task_id: task!.task_id, state: 'COMPLETED' });
  }, 240_000);
});
