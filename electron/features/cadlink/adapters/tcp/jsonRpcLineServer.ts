import net from 'node:net';
import { once } from 'node:events';
import { createHash, timingSafeEqual } from 'node:crypto';
import { AppError, toAppErrorData } from '../../../../../shared/errors';
import type { Logger } from '../../../../platform/log/types';
import { createLineFramer, encodeFrame, type FrameItem } from '../../../../platform/framing/lineFramer';
import { readAuthToken } from '../../domain/protocol/authToken';
import { JSON_RPC_ERROR, isRecord, makeFailure, makeSuccess, parseJsonRpcLine, type JsonRpcRequest, type JsonRpcResponse } from '../../domain/protocol/jsonRpc';
import type { ToolProvider } from '../../ports/toolProvider';

/**
 * A cad_mcp_frame-compatible JSON-RPC line server over raw TCP: exactly the plugin's surface
 * (tools/list, tools/call; no initialize/ping), so everything that talks to AutoCAD can talk
 * to CadSight's own backends and test peers unchanged.
 */

export interface JsonRpcLineServerOptions {
  /** Interface to bind. Default 127.0.0.1 (the plugin never listens on other interfaces). */
  host?: string;
  /** TCP port; 0 picks a free one (read it back from `port`). */
  port: number;
  handler: ToolProvider;
  /** Largest accepted request line; bigger ones get -32600 and are skipped. Default 64 MiB. */
  maxFrameBytes?: number;
  /**
   * Shared secret: when set, a connection's first line must be the `cadsight/authenticate`
   * notification carrying it (see domain/protocol/authToken.ts); any other first line closes it.
   */
  token?: string;
  /** Connections open at once; further ones are dropped by the kernel accept path. Default 32. */
  maxConnections?: number;
  /** A connection with no traffic either way for this long is closed. Default 10 minutes. */
  idleTimeoutMs?: number;
  /** A started line must end within this time (slowloris: one byte now and then). Default 60 s. */
  frameTimeoutMs?: number;
  log?: Logger;
}

export interface JsonRpcLineServer {
  readonly host: string;
  readonly port: number;
  /** "host:port", as `cadsight verify-cad` and the bridge accept it. */
  readonly address: string;
  /** Open client connections. */
  readonly connectionCount: number;
  /** Stops listening and closes every open connection. */
  close(): Promise<void>;
}

// Requests received but not yet answered before the socket stops reading: bounds memory when a
// client pipelines faster than the handler answers.
const QUEUE_HIGH_WATER = 256;
const DEFAULT_MAX_CONNECTIONS = 32;
const DEFAULT_IDLE_TIMEOUT_MS = 10 * 60_000;
const DEFAULT_FRAME_TIMEOUT_MS = 60_000;
// The authentication line is tiny; an unauthenticated peer may not park more than this.
const MAX_AUTH_LINE_BYTES = 4096;
const OPEN_BRACE = 0x7b;

/** Space, tab, CR, LF: what may precede the first `{` of a JSON-RPC stream. */
function isJsonWhitespace(byte: number): boolean {
  return byte === 0x20 || byte === 0x09 || byte === 0x0d || byte === 0x0a;
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}

/**
 * Starts listening. Throws AppError CAD_SERVER_LISTEN_FAILED (data: host, port, reason) when
 * the port cannot be bound (e.g. already in use).
 */
