import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { z } from 'zod';
import { createEventBus } from '../../platform/events/eventBus';
import { createIpcRouter } from '../../platform/ipc/router';
import { startBrowserServer, type BrowserServer } from './browserServer';

const table = {
  echo: { input: z.object({ text: z.string() }).strict(), output: z.object({ text: z.string() }).strict() },
  slowSize: { input: z.object({ blob: z.string() }).strict(), output: z.object({ bytes: z.number() }).strict() },
};
const IPC = 'cadsight.ipc.v1';
const events = { notice: z.object({ message: z.string() }).strict() };

let server: BrowserServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function start(extra: { maxSockets?: number; largeMessageBudgetBytes?: number } = {}) {
  // A file two levels above the served folder, where `/../../outside.txt` would land; all inside
  // this test's own temporary folder (another user's fixed <tmpdir>/outside.txt cannot clash).
  const root = mkdtempSync(path.join(tmpdir(), 'browser-server-'));
  const staticDir = path.join(root, 'dist', 'renderer');
  mkdirSync(staticDir, { recursive: true });
  writeFileSync(path.join(staticDir, 'index.html'), '<!doctype html><title>t</title>');
  writeFileSync(path.join(root, 'outside.txt'), 'outside');
  const bus = createEventBus(events, () => {});
  const router = createIpcRouter(table, { echo: ({ text }) => ({ text }), slowSize: async ({ blob }) => new Promise((resolve) => setTimeout(() => resolve({ bytes: blob.length }), 300)) }, () => {});
  server = await startBrowserServer({ router, subscribeEvents: (sink) => bus.subscribe(sink), staticDir, port: 0, onInternalError: () => {}, ...extra });
  return { server, bus, origin: `http://127.0.0.1:${server.port}` };
}

function connect(url: string, headers: Record<string, string>, protocols: string[] = []): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, protocols, { headers });
    ws.once('open', () => resolve(ws));
    ws.once('error', reject);
    ws.once('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
  });
}

describe('browser-mode host', () => {
  it('listens on 127.0.0.1 only and prints a URL carrying a 256-bit token', async () => {
    const { server: s } = await start();
    expect(s.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=[0-9a-f]{64}$/);
  });

  it('serves the page with the token, sets only a strict asset cookie that does not carry the token, and a CSP without unsafe-inline', async () => {
    const { server: s } = await start();
    const res = await fetch(s.url);
    expect(res.status).toBe(200);
    expect(res.headers.get('set-cookie')).toMatch(/^cadsight_assets=[0-9a-f]{64}; HttpOnly; SameSite=Strict/);
    expect(res.headers.get('set-cookie')).not.toContain(s.token);
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).not.toContain('unsafe-eval');
  });

  it('refuses requests without the token, with a wrong token, and paths outside the renderer', async () => {
    const { server: s, origin } = await start();
    expect((await fetch(`${origin}/`)).status).toBe(403);
    expect((await fetch(`${origin}/?token=${s.token.replace(/.$/, s.token.endsWith('0') ? '1' : '0')}`)).status).toBe(403);
    expect((await fetch(`${origin}/..%2f..%2foutside.txt?token=${s.token}`)).status).toBe(404);
    expect((await fetch(`${origin}/?token=${s.token}`, { method: 'POST' })).status).toBe(405);
  });

  it('carries calls and events over the WebSocket once authorised by the token subprotocol and the own origin', async () => {
    const { server: s, bus, origin } = await start();
    const ws = await connect(`${origin.replace('http', 'ws')}/ipc`, { origin }, [IPC, `cadsight.token.${s.token}`]);
    expect(ws.protocol).toBe(IPC);
    const messages: unknown[] = [];
    ws.on('message', (data) => messages.push(JSON.parse(String(data))));
    ws.send(JSON.stringify({ t: 'call', id: 7, channel: 'echo', input: { text: '你好' } }));
    ws.send(JSON.stringify({ t: 'call', id: 8, channel: 'echo', input: { text: 42 } }));
    ws.send('not json');
    bus.emit('notice', { message: 'hello' });
    await expect.poll(() => messages.length).toBe(4);
    expect(messages).toContainEqual({ t: 'result', id: 7, result: { ok: true, value: { text: '你好' } } });
    expect(messages).toContainEqual(expect.objectContaining({ t: 'result', id: 8, result: expect.objectContaining({ ok: false }) }));
    expect(messages).toContainEqual(expect.objectContaining({ t: 'error', error: expect.objectContaining({ code: 'IPC_BAD_MESSAGE' }) }));
    expect(messages).toContainEqual({ t: 'event', event: 'notice', payload: { message: 'hello' } });
    ws.close();
  });

  it('refuses WebSocket upgrades without the token or from a foreign origin', async () => {
    const { server: s, origin } = await start();
    const url = `${origin.replace('http', 'ws')}/ipc`;
    await expect(connect(url, { origin })).rejects.toThrow();
    await expect(connect(url, { origin: 'http://evil.example' }, [IPC, `cadsight.token.${s.token}`])).rejects.toThrow();
    await expect(connect(url, { origin }, [IPC, 'cadsight.token.wrong'])).rejects.toThrow();
  });
});

/** Sends raw bytes and returns the first response line (or '' when the socket closed silently). */
async function rawRequest(port: number, bytes: string | Buffer): Promise<string> {
  const socket = net.connect(port, '127.0.0.1');
  await once(socket, 'connect');
  let text = '';
  const firstLine = new Promise<void>((resolve) => {
    socket.on('data', (chunk: Buffer) => {
      text += chunk.toString('latin1');
      if (text.includes('\r\n')) resolve();
    });
  });
  socket.on('error', () => undefined);
  socket.write(bytes);
  await Promise.race([firstLine, once(socket, 'close'), new Promise((resolve) => setTimeout(resolve, 2000))]);
  socket.destroy();
  return text.split('\r\n')[0] ?? '';
}

