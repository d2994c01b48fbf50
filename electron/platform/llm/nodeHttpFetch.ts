import http from 'node:http';
import https from 'node:https';
import { Readable } from 'node:stream';
import type { FetchLike } from './httpTransport';

/** A FetchLike with its own connection pool; `close` ends the kept-alive sockets. */
export interface NodeHttpFetch {
  fetch: FetchLike;
  close(): void;
}

/** Statuses whose response has no body (the Response constructor refuses one). */
const NULL_BODY_STATUSES = new Set([204, 205, 304]);

/**
 * The gateway's HTTP client over node:http/https with keep-alive agents: one connection (and
 * one TLS handshake) is reused across model calls. Per call it costs about a fifth of the CPU of
 * the global fetch (measured by `npm run bench:vision`), which matters for a server that makes
 * many short calls. Only what the gateway needs: POST/GET with a string body, the caller's
 * AbortSignal, no redirects (a provider endpoint that redirects is reported by its 3xx status),
 * no content decoding (no Accept-Encoding is sent). An event stream is handed over as it
 * arrives; any other body is read completely first.
 */
export function createNodeHttpFetch(options: { maxSockets?: number; keepAliveMs?: number } = {}): NodeHttpFetch {
  const agentOptions = { keepAlive: true, keepAliveMsecs: options.keepAliveMs ?? 4_000, maxSockets: options.maxSockets ?? 8, scheduling: 'lifo' as const };
  const agents = { 'http:': new http.Agent(agentOptions), 'https:': new https.Agent(agentOptions) };

  const fetch: FetchLike = (url, init) =>
    new Promise<Response>((resolve, reject) => {
      const target = new URL(url);
      if (target.protocol !== 'http:' && target.protocol !== 'https:') {
        reject(new TypeError(`Unsupported protocol ${target.protocol}`));
        return;
      }
      const body = init.body === undefined || init.body === null ? undefined : String(init.body);
      const headers: Record<string, string> = { ...(init.headers as Record<string, string> | undefined) };
      if (body !== undefined) headers['content-length'] = String(Buffer.byteLength(body));
      const client = target.protocol === 'https:' ? https : http;
      const request = client.request(target, { method: init.method ?? 'GET', headers, agent: agents[target.protocol], ...(init.signal ? { signal: init.signal } : {}) }, (response) => {
        const status = response.statusCode ?? 0;
        const responseHeaders = new Headers();
        for (let i = 0; i + 1 < response.rawHeaders.length; i += 2) responseHeaders.append(response.rawHeaders[i]!, response.rawHeaders[i + 1]!);
        const init = { status, statusText: response.statusMessage ?? '', headers: responseHeaders };
        if (NULL_BODY_STATUSES.has(status)) {
          response.resume();
          resolve(new Response(null, init));
        } else if ((response.headers['content-type'] ?? '').includes('text/event-stream')) {
          resolve(new Response(Readable.toWeb(response) as ReadableStream<Uint8Array>, init));
        } else {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () => resolve(new Response(Buffer.concat(chunks), init)));
          response.on('error', reject);
          // A connection that closes mid-body ends the attempt (the gateway retries it as a network fault).
          response.on('close', () => {
            if (!response.complete) reject(new Error('The connection closed before the reply was complete.'));
          });
        }
      });
      request.on('error', reject);
      request.end(body);
    });

  return {
    fetch,
    close() {
      agents['http:'].destroy();
      agents['https:'].destroy();
    },
  };
}
