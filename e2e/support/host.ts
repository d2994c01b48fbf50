import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';

export interface RunningHost {
  url: string;
  origin: string;
  token: string;
  dataDir: string;
  stdoutLines: string[];
  stderr: string[];
  process: ChildProcess;
  stop(): Promise<void>;
}

export const READY_LINE = /^CadSight ready: (http:\/\/127\.0\.0\.1:(\d+))\/\?token=([0-9a-f]+)$/;

/** A fresh data folder for one journey. */
export function tempDataDir(): string {
  return mkdtempSync(path.join(tmpdir(), 'cadsight-e2e-'));
}

/** Starts the built browser-mode host (`node dist/node/serve.js`) and waits for its ready line. */
export async function startHost(options: { dataDir?: string; env?: Record<string, string>; args?: string[] } = {}): Promise<RunningHost> {
  const dataDir = options.dataDir ?? tempDataDir();
  const child = spawn(process.execPath, ['dist/node/serve.js', ...(options.args ?? [])], {
    env: { ...process.env, CADSIGHT_DATA_DIR: dataDir, LANG: 'en_US.UTF-8', LC_ALL: 'en_US.UTF-8', ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const stdoutLines: string[] = [];
  const stderr: string[] = [];
  child.stderr!.on('data', (chunk: Buffer) => stderr.push(chunk.toString()));
  const lines = createInterface({ input: child.stdout! });
  const ready = await new Promise<RegExpMatchArray>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`host did not print its ready line; stderr: ${stderr.join('')}`)), 30_000);
    child.once('exit', (code) => reject(new Error(`host exited with ${code}; stderr: ${stderr.join('')}`)));
    lines.on('line', (line) => {
      stdoutLines.push(line);
      const match = READY_LINE.exec(line);
      if (match) {
        clearTimeout(timer);
        resolve(match);
      }
    });
  });
  return {
    url: ready[0].slice('CadSight ready: '.length),
    origin: ready[1]!,
    token: ready[3]!,
    dataDir,
    stdoutLines,
    stderr,
    process: child,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}
