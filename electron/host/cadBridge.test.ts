import { afterEach, describe, expect, it } from 'vitest';
import { startRecordingPeer } from '../testSupport/cadPeers/recordingPeer';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { startJsonRpcLineServer } from '../features/cadlink/index';
import { createRecordingToolProvider } from '../testSupport/cadPeers/testToolProvider';

// The bridge is driven as a user's MCP client drives it: the official SDK client over stdio,
// spawning the bundled binary, against a cad_mcp_frame-compatible peer on real TCP.

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const startPeer = (port = 0) => startRecordingPeer((close) => cleanups.push(close), port);

async function startBridge(port: number, extraArgs: string[] = []): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['dist/node/cadBridge.js', '--cad', `127.0.0.1:${port}`, ...extraArgs],
    env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'warn' },
    stderr: 'pipe',
  });
  const client = new Client({ name: 'cadsight-bridge-test', version: '1.0.0' });
  await client.connect(transport);
  cleanups.push(() => client.close());
  return client;
}

// callTool's declared result also admits the legacy {toolResult} shape, hence `unknown`.
function text(result: unknown): string {
  return ((result as { content: Array<{ text?: string }> }).content ?? []).map((block) => block.text ?? '').join('\n');
}

async function freePort(): Promise<number> {
  const server = await startJsonRpcLineServer({ port: 0, handler: createRecordingToolProvider() });
  await server.close();
  return server.port;
}

