import { spawn } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

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
