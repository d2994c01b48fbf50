import { describe, expect, it } from 'vitest';
import { createCadClient, type CadClientOptions } from './cadClient';
import { createToolPolicy } from '../domain/policy/toolPolicy';
import { AppError } from '../../../../shared/errors';
import { createFakeSocket, createScriptedSocketFactory, type FakeSocket } from '../../../testSupport/cadPeers/fakeSocket';
import { createManualClock } from '../../../testSupport/cadPeers/manualClock';

const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

function setup(sockets: Array<FakeSocket | Error>, overrides: Partial<CadClientOptions> = {}) {
  const clock = createManualClock();
  const factory = createScriptedSocketFactory(sockets);
  const client = createCadClient({
    host: '127.0.0.1',
    port: 8080,
    socketFactory: factory,
    clock,
    random: () => 0.5,
    policy: createToolPolicy({ mode: 'read-write' }),
    requestTimeoutMs: 1000,
    reconnect: { baseMs: 100, maxMs: 1000, jitter: 0.5 },
    ...overrides,
  });
  return { client, clock, factory };
}

function sentRequests(socket: FakeSocket): Array<{ id: number; method: string; params?: { name?: string } }> {
  return socket.written.map((line) => JSON.parse(line));
}

describe('cadClient', () => {
  it('refuses a write tool in a read-only session without connecting or writing a byte', async () => {
    const socket = createFakeSocket();
    const { client, factory } = setup([socket], { policy: createToolPolicy({ mode: 'read-only' }) });
    const result = await client.callTool('add_leader_annotation', { points: [[0, 0], [1, 1]], text: 'x' });
    expect(result).toMatchObject({ ok: false, error: { code: 'CAD_TOOL_REFUSED', data: { tool: 'add_leader_annotation', mode: 'read-only' } } });
    expect(factory.attempts).toBe(0);
    expect(socket.written).toEqual([]);
    expect(client.stats().refused).toBe(1);
  });

  it('maps content, isError, JSON-RPC errors and malformed results to typed outcomes', async () => {
    const socket = createFakeSocket();
    const { client } = setup([socket]);
    const calls = [client.callTool('a'), client.callTool('b'), client.callTool('c'), client.callTool('d')];
    await settle();
    const [a, b, c, d] = sentRequests(socket).map((r) => r.id);
    socket.reply(`{"jsonrpc":"2.0","id":${a},"result":{"content":[{"type":"text","text":"图框 3"}]}}\n`);
    socket.reply(`{"jsonrpc":"2.0","id":${b},"result":{"content":[{"type":"text","text":"没有实体"}],"isError":true}}\n`);
    socket.reply(`{"jsonrpc":"2.0","id":${c},"error":{"code":-32601,"message":"Tool not found"}}\n{"jsonrpc":"2.0","id":${d},"result":{"content":"oops"}}\n`);
    const [ra, rb, rc, rd] = await Promise.all(calls);
    expect(ra).toEqual({ ok: true, content: [{ type: 'text', text: '图框 3' }] });
    expect(rb).toMatchObject({ ok: false, error: { code: 'CAD_TOOL_ERROR', data: { tool: 'b', text: '没有实体' } } });
    expect(rc).toMatchObject({ ok: false, error: { code: 'CAD_PROTOCOL_ERROR', data: { rpcCode: -32601, rpcMessage: 'Tool not found' } } });
    expect(rd).toMatchObject({ ok: false, error: { code: 'CAD_PROTOCOL_ERROR' } });
    expect(rb?.ok === false ? rb.error : null).toBeInstanceOf(AppError);
  });

  it('does not accept a string id as the reply to a numeric id', async () => {
    const socket = createFakeSocket();
    const { client } = setup([socket]);
    const call = client.callTool('echo');
    await settle();
    const id = sentRequests(socket)[0]!.id;
    socket.reply(`{"jsonrpc":"2.0","id":"${id}","result":{"content":[]}}\n`);
    await settle();
    expect(client.stats()).toMatchObject({ unknownReplies: 1, pending: 1 });
    socket.reply(`{"jsonrpc":"2.0","id":${id},"result":{"content":[]}}\n`);
    expect(await call).toEqual({ ok: true, content: [] });
  });

  it('times out a call, counts its late reply and never resends it', async () => {
    const socket = createFakeSocket();
    const { client, clock } = setup([socket]);
    const call = client.callTool('slow', {}, { timeoutMs: 50 });
    await settle();
    clock.advance(50);
    expect(await call).toMatchObject({ ok: false, error: { code: 'CAD_TIMEOUT', retryable: true } });
    socket.reply(`{"jsonrpc":"2.0","id":1,"result":{"content":[]}}\n`);
    expect(client.stats()).toMatchObject({ lateReplies: 1, sent: 1, pending: 0 });
    expect(socket.written).toHaveLength(1);
  });

  it('cancels a call through its AbortSignal', async () => {
    const socket = createFakeSocket();
    const { client } = setup([socket]);
    const controller = new AbortController();
    const call = client.callTool('slow', {}, { signal: controller.signal });
    await settle();
    controller.abort();
    expect(await call).toMatchObject({ ok: false, error: { code: 'CAD_ABORTED' } });
  });

  it('waits for drain before writing more when the socket reports back-pressure', async () => {
    const socket = createFakeSocket();
    const { client } = setup([socket]);
    socket.writable = false;
    const first = client.callTool('one');
    await settle();
    const second = client.callTool('two');
    const third = client.callTool('three');
    await settle();
    expect(sentRequests(socket).map((r) => r.params?.name)).toEqual(['one']);
    socket.drain();
    expect(sentRequests(socket).map((r) => r.params?.name)).toEqual(['one', 'two', 'three']);
    socket.reply('{"jsonrpc":"2.0","id":1,"result":{"content":[]}}\n{"jsonrpc":"2.0","id":2,"result":{"content":[]}}\n{"jsonrpc":"2.0","id":3,"result":{"content":[]}}\n');
    expect((await Promise.all([first, second, third])).every((r) => r.ok)).toBe(true);
  });

  it('rejects pending calls with CAD_FRAME_TOO_LARGE and closes the connection when a reply exceeds the frame cap', async () => {
    const socket = createFakeSocket();
    const { client } = setup([socket], { maxFrameBytes: 100 });
    const call = client.callTool('big');
    await settle();
    socket.reply(`{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"${'x'.repeat(200)}`);
    expect(await call).toMatchObject({ ok: false, error: { code: 'CAD_FRAME_TOO_LARGE', data: { direction: 'reply', maxFrameBytes: 100 } } });
    expect(socket.closed).toBe(true);
    expect(await client.callTool('x', { blob: 'y'.repeat(200) })).toMatchObject({ ok: false, error: { code: 'CAD_NOT_CONNECTED' } });
  });

  it('refuses to send a request larger than the frame cap', async () => {
    const socket = createFakeSocket();
    const { client } = setup([socket], { maxFrameBytes: 100 });
    expect(await client.callTool('x', { blob: 'y'.repeat(200) })).toMatchObject({ ok: false, error: { code: 'CAD_FRAME_TOO_LARGE', data: { direction: 'request' } } });
    expect(socket.written).toEqual([]);
  });

  it('fails in-flight calls with CAD_DISCONNECTED on a drop and reconnects with capped, jittered backoff', async () => {
    const first = createFakeSocket();
    const second = createFakeSocket();
    const refused = new AppError('CAD_NOT_CONNECTED', 'refused', { retryable: true, data: { reason: 'ECONNREFUSED' } });
    const { client, clock, factory } = setup([first, refused, refused, refused, refused, second]);
    const states: string[] = [];
    client.onStateChange((event) => states.push(event.retryInMs === undefined ? event.state : `${event.state}:${event.retryInMs}`));
    await client.connect();
    const call = client.callTool('add_text', { text: 'x' });
    await settle();
    first.drop('ECONNRESET');
    expect(await call).toMatchObject({ ok: false, error: { code: 'CAD_DISCONNECTED' } });
    // Delays: min(1000, 100 * 2^n) * (1 - 0.5 * 0.5), n = 0 after the drop, then 0, 1, 2, 3 after each failure.
    for (let i = 0; i < 5; i += 1) {
      clock.advance(clock.pendingDelays[0]!);
      await settle();
    }
    expect(states).toEqual(['connecting', 'connected', 'backoff:75', 'connecting', 'backoff:75', 'connecting', 'backoff:150', 'connecting', 'backoff:300', 'connecting', 'backoff:600', 'connecting', 'connected']);
    expect(factory.attempts).toBe(6);
    // The write that was in flight is not resent after reconnecting.
    expect(second.written).toEqual([]);
    client.close();
    await settle();
    expect(client.state).toBe('disconnected');
    expect(clock.pendingDelays).toEqual([]);
  });

  it('reports CAD_NOT_CONNECTED naming host:port when nothing listens, with one attempt per call', async () => {
    const refused = new AppError('CAD_NOT_CONNECTED', 'Cannot connect to the CAD plugin at 127.0.0.1:8080', { retryable: true });
    const { client, factory } = setup([refused, refused]);
    expect(await client.callTool('get_layers')).toMatchObject({ ok: false, error: { code: 'CAD_NOT_CONNECTED', message: expect.stringContaining('127.0.0.1:8080') } });
    await expect(client.listTools()).rejects.toMatchObject({ code: 'CAD_NOT_CONNECTED' });
    expect(factory.attempts).toBe(2);
    expect(client.state).toBe('disconnected');
  });

  it('ends in disconnected, without retry timers, when closed while connecting', async () => {
    let release: (socket: FakeSocket) => void = () => undefined;
    const clock = createManualClock();
    const client = createCadClient({
      host: '127.0.0.1',
      port: 8080,
      socketFactory: () => new Promise((resolve) => (release = resolve)),
      clock,
      random: () => 0,
      policy: createToolPolicy({ mode: 'read-write' }),
    });
    const connecting = client.connect();
    await settle();
    expect(client.state).toBe('connecting');
    client.close();
    const late = createFakeSocket();
    release(late);
    await expect(connecting).rejects.toMatchObject({ code: 'CAD_NOT_CONNECTED' });
    expect(client.state).toBe('disconnected');
    expect(late.closed).toBe(true);
    expect(clock.pendingDelays).toEqual([]);
  });

  it('caches tools/list until refreshTools or a reconnect', async () => {
    const socket = createFakeSocket();
    const { client } = setup([socket]);
    const list = client.listTools();
    const again = client.listTools();
    await settle();
    socket.reply('{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"get_layers","inputSchema":{"type":"object"}}]}}\n');
    expect(await list).toEqual([{ name: 'get_layers', inputSchema: { type: 'object' } }]);
    expect(await again).toBe(await list);
    expect(await client.listTools()).toBe(await list);
    const refreshed = client.refreshTools();
    await settle();
    socket.reply('{"jsonrpc":"2.0","id":2,"result":{"tools":[]}}\n');
    expect(await refreshed).toEqual([]);
    expect(socket.written).toHaveLength(2);
  });
});