describe('cadsight-cad-bridge', () => {
  it('answers initialize and ping itself and proxies tools/list and tools/call with text and image content', async () => {
    const { server, provider } = await startPeer();
    const client = await startBridge(server.port);
    expect(client.getServerVersion()?.name).toBe('cadsight-cad-bridge');
    await client.ping();
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(['echo', 'get_screenshot', 'add_text']));
    expect(tools.every((tool) => tool.inputSchema.type === 'object')).toBe(true);
    const echoed = await client.callTool({ name: 'echo', arguments: { 图名: '一层平面图' } });
    expect(text(echoed)).toBe('{"图名":"一层平面图"}');
    const shot = await client.callTool({ name: 'get_screenshot', arguments: { bytes: 3000 } });
    expect(shot.content).toEqual([{ type: 'image', data: Buffer.alloc(3000, 7).toString('base64'), mimeType: 'image/png' }, { type: 'text', text: 'bytes=3000' }]);
    const failed = await client.callTool({ name: 'fail', arguments: {} });
    expect(failed.isError).toBe(true);
    expect(text(failed)).toContain('[CAD_TOOL_ERROR] fail: 没有选中的实体');
    expect(provider.calls.map((call) => call.name)).toEqual(['echo', 'get_screenshot', 'fail']);
  });

  it('refuses a result larger than the stdio limit with CAD_RESULT_TOO_LARGE instead of breaking the client', async () => {
    const { server } = await startPeer();
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: ['dist/node/cadBridge.js', '--cad', server.address],
      env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'warn', CAD_BRIDGE_MAX_RESULT_BYTES: '5000' },
      stderr: 'pipe',
    });
    const client = new Client({ name: 'cadsight-bridge-test', version: '1.0.0' });
    await client.connect(transport);
    cleanups.push(() => client.close());
    const big = await client.callTool({ name: 'get_screenshot', arguments: { bytes: 6000 } });
    expect(big.isError).toBe(true);
    expect(text(big)).toMatch(/^\[CAD_RESULT_TOO_LARGE\] get_screenshot returned 9 KB, more than .* \(5 KB;/);
    expect((await client.callTool({ name: 'get_screenshot', arguments: { bytes: 1000 } })).isError).toBeFalsy();
  });

  it('hides and refuses write tools with --read-only, and the refused call never reaches the plugin', async () => {
    const { server, provider } = await startPeer();
    const client = await startBridge(server.port, ['--read-only']);
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    expect(names).toContain('get_drawing_info');
    expect(names).not.toContain('add_text');
    expect(names).not.toContain('echo');
    const refused = await client.callTool({ name: 'add_text', arguments: { text: 'x' } });
    expect(refused.isError).toBe(true);
    expect(text(refused)).toContain('[CAD_TOOL_REFUSED]');
    expect((await client.callTool({ name: 'get_drawing_info', arguments: {} })).isError).toBeFalsy();
    expect(provider.calls.map((call) => call.name)).toEqual(['get_drawing_info']);
  });

  it('explains which host:port is down and what to start, while still answering ping', async () => {
    const port = await freePort();
    const client = await startBridge(port);
    await client.ping();
    const result = await client.callTool({ name: 'get_layers', arguments: {} });
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(new RegExp(`\\[CAD_NOT_CONNECTED\\] Cannot connect to the CAD plugin at 127\\.0\\.0\\.1:${port}.*cad_mcp_frame`));
    await expect(client.listTools()).rejects.toThrow(/CAD_NOT_CONNECTED.*Start AutoCAD/);
  });

  it('reconnects when the plugin restarts on the same port', async () => {
    const first = await startPeer();
    const port = first.server.port;
    const client = await startBridge(port);
    expect((await client.callTool({ name: 'echo', arguments: { n: 1 } })).isError).toBeFalsy();
    await first.server.close();
    const during = await client.callTool({ name: 'echo', arguments: { n: 2 } });
    expect(during.isError).toBe(true);
    expect(text(during)).toMatch(/CAD_(NOT_CONNECTED|DISCONNECTED)/);
    const second = await startPeer(port);
    expect(text(await client.callTool({ name: 'echo', arguments: { n: 3 } }))).toBe('{"n":3}');
    expect(second.provider.calls).toEqual([{ name: 'echo', args: { n: 3 } }]);
  });

  it('writes only JSON-RPC to stdout and exits when stdin closes', async () => {
    const { server } = await startPeer();
    const child = spawn(process.execPath, ['dist/node/cadBridge.js', '--cad', server.address], { env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'debug' }, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.stdin.write('{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}\n');
    child.stdin.write('{"jsonrpc":"2.0","method":"notifications/initialized"}\n{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{}}}\n');
    const deadline = Date.now() + 10_000;
    while (!stdout.includes('"id":2') && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    const exited = once(child, 'exit');
    child.stdin.end();
    const [code] = await Promise.race([exited, new Promise<[null]>((resolve) => setTimeout(() => resolve([null]), 5000))]);
    if (child.exitCode === null) child.kill();
    expect(code).toBe(0);
    const lines = stdout.split('\n').filter((line) => line.length > 0);
    expect(lines.length).toBeGreaterThanOrEqual(2);
    for (const line of lines) expect(JSON.parse(line)).toMatchObject({ jsonrpc: '2.0' });
    expect(stderr).toContain('cadsight-cad-bridge ready');
  });

  it('refuses a bad endpoint or a write tool on the whitelist with a clear message and exit code 1', async () => {
    const child = spawn(process.execPath, ['dist/node/cadBridge.js', '--cad', 'nonsense'], { env: { PATH: process.env.PATH ?? '' }, stdio: ['pipe', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const [code] = await once(child, 'exit');
    expect(code).toBe(1);
    expect(stderr).toContain('[CAD_BAD_ENDPOINT]');
    const writeWhitelisted = spawn(process.execPath, ['dist/node/cadBridge.js', '--read-only'], { env: { PATH: process.env.PATH ?? '', CAD_READ_ONLY_TOOLS: 'get_layers,add_text' }, stdio: ['pipe', 'pipe', 'pipe'] });
    let policyError = '';
    writeWhitelisted.stderr.on('data', (chunk: Buffer) => (policyError += chunk.toString('utf8')));
    expect((await once(writeWhitelisted, 'exit'))[0]).toBe(1);
    expect(policyError).toContain('[CAD_POLICY_INVALID]');
    expect(policyError).toContain('add_text');
  });
});
