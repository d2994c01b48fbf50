import type { CadEndpoint } from '../domain/protocol/cadErrors';
import { createLineFramer } from '../../../platform/framing/lineFramer';
import type { CadSocketFactory } from '../ports/cadSocket';
import type { Clock } from '../ports/clock';

/**
 * A raw connection for the conformance verifier: it writes exact bytes (split, merged,
 * malformed) and reads back whatever lines come, without the client's correlation logic, so a
 * misbehaving server is observed rather than papered over.
 */

/** One thing read from the server. */
export type ProbeReply =
  | { kind: 'json'; value: unknown; raw: string }
  | { kind: 'not-json'; raw: string }
  | { kind: 'invalid-frame'; detail: string }
  | { kind: 'timeout' }
  | { kind: 'closed' };

export interface ProbeConnection {
  /** Writes bytes as one write call, waiting for drain when the socket is full. */
  send(data: string | Uint8Array): Promise<void>;
  /** The next line from the server, or timeout/closed. */
  next(timeoutMs: number): Promise<ProbeReply>;
  /** Waits `ms` and returns every line that arrived meanwhile (to prove silence). */
  collectFor(ms: number): Promise<ProbeReply[]>;
  close(): void;
}

export async function openProbe(factory: CadSocketFactory, endpoint: CadEndpoint, clock: Clock, options: { connectTimeoutMs: number; maxFrameBytes: number }): Promise<ProbeConnection> {
  const socket = await factory(endpoint, { timeoutMs: options.connectTimeoutMs });
  const framer = createLineFramer({ maxFrameBytes: options.maxFrameBytes });
  const inbox: ProbeReply[] = [];
  let closed = false;
  let wake: (() => void) | null = null;
  let drainWaiters: Array<() => void> = [];
  const encoder = new TextEncoder();

  const notify = (): void => {
    const waiter = wake;
    wake = null;
    waiter?.();
  };
  socket.onData((chunk) => {
    for (const item of framer.push(chunk)) {
      if (item.kind === 'line') inbox.push(toReply(item.text));
      // The overflow itself was reported when the line crossed the cap.
      else if (item.kind === 'overflow-end') continue;
      else inbox.push({ kind: 'invalid-frame', detail: item.kind === 'overflow' ? `a reply exceeded ${item.maxFrameBytes} bytes` : 'a reply was not valid UTF-8' });
    }
    notify();
  });
  socket.onDrain(() => {
    const waiters = drainWaiters;
    drainWaiters = [];
    for (const resolve of waiters) resolve();
  });
  socket.onClose(() => {
    closed = true;
    notify();
    for (const resolve of drainWaiters) resolve();
    drainWaiters = [];
  });

  const wait = (ms: number): Promise<void> =>
    new Promise((resolve) => {
      const cancel = clock.setTimeout(() => {
        wake = null;
        resolve();
      }, ms);
      wake = () => {
        cancel();
        resolve();
      };
    });

  return {
    async send(data) {
      if (closed) return;
      const bytes = typeof data === 'string' ? encoder.encode(data) : data;
      if (!socket.write(bytes)) await new Promise<void>((resolve) => drainWaiters.push(resolve));
    },
    async next(timeoutMs) {
      const deadline = clock.now() + timeoutMs;
      for (;;) {
        const reply = inbox.shift();
        if (reply) return reply;
        if (closed) return { kind: 'closed' };
        const left = deadline - clock.now();
        if (left <= 0) return { kind: 'timeout' };
        await wait(left);
      }
    },
    async collectFor(ms) {
      await new Promise<void>((resolve) => clock.setTimeout(resolve, ms));
      return inbox.splice(0, inbox.length);
    },
    close() {
      socket.close();
    },
  };
}

function toReply(raw: string): ProbeReply {
  try {
    return { kind: 'json', value: JSON.parse(raw), raw };
  } catch {
    return { kind: 'not-json', raw };
  }
}
