import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** An HTTP server that must never be contacted: tests assert `hits` stays 0. */
export interface HttpTestServer {
  port: number;
  host: string;
  hits: string[];
  close(): Promise<void>;
}

/** Starts a server on `host` that answers with `handler` and records every request path. */
export async function startTestServer(host: string, handler: (req: http.IncomingMessage, res: http.ServerResponse) => void): Promise<HttpTestServer> {
  const hits: string[] = [];
  const server = http.createServer((req, res) => {
    hits.push(req.url ?? '');
    handler(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  return {
    port: (server.address() as AddressInfo).port,
    host,
    hits,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
