import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { IPC_SUBPROTOCOL, IPC_TOKEN_SUBPROTOCOL_PREFIX } from '../../../shared/ipc/wire';

/**
 * The checks every browser-host request passes before anything else is read. Pure functions of
 * the request, so the HTTP and upgrade paths share them and tests can call them directly.
 */

/** Name of the cookie that lets the page load its own static assets (not the IPC credential). */
export const ASSET_COOKIE = 'cadsight_assets';

export function sameSecret(a: string | undefined | null, b: string): boolean {
  if (!a) return false;
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

export function cookieValue(req: IncomingMessage, name: string): string | undefined {
  const header = req.headers.cookie ?? '';
  for (const part of header.split(';')) {
    const [k, ...v] = part.trim().split('=');
    if (k === name) return v.join('=');
  }
  return undefined;
}

/**
 * DNS-rebinding guard: a page on evil.example re-pointed at 127.0.0.1 still sends
 * `Host: evil.example:<port>`, so only the exact `127.0.0.1:<port>` is served.
 */
export function hostAllowed(req: IncomingMessage, port: number): boolean {
  return req.headers.host === `127.0.0.1:${port}`;
}

/** Parses a request target without throwing (`//[` and other junk give null). */
export function parseTarget(req: IncomingMessage, origin: string): URL | null {
  try {
    const url = new URL(req.url ?? '/', origin);
    // decodeURIComponent throws on lone `%`; checked here so later code can decode safely.
    decodeURIComponent(url.pathname);
    return url;
  } catch {
    return null;
  }
}

/** The token offered as `cadsight.token.<t>` among the WebSocket subprotocols, if any. */
export function subprotocolToken(protocols: Iterable<string>): string | null {
  let token: string | null = null;
  let hasIpc = false;
  for (const protocol of protocols) {
    if (protocol === IPC_SUBPROTOCOL) hasIpc = true;
    else if (protocol.startsWith(IPC_TOKEN_SUBPROTOCOL_PREFIX)) token = protocol.slice(IPC_TOKEN_SUBPROTOCOL_PREFIX.length);
  }
  return hasIpc ? token : null;
}

/** Splits the Sec-WebSocket-Protocol header as ws does. */
export function offeredSubprotocols(req: IncomingMessage): string[] {
  const header = req.headers['sec-websocket-protocol'];
  return typeof header === 'string' ? header.split(',').map((p) => p.trim()).filter((p) => p.length > 0) : [];
}