export async function startJsonRpcLineServer(options: JsonRpcLineServerOptions): Promise<JsonRpcLineServer> {
  const host = options.host ?? '127.0.0.1';
  const sockets = new Set<net.Socket>();
  const expectedToken = options.token === undefined ? null : digest(options.token);
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    serveConnection(socket, options, expectedToken);
  });
  server.maxConnections = options.maxConnections ?? DEFAULT_MAX_CONNECTIONS;
  server.on('drop', (info?: { remoteAddress?: string }) => options.log?.warn('cad line server refused a connection over the cap', { max: server.maxConnections, remote: info?.remoteAddress }));
  try {
    server.listen(options.port, host);
    await Promise.race([once(server, 'listening'), once(server, 'error').then(([error]) => Promise.reject(error))]);
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? String(error);
    throw new AppError('CAD_SERVER_LISTEN_FAILED', `Cannot listen on ${host}:${options.port} (${reason}).`, { data: { host, port: options.port, reason } });
  }
  const port = (server.address() as net.AddressInfo).port;
  options.log?.info('cad line server listening', { host, port });
  return {
    host,
    port,
    address: `${host}:${port}`,
    get connectionCount() {
      return sockets.size;
    },
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      await closed;
    },
  };
}

/**
 * Where a connection stands before it may call tools. `first-byte`: nothing but whitespace yet;
 * a JSON-RPC stream starts with `{`, while a browser's HTTP request line (`POST / HTTP/1.1`) or a
 * TLS hello (0x16) does not, so such a peer is cut off before any of its lines is read — a web
 * page's no-cors POST body can never reach a tool. `auth`: waiting for the token line.
 */
type Gate = 'first-byte' | 'auth' | 'open';

function serveConnection(socket: net.Socket, options: JsonRpcLineServerOptions, expectedToken: Buffer | null): void {
  const framer = createLineFramer(options.maxFrameBytes === undefined ? {} : { maxFrameBytes: options.maxFrameBytes });
  let gate: Gate = 'first-byte';
  let frameTimer: NodeJS.Timeout | null = null;
  const queue: FrameItem[] = [];
  let head = 0;
  let working = false;
  let waitingForDrain = false;
  let paused = false;
  let closed = false;

  function updateFlow(): void {
    const shouldPause = waitingForDrain || queue.length - head > QUEUE_HIGH_WATER;
    if (shouldPause === paused || closed) return;
    paused = shouldPause;
    if (paused) socket.pause();
    else socket.resume();
  }

  async function work(): Promise<void> {
    working = true;
    while (head < queue.length && !closed) {
      const item = queue[head]!;
      head += 1;
      if (head > 1024 && head * 2 > queue.length) {
        queue.splice(0, head);
        head = 0;
      }
      const reply = await answer(item, options);
      if (reply === null || closed) continue;
      if (!writeBatched(socket, encodeFrame(reply))) {
        // Back-pressure: stop reading and answering until the peer has taken our output.
        waitingForDrain = true;
        updateFlow();
        await drainedOrClosed(socket);
        waitingForDrain = false;
      }
      updateFlow();
    }
    working = false;
  }

  function refuse(reason: string): void {
    options.log?.warn('cad line server closed a connection', { reason });
    closed = true;
    socket.destroy();
  }

  /** Passes the first-byte gate; false when the peer is not speaking JSON-RPC (connection closed). */
  function checkFirstByte(chunk: Buffer): boolean {
    for (const byte of chunk) {
      if (isJsonWhitespace(byte)) continue;
      if (byte !== OPEN_BRACE) {
        refuse('the stream does not start with a JSON object (HTTP, TLS or other protocol)');
        return false;
      }
      gate = expectedToken === null ? 'open' : 'auth';
      return true;
    }
    return true;
  }

  function authenticate(items: FrameItem[]): FrameItem[] {
    const first = items[0]!;
    const token = first.kind === 'line' ? readAuthToken(parseJsonRpcLine(first.text)) : null;
    const given = token === null ? null : digest(token);
    if (given === null || !timingSafeEqual(given, expectedToken!)) {
      refuse('missing or wrong token');
      return [];
    }
    gate = 'open';
    return items.slice(1);
  }

  /** Slowloris guard: an unfinished line must be completed within frameTimeoutMs. */
  function armFrameTimer(): void {
    if (framer.bufferedBytes === 0) {
      if (frameTimer !== null) clearTimeout(frameTimer);
      frameTimer = null;
      return;
    }
    frameTimer ??= setTimeout(() => refuse('a line was not completed in time'), options.frameTimeoutMs ?? DEFAULT_FRAME_TIMEOUT_MS);
  }

  socket.setTimeout(options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS, () => refuse('idle timeout'));
  socket.on('data', (chunk: Buffer) => {
    if (closed) return;
    if (gate === 'first-byte' && !checkFirstByte(chunk)) return;
    let items = framer.push(chunk);
    if (gate === 'auth') {
      if (items.length === 0) {
        if (framer.bufferedBytes > MAX_AUTH_LINE_BYTES) refuse('the authentication line is too long');
        else armFrameTimer();
        return;
      }
      items = authenticate(items);
      if (closed) return;
    }
    armFrameTimer();
    queue.push(...items);
    updateFlow();
    if (!working) void work();
  });
  socket.on('error', (error) => options.log?.warn('cad line server connection error', { reason: (error as NodeJS.ErrnoException).code ?? error.message }));
  socket.on('close', () => {
    closed = true;
    if (frameTimer !== null) clearTimeout(frameTimer);
  });
}

