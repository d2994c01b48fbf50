import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

/** The built CLI (dist/node/cli.js, rebuilt by the vitest global setup). */
const CLI = path.resolve('dist/node/cli.js');

export interface DxfServerProcess {
  child: ChildProcess;
  port: number;
  /** "127.0.0.1:<port>" as printed on the listening line. */
  address: string;
  stop(): Promise<void>;
}

/** Starts `cadsight dxf-server <args> --port 0` as its own process; resolves once it prints where it listens. */
export async function startDxfServerProcess(args: string[], env: NodeJS.ProcessEnv = process.env): Promise<DxfServerProcess> {
  const child = spawn(process.execPath, [CLI, 'dxf-server', ...args, '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'], env });
  const line = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('\n')) resolve(out.split('\n')[0]!);
    });
    child.once('exit', (code) => reject(new Error(`dxf-server exited early with ${code}`)));
  });
  const address = line.replace(/^listening /, '');
  return {
    child,
    address,
    port: Number(address.split(':').pop()),
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exit = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exit;
    },
  };
}
