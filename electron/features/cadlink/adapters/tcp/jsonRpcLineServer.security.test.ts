import net from 'node:net';
import { once } from 'node:events';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { startJsonRpcLineServer, type JsonRpcLineServer } from './jsonRpcLineServer';
import { connectTcpSocket, createSystemClock } from './tcpSocket';
import { createCadClient } from '../../application/cadClient';
import { withCadToken } from '../../application/tokenSocket';
import { createToolPolicy } from '../../domain/policy/toolPolicy';
import { createRecordingToolProvider, type RecordingToolProvider } from '../../../../testSupport/cadPeers/testToolProvider';
import { connectRawLineClient } from '../../../../testSupport/cadPeers/rawLineClient';

const TOKEN = 'test-token-0123456789abcdef';
const SAVE_LINE = '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"save_drawing","arguments":{"path":"/tmp/pwned.dxf"}}}';

let server: JsonRpcLineServer | undefined;
let provider: RecordingToolProvider;

async function start(options: Partial<Parameters<typeof startJsonRpcLineServer>[0]> = {}): Promise<JsonRpcLineServer> {
  provider = createRecordingToolProvider();
  server = await startJsonRpcLineServer({ port: 0, handler: provider, ...options });
  return server;
}

afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** Writes raw bytes and resolves with everything the server sent before it closed the socket. */
async function sendRaw(port: number, bytes: string | Uint8Array, waitMs = 2000): Promise<{ reply: string; closedByServer: boolean }> {
  const socket = net.connect(port, '127.0.0.1');
  await once(socket, 'connect');
  let reply = '';
  socket.on('data', (chunk: Buffer) => (reply += chunk.toString('utf8')));
  socket.on('error', () => undefined);
  socket.write(bytes);
  const closedByServer = await Promise.race([once(socket, 'close').then(() => true), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), waitMs))]);
  socket.destroy();
  return { reply, closedByServer };
}

describe('jsonRpcLineServer against other local clients', () => {
  it('never runs the body line of a browser no-cors POST: the HTTP request line closes the connection', async () => {
    const { port } = await start();
    // Exactly what fetch(url, {method: 'POST', mode: 'no-cors', body}) from a web page sends.
    await fetch(`http://127.0.0.1:${port}/`, { method: 'POST', body: `\n${SAVE_LINE}\n`, headers: { 'content-type': 'text/plain' } }).catch(() => undefined);
    const raw = await sendRaw(port, `POST / HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: text/plain\r\nContent-Length: 200\r\n\r\n\n${SAVE_LINE}\n`);
    expect(raw.closedByServer).toBe(true);
    expect(raw.reply).toBe('');
    expect(provider.calls).toEqual([]);
  });

  it('closes a TLS client hello at once without answering', async () => {
    const { port } = await start();
    const hello = Uint8Array.from([0x16, 0x03, 0x01, 0x00, 0xa5, 0x01, 0x00, 0x00, 0xa1, 0x03, 0x03, 0x0a, ...Buffer.from(`\n${SAVE_LINE}\n`)]);
    const raw = await sendRaw(port, hello);
    expect(raw).toEqual({ reply: '', closedByServer: true });
    expect(provider.calls).toEqual([]);
  });

  it('closes any stream whose first non-blank byte is not "{" before a tool can run (property)', async () => {
    const { port } = await start();
    await fc.assert(
      fc.asyncProperty(
        fc.string({ minLength: 1, maxLength: 40 }).filter((prefix) => {
          const first = prefix.trimStart()[0];
          return first !== undefined && first !== '{' && !/^[ \t\r\n]/.test(first);
        }),
        async (prefix) => {
          const raw = await sendRaw(port, `${prefix}\n${SAVE_LINE}\n`);
          expect(raw.closedByServer).toBe(true);
          expect(raw.reply).toBe('');
        },
      ),
      { numRuns: 25 },
    );
    expect(provider.calls).toEqual([]);
  });

  it('still serves a stream that starts with blank lines and then a JSON-RPC object', async () => {
    const { port } = await start();
    const client = await connectRawLineClient(port);
    await client.send('\r\n\n  {"jsonrpc":"2.0","id":"x","method":"tools/list"}\n');
    expect(await client.next()).toMatchObject({ id: 'x' });
    client.close();
  });
});

describe('jsonRpcLineServer with --token', () => {
  it('closes a connection whose first line is a tool call instead of the token', async () => {
    const { port } = await start({ token: TOKEN });
    const raw = await sendRaw(port, `${SAVE_LINE}\n`);
    expect(raw).toEqual({ reply: '', closedByServer: true });
    expect(provider.calls).toEqual([]);
  });

  it('closes a connection that presents a wrong token', async () => {
    const { port } = await start({ token: TOKEN });
    const raw = await sendRaw(port, `{"jsonrpc":"2.0","method":"cadsight/authenticate","params":{"token":"${TOKEN}x"}}\n${SAVE_LINE}\n`);
    expect(raw).toEqual({ reply: '', closedByServer: true });
    expect(provider.calls).toEqual([]);
  });

  it('serves the CAD client once it authenticates through withCadToken', async () => {
    const { port } = await start({ token: TOKEN });
    const client = createCadClient({ host: '127.0.0.1', port, socketFactory: withCadToken(connectTcpSocket, TOKEN), clock: createSystemClock(), random: Math.random, policy: createToolPolicy({ mode: 'read-write' }) });
    try {
      const result = await client.callTool('echo', { a: 1 });
      expect(result).toMatchObject({ ok: true });
      expect(provider.calls).toEqual([{ name: 'echo', args: { a: 1 } }]);
    } finally {
      client.close();
    }
  });
});

describe('jsonRpcLineServer resource limits', () => {
  it('refuses connections over the cap and accepts again once one closes', async () => {
    const { port } = await start({ maxConnections: 2 });
    const a = await connectRawLineClient(port);
    const b = await connectRawLineClient(port);
    const c = await sendRaw(port, '{"jsonrpc":"2.0","id":1,"method":"tools/list"}\n');
    expect(c).toEqual({ reply: '', closedByServer: true });
    a.close();
    await new Promise((resolve) => setTimeout(resolve, 100));
    const d = await connectRawLineClient(port);
    await d.send('{"jsonrpc":"2.0","id":2,"method":"tools/list"}\n');
    expect(await d.next()).toMatchObject({ id: 2 });
    b.close();
    d.close();
  });

  it('closes a slowloris connection that never finishes its line', async () => {
    const { port } = await start({ frameTimeoutMs: 300 });
    const socket = net.connect(port, '127.0.0.1');
    await once(socket, 'connect');
    socket.on('error', () => undefined);
    const drip = setInterval(() => socket.write('a'), 50);
    socket.write('{"jsonrpc":"2.0","id":1,"method":"tools/list","x":"');
    const closed = await Promise.race([once(socket, 'close').then(() => true), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 3000))]);
    clearInterval(drip);
    socket.destroy();
    expect(closed).toBe(true);
  });

  it('closes an idle connection after the idle timeout', async () => {
    const { port } = await start({ idleTimeoutMs: 300 });
    const client = await connectRawLineClient(port);
    await client.send('{"jsonrpc":"2.0","id":1,"method":"tools/list"}\n');
    await client.next();
    const closed = await Promise.race([once(client.socket, 'close').then(() => true), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 3000))]);
    expect(closed).toBe(true);
    await expect.poll(() => server!.connectionCount).toBe(0);
  });
});
