import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startJsonRpcLineServer, type JsonRpcLineServer } from './jsonRpcLineServer';
import { createRecordingToolProvider } from '../../../../testSupport/cadPeers/testToolProvider';
import { connectRawLineClient, type RawLineClient } from '../../../../testSupport/cadPeers/rawLineClient';

let server: JsonRpcLineServer;
let client: RawLineClient;

beforeEach(async () => {
  server = await startJsonRpcLineServer({ port: 0, handler: createRecordingToolProvider(), maxFrameBytes: 64 * 1024 });
  client = await connectRawLineClient(server.port);
});
afterEach(async () => {
  client.close();
  await server.close();
});

describe('jsonRpcLineServer', () => {
  it('answers tools/list and tools/call with string and numeric ids echoed verbatim', async () => {
    await client.send('{"jsonrpc":"2.0","id":"1","method":"tools/list"}\n{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"t":"图"}}}\n');
    const first = await client.next();
    expect(first.id).toBe('1');
    expect((first.result as { tools: unknown[] }).tools.length).toBeGreaterThan(3);
    expect(await client.next()).toEqual({ jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: '{"t":"图"}' }] } });
  });

  it('does not reply to notifications and does not implement initialize or ping', async () => {
    await client.send('{"jsonrpc":"2.0","method":"tools/list"}\n');
    expect(await client.collectFor(150)).toEqual([]);
    await client.send('{"jsonrpc":"2.0","id":2,"method":"initialize","params":{}}\n{"jsonrpc":"2.0","id":3,"method":"ping"}\n');
    expect(await client.next()).toMatchObject({ id: 2, error: { code: -32601 } });
    expect(await client.next()).toMatchObject({ id: 3, error: { code: -32601 } });
  });

  it('answers malformed JSON with -32700 and keeps serving the connection', async () => {
    await client.send('{oops\n');
    expect(await client.next()).toMatchObject({ id: null, error: { code: -32700 } });
    await client.send('{"jsonrpc":"2.0","id":4,"method":"tools/list"}\n');
    expect(await client.next()).toMatchObject({ id: 4, result: { tools: expect.any(Array) } });
  });

  it('answers bad tools/call params with -32602 and provider errors with -32603 carrying the code', async () => {
    await client.send('{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"arguments":{}}}\n');
    expect(await client.next()).toMatchObject({ id: 5, error: { code: -32602 } });
    await client.send('{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"echo","arguments":[1]}}\n');
    expect(await client.next()).toMatchObject({ id: 6, error: { code: -32602 } });
    await client.send('{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"explode"}}\n');
    expect(await client.next()).toMatchObject({ id: 7, error: { code: -32603, data: { code: 'CAD_TEST_EXPLODED' } } });
  });

  it('refuses an oversized request with -32600 and answers the next one', async () => {
    await client.send(`{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"echo","arguments":{"x":"${'a'.repeat(70 * 1024)}"}}}\n`);
    expect(await client.next()).toMatchObject({ id: null, error: { code: -32600 } });
    await client.send('{"jsonrpc":"2.0","id":9,"method":"tools/list"}\n');
    expect(await client.next()).toMatchObject({ id: 9 });
  });

  it('keeps answering in order when the client does not read (back-pressure) and then reads everything', async () => {
    client.socket.pause();
    const count = 40;
    let batch = '';
    for (let i = 0; i < count; i += 1) batch += `{"jsonrpc":"2.0","id":${i},"method":"tools/call","params":{"name":"get_screenshot","arguments":{"bytes":200000}}}\n`;
    await client.send(batch);
    await new Promise((resolve) => setTimeout(resolve, 100));
    client.socket.resume();
    for (let i = 0; i < count; i += 1) expect((await client.next()).id).toBe(i);
  });

  it('reports a busy port as CAD_SERVER_LISTEN_FAILED', async () => {
    await expect(startJsonRpcLineServer({ port: server.port, handler: createRecordingToolProvider() })).rejects.toMatchObject({ code: 'CAD_SERVER_LISTEN_FAILED' });
  });
});