// Removes both listeners whichever fires: events.once would leave a 'close' listener behind on
// every back-pressure wait.
function drainedOrClosed(socket: net.Socket): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      socket.off('drain', done);
      socket.off('close', done);
      resolve();
    };
    socket.on('drain', done);
    socket.on('close', done);
  });
}

/**
 * Writes through cork/uncork so replies produced in the same turn of the event loop (a
 * pipelined burst) leave in one syscall; setImmediate runs after pending promise callbacks, so
 * a lone reply is not held back.
 */
export function writeBatched(socket: net.Socket, bytes: Uint8Array): boolean {
  if (socket.writableCorked === 0) {
    socket.cork();
    setImmediate(() => socket.uncork());
  }
  return socket.write(bytes);
}

async function answer(item: FrameItem, options: JsonRpcLineServerOptions): Promise<JsonRpcResponse | null> {
  if (item.kind === 'overflow') {
    return makeFailure(null, JSON_RPC_ERROR.invalidRequest, `The request is larger than ${item.maxFrameBytes} bytes and was dropped.`);
  }
  if (item.kind === 'invalid-utf8') return makeFailure(null, JSON_RPC_ERROR.parseError, 'The message is not valid UTF-8.');
  // The overflow was answered when the line crossed the cap; its end only resumes framing.
  if (item.kind === 'overflow-end') return null;
  const classified = parseJsonRpcLine(item.text);
  switch (classified.kind) {
    case 'invalid':
      return makeFailure(classified.id, classified.code, classified.reason);
    case 'request':
      return dispatch(classified.message, options);
    default:
      // Notifications get no reply; stray responses from a client are ignored.
      return null;
  }
}

async function dispatch(request: JsonRpcRequest, options: JsonRpcLineServerOptions): Promise<JsonRpcResponse> {
  try {
    if (request.method === 'tools/list') return makeSuccess(request.id, { tools: await options.handler.listTools() });
    if (request.method === 'tools/call') {
      const params = request.params;
      if (!isRecord(params) || typeof params.name !== 'string' || params.name.length === 0) {
        return makeFailure(request.id, JSON_RPC_ERROR.invalidParams, 'tools/call needs params {"name": string, "arguments"?: object}.');
      }
      const args = params.arguments ?? {};
      if (!isRecord(args)) return makeFailure(request.id, JSON_RPC_ERROR.invalidParams, 'tools/call "arguments" must be an object.');
      return makeSuccess(request.id, await options.handler.callTool(params.name, args));
    }
    return makeFailure(request.id, JSON_RPC_ERROR.methodNotFound, `Method "${request.method}" not found (this server offers tools/list and tools/call).`);
  } catch (error) {
    const data = toAppErrorData(error);
    if (data.code === 'INTERNAL_ERROR') options.log?.error('cad tool provider failed', { method: request.method, error: String(error) });
    return makeFailure(request.id, JSON_RPC_ERROR.internalError, data.message, { code: data.code, message: data.message });
  }
}
