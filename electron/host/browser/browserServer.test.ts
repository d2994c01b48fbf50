import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { z } from 'zod';
import { createEventBus } from '../../platform/events/eventBus';
import { createIpcRouter } from '../../platform/ipc/router';
import { startBrowserServer, type BrowserServer } from './browserServer';

const table = { echo: { input: z.object({ text: z.string() }).strict(), output: z.object({ text: z.string() }).strict() } };
const events = { notice: z.object({ message: z.string() }).strict() };

let server: BrowserServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function start() {
  const staticDir = mkdtempSync(path.join(tmpdir(), 'static-'));
  writeFileSync(path.join(staticDir, 'index.html'), '<!doctype html><title>t</title>');
  writeFileSync(path.join(tmpdir(), 'outside.txt'), 'outside');
  const bus = createEventBus(events, () => {});
  const router = createIpcRouter(table, { echo: ({ text }) => ({ text }) }, () => {});
  server = await startBrowserServer({ router, subscribeEvents: (sink) => bus.subscribe(sink), staticDir, port: 0, onInternalError: () => {} });
  return { server, bus, origin: `http://127.0.0.1:${server.port}` };
}

function connect(url: string, headers: Record<string, string>): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { headers });
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

  it('serves the page with the token, sets a strict session cookie and a CSP without unsafe-inline', async () => {
    const { server: s } = await start();
    const res = await fetch(s.url);
    expect(res.status).toBe(200);
    expect(res.headers.get('set-cookie')).toMatch(/HttpOnly; SameSite=Strict/);
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

  it('carries calls and events over the WebSocket once authorised by the cookie and the own origin', async () => {
    const { server: s, bus, origin } = await start();
    const ws = await connect(`${origin.replace('http', 'ws')}/ipc`, { cookie: `cadsight_session=${s.token}`, origin });
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
    await expect(connect(url, { cookie: `cadsight_session=${s.token}`, origin: 'http://evil.example' })).rejects.toThrow();
    await expect(connect(url, { cookie: 'cadsight_session=wrong', origin })).rejects.toThrow();
  });
});
