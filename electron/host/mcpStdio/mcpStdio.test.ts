import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { afterEach, describe, expect, it } from 'vitest';
import { startScriptedProvider } from '../../testSupport/scriptedProvider';
import { spawnVisionServer, textJson, visionEnv } from '../../testSupport/visionFixtures/mcpClient';
import { solidPng } from '../../testSupport/visionFixtures/images';

const repoRoot = path.resolve(import.meta.dirname, '../../..');
const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A spawned stdio server driven line by line, to send what an SDK client never would. */
function spawnRaw(entry: string, args: string[], env: Record<string, string>): { child: ChildProcessWithoutNullStreams; next: () => Promise<any>; write: (text: string) => Promise<void> } {
  const child = spawn(process.execPath, [path.join(repoRoot, 'dist/node', entry), ...args], { env, stdio: ['pipe', 'pipe', 'pipe'] });
  cleanups.push(() => {
    if (child.exitCode === null) child.kill('SIGTERM');
  });
  const lines: any[] = [];
  let wake: (() => void) | null = null;
  createInterface({ input: child.stdout }).on('line', (line) => {
    lines.push(JSON.parse(line));
    wake?.();
  });
  return {
    child,
    async next() {
      const deadline = Date.now() + 20_000;
      while (lines.length === 0) {
        if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
        if (Date.now() > deadline) throw new Error('no reply');
        await new Promise<void>((resolve) => {
          wake = resolve;
          setTimeout(resolve, 200);
        });
      }
      return lines.shift();
    },
    write: (text) => new Promise((resolve, reject) => child.stdin.write(text, (error) => (error ? reject(error) : resolve()))),
  };
}

const initialize = '{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}\n{"jsonrpc":"2.0","method":"notifications/initialized"}\n';

async function expectSurvivesBadLines(server: ReturnType<typeof spawnRaw>): Promise<void> {
  await server.write(initialize);
  expect(await server.next()).toMatchObject({ id: 0, result: { serverInfo: expect.any(Object) } });
  await server.write('{"jsonrpc":"2.0","id":1,"method":"tools/list" this is not json\n');
  expect(await server.next()).toMatchObject({ id: null, error: { code: -32700 } });
  // Over the line cap (64 MiB), written in pieces as a pipe would deliver it.
  const piece = 'A'.repeat(4 * 1024 * 1024);
  await server.write('{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"x","arguments":{"data":"');
  for (let i = 0; i < 17; i += 1) await server.write(piece);
  await server.write('"}}}\n');
  const refused = await server.next();
  // The id written before params is read from the line's start: the client is answered, not left to time out.
  expect(refused).toMatchObject({ id: 2, error: { code: -32600 } });
  expect(refused.error.message).toMatch(/file paths or URLs/);
  // The official SDK writes the id last: it is read from the line's end once the line is over.
  await server.write('{"method":"tools/call","params":{"name":"x","arguments":{"data":"');
  for (let i = 0; i < 17; i += 1) await server.write(piece);
  await server.write('"}},"jsonrpc":"2.0","id":"sdk-7"}\n');
  expect(await server.next()).toMatchObject({ id: 'sdk-7', error: { code: -32600 } });
  await server.write('{"jsonrpc":"2.0","id":3,"method":"ping"}\n');
  expect(await server.next()).toMatchObject({ id: 3, result: {} });
  expect(server.child.exitCode).toBeNull();
}

describe('MCP stdio servers against oversized and malformed lines', () => {
  it('cadsight-vision answers two 4 MB inline images (a 10+ MiB line) instead of exiting, then keeps serving', async () => {
    const server = await spawnVisionServer(() => ({ text: 'seen' }));
    cleanups.push(() => server.close());
    const png = Buffer.from(await solidPng(8, 8)).toString('base64');
    // Valid base64 of a PNG followed by padding bytes the decoder must reject or ignore: 4 MB each.
    const big = `data:image/png;base64,${Buffer.concat([Buffer.from(png, 'base64'), Buffer.alloc(4 * 1024 * 1024)]).toString('base64')}`;
    expect(2 * big.length).toBeGreaterThan(10 * 1024 * 1024);
    const result = await server.call('analyze_images', { image_sources: [big, big], prompt: 'describe' });
    expect(result.content.length).toBeGreaterThan(0);
    const small = await server.call('analyze_images', { image_sources: [`data:image/png;base64,${png}`], prompt: 'describe' });
    expect(small.isError, JSON.stringify(small.content)).toBeFalsy();
    expect(textJson(small).description).toBe('seen');
  });

  it('cadsight-vision refuses inline images beyond its documented total with a hint to pass paths', async () => {
    const server = await spawnVisionServer(() => ({ text: 'seen' }));
    cleanups.push(() => server.close());
    const chunk = `data:image/png;base64,${'A'.repeat(17_000_000)}`;
    const result = await server.call('analyze_images', { image_sources: [chunk, chunk, chunk], prompt: 'describe' }).catch((error: Error) => ({ isError: true, content: [{ type: 'text', text: error.message }] }));
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).toMatch(/file paths or URLs/);
  });

  it('cadsight-vision answers malformed JSON with -32700 and an oversized line with -32600, and keeps serving', async () => {
    const provider = await startScriptedProvider({ script: () => ({ text: 'x' }) });
    cleanups.push(() => provider.close());
    const dir = mkdtempSync(path.join(tmpdir(), 'mcp-stdio-'));
    await expectSurvivesBadLines(spawnRaw('visionMcp.js', [], visionEnv(provider, dir)));
  });

  it('cadsight-cad-bridge does the same', async () => {
    await expectSurvivesBadLines(spawnRaw('cadBridge.js', ['--cad', '127.0.0.1:9'], { PATH: process.env.PATH ?? '', LOG_LEVEL: 'error' }));
  });
});
