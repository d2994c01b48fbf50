import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import path from 'node:path';
import { WebSocketServer } from 'ws';
import { IPC_SUBPROTOCOL, MAX_CLIENT_MESSAGE_BYTES } from '../../../shared/ipc/wire';
import type { EventSink } from '../../platform/events/eventBus';
import type { IpcRouter } from '../../platform/ipc/router';
import { contentSecurityPolicy, withMetaConnectOrigin } from '../../platform/ipc/csp';
import { LARGE_MESSAGE_BUDGET_BYTES, serveIpcSocket } from './ipcSocket';
import { ASSET_COOKIE, cookieValue, hostAllowed, offeredSubprotocols, parseTarget, sameSecret, subprotocolToken } from './requestGuards';

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
  /** Open IPC sockets at once (one per tab). Default 6. */
  maxSockets?: number;
  /** Bytes of large messages decoded at once over all sockets. Default LARGE_MESSAGE_BUDGET_BYTES. */
  largeMessageBudgetBytes?: number;
  onInternalError: (error: unknown) => void;
}

export interface BrowserServer {
  url: string;
  port: number;
  token: string;
  close(): Promise<void>;
}

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


const DEFAULT_MAX_SOCKETS = 6;
// A browser opens about six connections per host for assets; a few tabs fit.
const MAX_HTTP_CONNECTIONS = 48;

/**
 * Browser mode host: serves the built renderer and carries the IPC contract over a WebSocket,
 * on 127.0.0.1 only, to requests whose Host is exactly `127.0.0.1:<port>` (DNS rebinding).
 * The per-launch token comes with the first page load (`/?token=`); the page keeps it in
 * sessionStorage and offers it as a WebSocket subprotocol. Cookies are not port-scoped, so the
 * only cookie set is an asset cookie (a second random value) that lets the page load its own
 * static files and never opens the IPC socket. Upgrades also need the server's own Origin.
 * Malformed requests get 400, never an exception.
 */
export async function startBrowserServer(options: BrowserServerOptions): Promise<BrowserServer> {
  const token = options.token ?? randomBytes(32).toString('hex');
  const assetKey = randomBytes(32).toString('hex');
  const staticRoot = path.resolve(options.staticDir);
  const budget = { inFlightBytes: 0, limitBytes: options.largeMessageBudgetBytes ?? LARGE_MESSAGE_BUDGET_BYTES };
  let origin = '';
  let port = 0;

  const pageAuthorised = (req: IncomingMessage, url: URL): boolean => sameSecret(url.searchParams.get('token'), token) || sameSecret(cookieValue(req, ASSET_COOKIE), assetKey);

  const refuse = (res: ServerResponse, status: number, text: string): void => {
    res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' });
    res.end(text);
  };

  const serveStatic = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    if (!hostAllowed(req, port)) return refuse(res, 403, 'CadSight: wrong Host header.');
    const url = parseTarget(req, origin);
    if (url === null) return refuse(res, 400, 'Bad request');
    if (req.method !== 'GET' && req.method !== 'HEAD') return refuse(res, 405, 'Method not allowed');
    if (!pageAuthorised(req, url)) return refuse(res, 403, 'CadSight: missing or wrong access token. Open the URL printed by `npm run serve`.');
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
      const wsOrigin = origin.replace(/^http/, 'ws');
      headers['content-security-policy'] = contentSecurityPolicy({ connectOrigin: wsOrigin });
      headers['x-frame-options'] = 'DENY';
      headers['set-cookie'] = `${ASSET_COOKIE}=${assetKey}; HttpOnly; SameSite=Strict; Path=/`;
      // The page's CSP meta tag allows only 'self' (the desktop policy); browser mode adds loopback
      // WebSockets to it as before, and the header above pins them to this server's port (a page
      // must satisfy both policies, so only this port is reachable).
      const page = Buffer.from(withMetaConnectOrigin(await readFile(file, 'utf8'), 'ws://127.0.0.1:*'), 'utf8');
      headers['content-length'] = String(page.length);
      res.writeHead(200, headers);
      return void res.end(req.method === 'HEAD' ? undefined : page);
    }
    res.writeHead(200, headers);
    if (req.method === 'HEAD') return void res.end();
    createReadStream(file).pipe(res);
  };

  const server = createServer((req, res) => {
    serveStatic(req, res).catch((error: unknown) => {
      options.onInternalError(error);
      if (!res.headersSent) refuse(res, 500, 'Internal error');
      else res.destroy();
    });
  });
  server.maxConnections = MAX_HTTP_CONNECTIONS;
  server.on('clientError', (_error, socket: Duplex) => {
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
    else socket.destroy();
  });

  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_CLIENT_MESSAGE_BYTES, handleProtocols: (offered) => (offered.has(IPC_SUBPROTOCOL) ? IPC_SUBPROTOCOL : false) });
  const maxSockets = options.maxSockets ?? DEFAULT_MAX_SOCKETS;
  const reject = (socket: Duplex, status: string): void => {
    socket.on('error', () => undefined);
    socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
  };
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    try {
      socket.on('error', () => undefined);
      const url = parseTarget(req, origin);
      if (url === null) return reject(socket, '400 Bad Request');
      const offeredToken = subprotocolToken(offeredSubprotocols(req));
      if (!hostAllowed(req, port) || url.pathname !== '/ipc' || !sameSecret(offeredToken, token) || req.headers.origin !== origin) return reject(socket, '403 Forbidden');
      if (wss.clients.size >= maxSockets) return reject(socket, '503 Service Unavailable');
      wss.handleUpgrade(req, socket, head, (ws) => serveIpcSocket(ws, { router: options.router, subscribeEvents: options.subscribeEvents, budget, onInternalError: options.onInternalError }));
    } catch (error) {
      options.onInternalError(error);
      reject(socket, '400 Bad Request');
    }
  });

  await new Promise<void>((resolve, rejectListen) => {
    server.once('error', rejectListen);
    server.listen(options.port, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  port = typeof address === 'object' && address ? address.port : options.port;
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
