import { afterEach, describe, expect, it } from 'vitest';
import { startRecordingPeer } from '../../../../testSupport/cadPeers/recordingPeer';
import { createCadClient, type CadClient } from '../../application/cadClient';
import { createToolPolicy, type ToolPolicy } from '../../domain/policy/toolPolicy';
import { connectTcpSocket, createSystemClock } from './tcpSocket';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const startPeer = (port = 0) => startRecordingPeer((close) => cleanups.push(close), port);

function clientFor(port: number, policy: ToolPolicy = createToolPolicy({ mode: 'read-write' }), requestTimeoutMs = 5000): CadClient {
  const client = createCadClient({
    host: '127.0.0.1',
    port,
    socketFactory: connectTcpSocket,
    clock: createSystemClock(),
    random: Math.random,
    policy,
    requestTimeoutMs,
    connectTimeoutMs: 2000,
    reconnect: { baseMs: 20, maxMs: 200, jitter: 0.2 },
  });
  cleanups.push(() => client.close());
  return client;
}

function waitForState(client: CadClient, state: string, timeoutMs = 5000): Promise<void> {
  return new Promise((resolve, reject) => {
    if (client.state === state) return resolve();
    const timer = setTimeout(() => reject(new Error(`state ${state} not reached (now ${client.state})`)), timeoutMs);
    const off = client.onStateChange((event) => {
      if (event.state !== state) return;
      clearTimeout(timer);
      off();
      resolve();
    });
  });
}

describe('cadClient over real TCP', () => {
  it('lists and calls tools on a line server, with Chinese text intact', async () => {
    const { server } = await startPeer();
    const client = clientFor(server.port);
    const tools = await client.listTools();
    expect(tools.map((t) => t.name)).toContain('get_drawing_info');
    expect(await client.callTool('echo', { 图名: '一层平面图' })).toEqual({ ok: true, content: [{ type: 'text', text: '{"图名":"一层平面图"}' }] });
    expect(await client.callTool('fail')).toMatchObject({ ok: false, error: { code: 'CAD_TOOL_ERROR', data: { text: '没有选中的实体 (nothing selected)' } } });
    expect(await client.callTool('explode')).toMatchObject({ ok: false, error: { code: 'CAD_PROTOCOL_ERROR', data: { rpcCode: -32603, rpcData: { code: 'CAD_TEST_EXPLODED' } } } });
  });

  it('never puts a refused write tool on the wire while read tools still get through', async () => {
    const { server, provider } = await startPeer();
    const client = clientFor(server.port, createToolPolicy({ mode: 'read-only', readOnlyWhitelist: ['get_drawing_info'] }));
    for (const name of ['add_text', 'add_leader_annotation', 'save_drawing', 'echo']) {
      expect(await client.callTool(name, { text: 'x' })).toMatchObject({ ok: false, error: { code: 'CAD_TOOL_REFUSED' } });
    }
    expect((await client.callTool('get_drawing_info')).ok).toBe(true);
    expect(provider.calls.map((call) => call.name)).toEqual(['get_drawing_info']);
  });

  it('times out a slow call and keeps the connection usable', async () => {
    const { server } = await startPeer();
    const client = clientFor(server.port);
    expect(await client.callTool('slow', { ms: 300 }, { timeoutMs: 50 })).toMatchObject({ ok: false, error: { code: 'CAD_TIMEOUT' } });
    expect((await client.callTool('echo')).ok).toBe(true);
    expect(client.stats().lateReplies).toBe(1);
  });

  it('rejects pending calls with CAD_DISCONNECTED when the server goes away, then reconnects when it restarts', async () => {
    const first = await startPeer();
    const port = first.server.port;
    const client = clientFor(port);
    await client.connect();
    const inFlight = client.callTool('slow', { ms: 2000 });
    await new Promise((resolve) => setTimeout(resolve, 50));
    await first.server.close();
    expect(await inFlight).toMatchObject({ ok: false, error: { code: 'CAD_DISCONNECTED' } });
    await waitForState(client, 'backoff');
    const second = await startPeer(port);
    await waitForState(client, 'connected');
    expect(await client.callTool('get_drawing_info')).toMatchObject({ ok: true });
    expect(second.provider.calls.map((c) => c.name)).toEqual(['get_drawing_info']);
    expect(first.provider.calls.map((c) => c.name)).toEqual(['slow']);
  });

  it('says which host:port and what to start when nothing listens', async () => {
    const { server } = await startPeer();
    const port = server.port;
    await server.close();
    const client = clientFor(port);
    const result = await client.callTool('get_layers');
    expect(result).toMatchObject({ ok: false, error: { code: 'CAD_NOT_CONNECTED', retryable: true } });
    if (!result.ok) expect(result.error.message).toMatch(new RegExp(`127\\.0\\.0\\.1:${port}.*cad_mcp_frame`));
  });

  it('carries 10 MB image frames in both directions with back-pressure and pipelining', async () => {
    const { server } = await startPeer();
    const client = clientFor(server.port, undefined, 30_000);
    const rawBytes = 7_500_000; // 10 MB of base64
    const results = await Promise.all([1, 2, 3].map(() => client.callTool('get_screenshot', { bytes: rawBytes })));
    for (const result of results) {
      expect(result.ok).toBe(true);
      if (result.ok) {
        const image = result.content[0];
        expect(image?.type).toBe('image');
        if (image?.type === 'image') expect(Buffer.from(image.data, 'base64').length).toBe(rawBytes);
      }
    }
    const echoed = await client.callTool('echo', { blob: 'b'.repeat(10_000_000) });
    expect(echoed.ok && echoed.content[0]?.type === 'text' && echoed.content[0].text.length).toBe(10_000_000 + '{"blob":""}'.length);
  });
});
