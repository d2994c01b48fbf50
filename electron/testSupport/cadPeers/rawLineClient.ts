import net from 'node:net';
import { once } from 'node:events';

/**
 * A raw TCP client for protocol tests: sends exact bytes (split, merged, malformed) and reads
 * back parsed reply lines, so server behaviour is checked on the wire, not through our client.
 */
export interface RawLineClient {
  send(text: string | Uint8Array): Promise<void>;
  /** The next reply line parsed as JSON; rejects after timeoutMs. */
  next(timeoutMs?: number): Promise<Record<string, unknown>>;
  /** Every reply that arrives within `ms` (used to prove silence). */
  collectFor(ms: number): Promise<Array<Record<string, unknown>>>;
  close(): void;
  readonly socket: net.Socket;
}

export async function connectRawLineClient(port: number, host = '127.0.0.1'): Promise<RawLineClient> {
  const socket = net.connect(port, host);
  await once(socket, 'connect');
  let buffered = '';
  const lines: Array<Record<string, unknown>> = [];
  let wake: (() => void) | null = null;
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => {
    buffered += chunk;
    let index = buffered.indexOf('\n');
    while (index !== -1) {
      const line = buffered.slice(0, index);
      buffered = buffered.slice(index + 1);
      if (line.trim()) lines.push(JSON.parse(line) as Record<string, unknown>);
      index = buffered.indexOf('\n');
    }
    wake?.();
  });
  return {
    socket,
    async send(text) {
      await new Promise<void>((resolve, reject) => socket.write(text, (error) => (error ? reject(error) : resolve())));
    },
    async next(timeoutMs = 5000) {
      const deadline = Date.now() + timeoutMs;
      while (lines.length === 0) {
        const left = deadline - Date.now();
        if (left <= 0) throw new Error('no reply line within the timeout');
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, left);
          wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        wake = null;
      }
      return lines.shift()!;
    },
    async collectFor(ms) {
      await new Promise((resolve) => setTimeout(resolve, ms));
      return lines.splice(0, lines.length);
    },
    close() {
      socket.destroy();
    },
  };
}
