import net from 'node:net';
import { once } from 'node:events';
import { createLineFramer, parseJsonRpcLine, startJsonRpcLineServer, type JsonRpcLineServer } from '../../features/cadlink/index';
import { createRecordingToolProvider } from './testToolProvider';

/**
 * Deliberately non-conforming CAD peers for verify-cad tests: a TCP proxy in front of a correct
 * line server that reproduces one known fault of the old cad_mcp_frame plugin.
 * - 'truncate-2k': reads requests with a single recv(2048), so anything longer is cut and the
 *   remainder read as the next message (both answered with -32700);
 * - 'reply-to-notifications': answers notifications as if they were requests;
 * - 'numeric-ids': coerces every id to a number (atoi-style: "abc" -> 0);
 * - 'no-newline-split': only understands a request that arrives in one packet.
 */
export type PeerFault = 'truncate-2k' | 'reply-to-notifications' | 'numeric-ids' | 'no-newline-split';

export interface BrokenPeer {
  readonly port: number;
  close(): Promise<void>;
}

export async function startBrokenPeer(fault: PeerFault): Promise<BrokenPeer> {
  const upstream: JsonRpcLineServer = await startJsonRpcLineServer({ port: 0, handler: createRecordingToolProvider() });
  const sockets = new Set<net.Socket>();
  const proxy = net.createServer((client) => {
    const server = net.connect(upstream.port, '127.0.0.1');
    sockets.add(client).add(server);
    const requestFramer = createLineFramer();
    const replyFramer = createLineFramer();
    client.on('data', (chunk: Buffer) => {
      if (fault === 'no-newline-split') {
        // Treats each packet as a complete message, like a server without a framer.
        const text = chunk.toString('utf8');
        server.write(text.endsWith('\n') ? text : `${text}\n`);
        return;
      }
      for (const item of requestFramer.push(chunk)) if (item.kind === 'line') server.write(rewriteRequest(item.text, fault));
    });
    server.on('data', (chunk: Buffer) => {
      for (const item of replyFramer.push(chunk)) if (item.kind === 'line') client.write(`${rewriteReply(item.text, fault)}\n`);
    });
    for (const socket of [client, server]) {
      socket.on('error', () => undefined);
      socket.on('close', () => {
        client.destroy();
        server.destroy();
        sockets.delete(socket);
      });
    }
  });
  proxy.listen(0, '127.0.0.1');
  await once(proxy, 'listening');
  return {
    port: (proxy.address() as net.AddressInfo).port,
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => proxy.close(() => resolve()));
      await upstream.close();
    },
  };
}

function rewriteRequest(line: string, fault: PeerFault): string {
  if (fault === 'truncate-2k') {
    const bytes = Buffer.from(line, 'utf8');
    const pieces: string[] = [];
    for (let start = 0; start < bytes.length; start += 2048) pieces.push(bytes.subarray(start, start + 2048).toString('utf8'));
    return pieces.map((piece) => `${piece}\n`).join('');
  }
  if (fault === 'reply-to-notifications') {
    const classified = parseJsonRpcLine(line);
    if (classified.kind === 'notification') return `${JSON.stringify({ ...classified.message, id: 'notification-reply' })}\n`;
  }
  return `${line}\n`;
}

function rewriteReply(line: string, fault: PeerFault): string {
  if (fault !== 'numeric-ids') return line;
  const reply = JSON.parse(line) as { id?: unknown };
  if (typeof reply.id === 'string') reply.id = Number.parseInt(reply.id, 10) || 0;
  return JSON.stringify(reply);
}