const upgradeHeaders = (port: number, extra = ''): string =>
  `Host: 127.0.0.1:${port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nOrigin: http://127.0.0.1:${port}\r\n${extra}\r\n`;

describe('browser-mode host against other local pages and processes', () => {
  it('answers 400 to an upgrade of "//[" and a lone "%" instead of crashing, and keeps serving', async () => {
    const { server: s } = await start();
    expect(await rawRequest(s.port, `GET //[ HTTP/1.1\r\n${upgradeHeaders(s.port)}`)).toBe('HTTP/1.1 400 Bad Request');
    expect(await rawRequest(s.port, `GET /%zz HTTP/1.1\r\nHost: 127.0.0.1:${s.port}\r\n\r\n`)).toMatch(/^HTTP\/1\.1 400/);
    expect(await rawRequest(s.port, `GET //[ HTTP/1.1\r\nHost: 127.0.0.1:${s.port}\r\n\r\n`)).toMatch(/^HTTP\/1\.1 400/);
    expect((await fetch(s.url)).status).toBe(200);
  });

  it('does not accept a replayed cookie: the session cookie of today\'s main with a forged Origin opens nothing', async () => {
    const { server: s, origin } = await start();
    const page = await fetch(s.url);
    const assetCookie = (page.headers.get('set-cookie') ?? '').split(';')[0]!;
    // What another local server receives (cookies are not port-scoped), replayed with a forged Origin.
    for (const cookie of [assetCookie, `cadsight_session=${s.token}`]) {
      await expect(connect(`${origin.replace('http', 'ws')}/ipc`, { cookie, origin }, [IPC])).rejects.toThrow();
    }
    // The asset cookie still loads the page's own files (reload without ?token=).
    expect((await fetch(`${origin}/index.html`, { headers: { cookie: assetCookie } })).status).toBe(200);
  });

  it('refuses a Host other than 127.0.0.1:<port> (DNS rebinding) for pages and the IPC socket', async () => {
    const { server: s } = await start();
    expect(await rawRequest(s.port, `GET /?token=${s.token} HTTP/1.1\r\nHost: evil.example:${s.port}\r\n\r\n`)).toMatch(/^HTTP\/1\.1 403/);
    const rebound = `GET /ipc HTTP/1.1\r\n${upgradeHeaders(s.port, `Sec-WebSocket-Protocol: ${IPC}, cadsight.token.${s.token}\r\n`).replace(`Host: 127.0.0.1:${s.port}`, `Host: evil.example:${s.port}`)}`;
    expect(await rawRequest(s.port, rebound)).toBe('HTTP/1.1 403 Forbidden');
  });

  it('survives an invalid frame and a frame announcing more than the message cap, closing only that socket', async () => {
    const { server: s, origin } = await start();
    const auth = [IPC, `cadsight.token.${s.token}`];
    for (const frame of [Buffer.from([0xff, 0x80, 1, 2, 3, 4]), Buffer.concat([Buffer.from([0x82, 0xff]), Buffer.from([0, 0, 0, 1, 0, 0, 0, 0]), Buffer.from([1, 2, 3, 4])])]) {
      const ws = await connect(`${origin.replace('http', 'ws')}/ipc`, { origin }, auth);
      const closed = once(ws, 'close');
      (ws as unknown as { _socket: net.Socket })._socket.write(frame);
      const [code] = await closed;
      expect([1002, 1006, 1009]).toContain(code);
    }
    const ws = await connect(`${origin.replace('http', 'ws')}/ipc`, { origin }, auth);
    ws.send(JSON.stringify({ t: 'call', id: 1, channel: 'echo', input: { text: 'still here' } }));
    const [reply] = await once(ws, 'message');
    expect(JSON.parse(String(reply))).toEqual({ t: 'result', id: 1, result: { ok: true, value: { text: 'still here' } } });
    ws.close();
  });

  it('refuses large messages beyond the shared budget with a typed, retryable IPC_BUSY for that call', async () => {
    const { server: s, origin } = await start({ largeMessageBudgetBytes: 3 * 1024 * 1024 });
    const ws = await connect(`${origin.replace('http', 'ws')}/ipc`, { origin }, [IPC, `cadsight.token.${s.token}`]);
    const replies: Array<{ id: number; result: { ok: boolean; error?: { code: string; retryable: boolean } } }> = [];
    ws.on('message', (data) => replies.push(JSON.parse(String(data))));
    const blob = 'x'.repeat(1.2 * 1024 * 1024);
    for (let id = 1; id <= 4; id += 1) ws.send(JSON.stringify({ t: 'call', id, channel: 'slowSize', input: { blob } }));
    await expect.poll(() => replies.length, { timeout: 5000 }).toBe(4);
    const busy = replies.filter((r) => !r.result.ok);
    expect(busy.map((r) => r.id).sort()).toEqual([3, 4]);
    expect(busy[0]!.result.error).toMatchObject({ code: 'IPC_BUSY', retryable: true });
    ws.close();
  });

  it('caps the number of IPC sockets', async () => {
    const { server: s, origin } = await start({ maxSockets: 2 });
    const auth = [IPC, `cadsight.token.${s.token}`];
    const open = [await connect(`${origin.replace('http', 'ws')}/ipc`, { origin }, auth), await connect(`${origin.replace('http', 'ws')}/ipc`, { origin }, auth)];
    await expect(connect(`${origin.replace('http', 'ws')}/ipc`, { origin }, auth)).rejects.toThrow(/503/);
    for (const ws of open) ws.close();
  });
});
