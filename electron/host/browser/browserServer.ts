import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import path from 'node:path';
import { WebSocketServer, type WebSocket } from 'ws';
import { AppError } from '../../../shared/errors';
import { clientMessageSchema, MAX_CLIENT_MESSAGE_BYTES } from '../../../shared/ipc/wire';
import type { EventSink } from '../../platform/events/eventBus';
import type { IpcRouter } from '../../platform/ipc/router';
import { contentSecurityPolicy } from '../../platform/ipc/csp';

export interface BrowserServerOptions {
  router: IpcRouter;
  /** Subscribes a sink to main -> renderer events; returns the unsubscribe function. */
  subscribeEvents: (sink: EventSink) => () => void;
  /** Folder with the built renderer (index.html + assets). */
  staticDir: string;
  /** 0 = any free port. */
  port: number;
  /** Fixed token for tests; default: 32 random bytes, hex. */
  token?: string;
  onInternalError: (error: unknown) => void;
}

export interface BrowserServer {
  url: string;
  port: number;
  token: string;
  close(): Promise<void>;
}

const COOKIE = 'cadsight_session';
const MIME: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
  '.glb': 'model/gltf-binary',
  '.wasm': 'application/wasm',
};

function sameSecret(a: string | undefined | null, b: string): boolean {
  if (!a) return false;
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

function cookieValue(req: IncomingMessage): string | undefined {
  const header = req.headers.cookie ?? '';
  for (const part of header.split(';')) {
    const [k, ...v] = part.trim().split('=');
    if (k === COOKIE) return v.join('=');
  }
  return undefined;
}

/**
 * Browser mode host: serves the built renderer and carries the IPC contract over a WebSocket,
 * on 127.0.0.1 only. The per-launch token must come with the first page load (`/?token=`);
 * the server then sets an HttpOnly, SameSite=Strict cookie that authorises assets and the
 * WebSocket. Requests without a valid token or cookie get 403; WebSocket upgrades also need
 * the server's own Origin.
 */
export async function startBrowserServer(options: BrowserServerOptions): Promise<BrowserServer> {
  const token = options.token ?? randomBytes(32).toString('hex');
  const staticRoot = path.resolve(options.staticDir);
  let origin = '';

  const authorised = (req: IncomingMessage, url: URL): boolean =>
    sameSecret(url.searchParams.get('token'), token) || sameSecret(cookieValue(req), token);

  const refuse = (res: ServerResponse, status: number, text: string): void => {
    res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' });
    res.end(text);
  };

  const server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', origin || 'http://127.0.0.1');
      if (req.method !== 'GET' && req.method !== 'HEAD') return refuse(res, 405, 'Method not allowed');
      if (!authorised(req, url)) return refuse(res, 403, 'CadSight: missing or wrong access token. Open the URL printed by `npm run serve`.');
      const relative = decodeURIComponent(url.pathname === '/' ? '/index.html' : url.pathname);
      const file = path.resolve(staticRoot, `.${relative}`);
      if (file !== staticRoot && !file.startsWith(staticRoot + path.sep)) return refuse(res, 404, 'Not found');
      const info = await stat(file).catch(() => null);
      if (!info?.isFile()) return refuse(res, 404, 'Not found');
      const headers: Record<string, string> = {
        'content-type': MIME[path.extname(file)] ?? 'application/octet-stream',
        'content-length': String(info.size),
        'x-content-type-options': 'nosniff',
        'referrer-policy': 'no-referrer',
        'cache-control': 'no-store',
      };
      if (file.endsWith('.html')) {
        headers['content-security-policy'] = contentSecurityPolicy({ connectOrigin: origin.replace(/^http/, 'ws') });
        headers['x-frame-options'] = 'DENY';
        headers['set-cookie'] = `${COOKIE}=${token}; HttpOnly; SameSite=Strict; Path=/`;
      }
      res.writeHead(200, headers);
      if (req.method === 'HEAD') return res.end();
      createReadStream(file).pipe(res);
    })().catch((error: unknown) => {
      options.onInternalError(error);
      if (!res.headersSent) refuse(res, 500, 'Internal error');
    });
  });

  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_CLIENT_MESSAGE_BYTES });
  server.on('upgrade', (req, socket, head) => {
    const url = new URL(req.url ?? '/', origin);
    if (url.pathname !== '/ipc' || !authorised(req, url) || req.headers.origin !== origin) {
      socket.end('HTTP/1.1 403 Forbidden\r\nConnection: close\r\n\r\n');
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => serveSocket(ws));
  });

  const serveSocket = (ws: WebSocket): void => {
    const send = (message: unknown): void => {
      if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(message));
    };
    const unsubscribe = options.subscribeEvents((event, payload) => send({ t: 'event', event, payload }));
    ws.on('close', unsubscribe);
    ws.on('message', (data) => {
      let message;
      try {
        message = clientMessageSchema.parse(JSON.parse(String(data)));
      } catch {
        send({ t: 'error', error: new AppError('IPC_BAD_MESSAGE', 'Malformed message on the IPC socket.').toData() });
        return;
      }
      void options.router
        .dispatch(message.channel, message.input, { transport: 'browser' })
        .then((result) => send({ t: 'result', id: message.id, result }));
    });
  };

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  origin = `http://127.0.0.1:${port}`;

  return {
    url: `${origin}/?token=${token}`,
    port,
    token,
    async close() {
      for (const client of wss.clients) client.terminate();
      wss.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
