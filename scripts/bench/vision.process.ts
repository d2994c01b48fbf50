import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { ScriptedProvider } from '../../electron/testSupport/scriptedProvider';
import { pngBomb } from '../../electron/testSupport/visionFixtures/images';
import { visionEnv } from '../../electron/testSupport/visionFixtures/mcpClient';

export const repoRoot = path.resolve(import.meta.dirname, '../..');
const entry = path.join(repoRoot, 'dist/node/visionMcp.js');

export const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

/** Time from spawn until a process answers; `lines` are written to stdin, `done` reads stdout. */
function timeProcess(args: string[], env: Record<string, string>, input: string, done: (stdout: string) => boolean): Promise<number> {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const child = spawn(process.execPath, args, { env, stdio: ['pipe', 'pipe', 'ignore'], cwd: repoRoot });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
      if (done(stdout)) {
        const elapsed = performance.now() - start;
        child.kill();
        resolve(elapsed);
      }
    });
    child.on('error', reject);
    child.on('exit', () => {
      if (!done(stdout)) resolve(performance.now() - start);
    });
    child.stdin.end(input);
  });
}

/** The smallest possible MCP server on the official SDK (one tool): the cold-start baseline. */
const BARE_MCP_SERVER = `
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';
const server = new McpServer({ name: 'bare', version: '1' });
server.registerTool('echo', { inputSchema: { text: z.string() } }, async ({ text }) => ({ content: [{ type: 'text', text }] }));
await server.connect(new StdioServerTransport());
`;

/**
 * The per-call work of picsense 0.1.1 as a baseline (picsense itself is not installed here): an
 * SDK server whose analyze_images reads each file, base64-encodes it untouched and makes one
 * Chat Completions call — no decode, no hashing, no database. Its overhead over a direct call
 * is the floor a forwarding server can reach.
 */
const FORWARDING_MCP_SERVER = `
import { readFile } from 'node:fs/promises';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';
const server = new McpServer({ name: 'forwarder', version: '1' });
server.registerTool('analyze_images', { inputSchema: { image_sources: z.array(z.string()), prompt: z.string() } }, async ({ image_sources, prompt }) => {
  const images = await Promise.all(image_sources.map(async (p) => ({ type: 'image_url', image_url: { url: 'data:image/png;base64,' + (await readFile(p)).toString('base64') } })));
  const response = await fetch(process.env.CHAT_BASE_URL + '/chat/completions', {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer ' + process.env.CHAT_API_KEY },
    body: JSON.stringify({ model: process.env.CHAT_MODEL, messages: [{ role: 'user', content: [...images, { type: 'text', text: prompt }] }], max_tokens: 4096 }),
  });
  const body = await response.json();
  return { content: [{ type: 'text', text: JSON.stringify({ session_id: 'x', description: body.choices[0].message.content }) }] };
});
await server.connect(new StdioServerTransport());
`;

/** Connects to the forwarding baseline server (see FORWARDING_MCP_SERVER). */
export async function connectForwarder(provider: ScriptedProvider, dir: string): Promise<{ client: Client; transport: StdioClientTransport }> {
  const transport = new StdioClientTransport({ command: process.execPath, args: ['--input-type=module', '-e', FORWARDING_MCP_SERVER], env: visionEnv(provider, dir), cwd: repoRoot, stderr: 'ignore' });
  const client = new Client({ name: 'bench', version: '1' });
  await client.connect(transport);
  return { client, transport };
}

/** Cold start until the tools/list answer: cadsight-vision, a bare SDK server, and `node -e`. */
export async function measureColdStart(provider: ScriptedProvider, dir: string, runs: number): Promise<{ coldStartMs: number; bareMcpServerMs: number; nodeBaselineMs: number }> {
  const init = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '1' } } });
  const list = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
  const env = visionEnv(provider, dir);
  const cold: number[] = [];
  const bareMcp: number[] = [];
  const bare: number[] = [];
  for (let i = 0; i < runs; i++) {
    bare.push(await timeProcess(['-e', 'process.stdout.write("ok")'], env, '', (out) => out.includes('ok')));
    bareMcp.push(await timeProcess(['--input-type=module', '-e', BARE_MCP_SERVER], env, `${init}\n${list}\n`, (out) => out.includes('"id":2')));
    cold.push(await timeProcess([entry], env, `${init}\n${list}\n`, (out) => out.includes('"id":2')));
  }
  return { coldStartMs: median(cold), bareMcpServerMs: median(bareMcp), nodeBaselineMs: median(bare) };
}

export async function connect(provider: ScriptedProvider, dir: string): Promise<{ client: Client; transport: StdioClientTransport }> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [entry], env: visionEnv(provider, dir), cwd: dir, stderr: 'ignore' });
  const client = new Client({ name: 'bench', version: '1' });
  await client.connect(transport);
  return { client, transport };
}

/** Peak resident memory (VmHWM) of a process, in MB (Linux /proc). */
export function peakRssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? NaN);
  return kb / 1024;
}

/** CPU time (ms) used so far by all threads of a process (Linux /proc schedstat, ns resolution). */
export function processCpuMs(pid: number): number {
  let ns = 0;
  for (const task of readdirSync(`/proc/${pid}/task`)) {
    try {
      ns += Number(readFileSync(`/proc/${pid}/task/${task}/schedstat`, 'utf8').split(' ')[0]);
    } catch {
      // The thread ended between the listing and the read: its time is no longer counted anywhere.
    }
  }
  return ns / 1e6;
}

/** Sends image bombs to a running server and reports its peak RSS before and after. */
export async function measureBombs(provider: ScriptedProvider, dir: string): Promise<{ idlePeakMb: number; bombPeakMb: number; refused: string[] }> {
  const { client, transport } = await connect(provider, dir);
  try {
    await client.listTools();
    const pid = transport.pid!;
    const idlePeakMb = peakRssMb(pid);
    const bombs: Array<[string, Uint8Array]> = [
      ['png-60000x60000', pngBomb(60_000, 60_000)],
      ['png-100000x100000', pngBomb(100_000, 100_000)],
      ['png-7000x6000', pngBomb(7_000, 6_000)],
    ];
    const refused: string[] = [];
    for (const [name, bytes] of bombs) {
      const file = path.join(dir, `${name}.png`);
      writeFileSync(file, bytes);
      for (let i = 0; i < 3; i++) {
        const result = (await client.callTool({ name: 'analyze_images', arguments: { image_sources: [file], prompt: 'x' } })) as { isError?: boolean; content: Array<{ text?: string }> };
        if (result.isError) refused.push(`${name}: ${JSON.parse(result.content[0]!.text!).error.code}`);
      }
    }
    return { idlePeakMb, bombPeakMb: peakRssMb(pid), refused: [...new Set(refused)] };
  } finally {
    await client.close();
  }
}
