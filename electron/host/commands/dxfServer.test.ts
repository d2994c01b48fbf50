import { execFile, spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { startDxfServerProcess } from '../../testSupport/cadPeers/dxfServerProcess';

const CLI = path.resolve('dist/node/cli.js');
const DRAWING = path.resolve('electron/testSupport/fixtures/dxf/mech_flange_3frames_modelspace_DERIVED.dxf');

/** Sends newline-delimited JSON-RPC requests and resolves with one reply per request. */
function exchange(port: number, requests: object[]): Promise<any[]> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let buffer = '';
    const replies: any[] = [];
    socket.on('data', (chunk) => {
      buffer += chunk.toString('utf8');
      let nl: number;
      while ((nl = buffer.indexOf('\n')) >= 0) {
        replies.push(JSON.parse(buffer.slice(0, nl)));
        buffer = buffer.slice(nl + 1);
        if (replies.length === requests.length) {
          socket.end();
          resolve(replies);
        }
      }
    });
    socket.on('error', reject);
    socket.write(requests.map((r) => JSON.stringify(r)).join('\n') + '\n');
  });
}

function cli(args: string[], env: NodeJS.ProcessEnv = process.env): Promise<{ code: number; stdout: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [CLI, ...args], { timeout: 30_000, env }, (error, stdout) => resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout }));
  });
}

const TOKEN = 'dxf-server-test-token-42';

describe('cadsight dxf-server against other local clients', () => {
  it('never writes over the original or outside its folder, however the path is spelled', async () => {
    // The drawing's folder inside this test's own temporary folder, so the escape targets above it
    // are ours too (a fixed name in the shared tmpdir could be another user's file).
    const outer = realpathSync(mkdtempSync(path.join(tmpdir(), 'dxf-server-save-')));
    const dir = path.join(outer, 'drawings');
    mkdirSync(dir);
    const source = path.join(dir, 'orig.dxf');
    copyFileSync(DRAWING, source);
    const server = await startDxfServerProcess([source]);
    try {
      const spellings = [`${dir}//orig.dxf`, `${dir}/./orig.dxf`, `${dir}/x/../orig.dxf`, path.join(outer, 'dxf-server-escaped.dxf'), `${dir}/../escaped.ai-review.dxf`];
      const replies = await exchange(server.port, [
        { jsonrpc: '2.0', id: 0, method: 'tools/call', params: { name: 'add_text', arguments: { position: [0, 0], text: 'x' } } },
        ...spellings.map((p, i) => ({ jsonrpc: '2.0', id: i + 1, method: 'tools/call', params: { name: 'save_drawing', arguments: { path: p, overwrite_original: true } } })),
        { jsonrpc: '2.0', id: 99, method: 'tools/call', params: { name: 'save_drawing', arguments: {} } },
      ]);
      for (const reply of replies.slice(1, -1)) {
        expect(reply.result.isError).toBe(true);
        expect(JSON.parse(reply.result.content[0].text).code).toMatch(/^CAD_DXF_(OVERWRITE|SAVE)_REFUSED$/);
      }
      expect(readFileSync(source)).toEqual(readFileSync(DRAWING));
      expect(existsSync(path.join(outer, 'dxf-server-escaped.dxf'))).toBe(false);
      expect(existsSync(path.join(path.dirname(dir), 'escaped.ai-review.dxf'))).toBe(false);
      expect(JSON.parse(replies.at(-1).result.content[0].text).path).toBe(path.join(dir, 'orig.ai-review.dxf'));
    } finally {
      await server.stop();
    }
  });

  it('with --token serves verify-cad given the same token and closes connections without it', async () => {
    const server = await startDxfServerProcess([DRAWING, '--token', TOKEN]);
    try {
      const without = await cli(['verify-cad', `127.0.0.1:${server.port}`, '--json', '--timeout-ms', '1000']);
      expect(without.code).not.toBe(0);
      const withToken = await cli(['verify-cad', `127.0.0.1:${server.port}`, '--token', TOKEN]);
      expect(withToken.stdout).toContain('All 11 checks passed');
      expect(withToken.code).toBe(0);
      const fromEnv = await cli(['verify-cad', `127.0.0.1:${server.port}`], { ...process.env, CADSIGHT_CAD_TOKEN: TOKEN });
      expect(fromEnv.code).toBe(0);
    } finally {
      await server.stop();
    }
  });
});

describe('cadsight dxf-server', () => {
  it('prints its address, serves tools/list and tools/call over TCP, and stops on SIGTERM', async () => {
    const child = spawn(process.execPath, [CLI, 'dxf-server', DRAWING, '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
    const line = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (c: Buffer) => {
        out += c.toString();
        if (out.includes('\n')) resolve(out.split('\n')[0] as string);
      });
      child.once('exit', (code) => reject(new Error(`exited early with ${code}`)));
    });
    expect(line).toMatch(/^listening 127\.0\.0\.1:\d+$/);
    const port = Number(line.split(':')[1]);
    const [list, info] = await exchange(port, [
      { jsonrpc: '2.0', id: 'a', method: 'tools/list' },
      { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'find_frames', arguments: {} } },
    ]);
    expect(list.id).toBe('a');
    expect(list.result.tools.map((t: any) => t.name)).toEqual(expect.arrayContaining(['get_drawing_info', 'find_frames', 'get_screenshot', 'add_leader_annotation', 'save_drawing']));
    expect(list.result.tools.find((t: any) => t.name === 'add_leader_annotation').inputSchema.properties.points.minItems).toBe(2);
    expect(info.id).toBe(2);
    expect(JSON.parse(info.result.content[0].text).frames).toHaveLength(3);
    const exit = new Promise<number | null>((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    expect(await exit).toBe(0);
  });

  it('exits with a typed error for a file that is not a DXF drawing', async () => {
    const child = spawn(process.execPath, [CLI, 'dxf-server', path.resolve('package.json'), '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let err = '';
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code).toBe(2);
    expect(err).toContain('[CAD_DXF_INVALID]');
  });
});
