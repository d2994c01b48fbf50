import { AppError } from '../../../../shared/errors';
import type { Logger } from '../../../platform/log/types';
import { backoffDelayMs, type BackoffOptions } from '../domain/protocol/backoff';
import { disconnectedError, formatEndpoint, frameTooLargeError, notConnectedError, type CadEndpoint } from '../domain/protocol/cadErrors';
import { createLineFramer, type FrameItem } from '../../../platform/framing/lineFramer';
import type { CadSocket, CadSocketFactory } from '../ports/cadSocket';
import type { Clock, RandomSource } from '../ports/clock';

/**
 * One logical connection to a CAD server: connects, frames incoming bytes, writes with
 * back-pressure and, while someone wants it up, reconnects after drops with capped
 * exponential backoff. It never resends anything: requests belong to the client above it.
 *
 * States: disconnected -> connecting -> connected; a failed attempt or a drop goes to backoff
 * (while kept alive) or disconnected; backoff -> connecting when the timer fires or a caller
 * needs the connection now.
 */
export type CadConnectionState = 'disconnected' | 'connecting' | 'connected' | 'backoff';

/** A state event: the new state plus why (reason) and, in backoff, when the next attempt runs. */
export interface CadConnectionStateEvent {
  state: CadConnectionState;
  endpoint: string;
  /** Consecutive failed attempts since the last successful connect. */
  failures: number;
  retryInMs?: number;
  reason?: string;
}

export interface CadConnectionOptions {
  endpoint: CadEndpoint;
  socketFactory: CadSocketFactory;
  clock: Clock;
  random: RandomSource;
  reconnect: BackoffOptions;
  connectTimeoutMs: number;
  maxFrameBytes: number;
  /** Every complete incoming frame (lines and invalid UTF-8; overflow is handled here). */
  onFrame(item: Exclude<FrameItem, { kind: 'overflow' | 'overflow-end' }>): void;
  /** A live connection ended: everything in flight on it is lost. */
  onLost(error: AppError): void;
  log?: Logger;
}

export interface CadConnection {
  readonly state: CadConnectionState;
  /** Keeps the connection up until close(): connects now and reconnects after drops. Rejects CAD_NOT_CONNECTED if this first attempt fails (retries go on). */
  keepAlive(): Promise<void>;
  /** Connected now, or one attempt right away (skipping a backoff wait). Rejects CAD_NOT_CONNECTED. */
  ensureConnected(): Promise<void>;
  /** Writes one frame; waits behind earlier frames while the socket is full. Rejects CAD_NOT_CONNECTED / CAD_DISCONNECTED. */
  send(bytes: Uint8Array): Promise<void>;
  /** Bytes waiting for the socket to drain. */
  readonly queuedBytes: number;
  onStateChange(listener: (event: CadConnectionStateEvent) => void): () => void;
  /** Stops reconnecting and closes the socket (in-flight calls fail with CAD_DISCONNECTED). */
  close(): void;
}

interface QueuedWrite {
  bytes: Uint8Array;
  resolve(): void;
  reject(error: AppError): void;
}

export function createCadConnection(options: CadConnectionOptions): CadConnection {
  const { endpoint, clock } = options;
  const listeners = new Set<(event: CadConnectionStateEvent) => void>();
  let state: CadConnectionState = 'disconnected';
  let socket: CadSocket | null = null;
  let connecting: Promise<void> | null = null;
  let cancelRetry: (() => void) | null = null;
  let failures = 0;
  let wanted = false;
  let closed = false;
  let blocked = false;
  let outbox: QueuedWrite[] = [];
  let queuedBytes = 0;

  function setState(next: CadConnectionState, extra: { retryInMs?: number; reason?: string } = {}): void {
    state = next;
    const event: CadConnectionStateEvent = { state: next, endpoint: formatEndpoint(endpoint), failures, ...extra };
    options.log?.debug('cad connection state', { ...event });
    for (const listener of [...listeners]) listener(event);
  }

  function scheduleRetry(attemptIndex: number, reason: string): void {
    if (!wanted || closed) {
      setState('disconnected', { reason });
      return;
    }
    const delay = backoffDelayMs(attemptIndex, options.reconnect, options.random);
    setState('backoff', { retryInMs: delay, reason });
    cancelRetry = clock.setTimeout(() => {
      cancelRetry = null;
      // A failed retry schedules the next one itself; nobody awaits this attempt.
      attempt().catch(() => undefined);
    }, delay);
  }

  function attempt(): Promise<void> {
    connecting = (async () => {
      setState('connecting');
      try {
        const opened = await options.socketFactory(endpoint, { timeoutMs: options.connectTimeoutMs });
        if (closed) {
          opened.close();
          throw notConnectedError(endpoint, 'the client was closed while connecting');
        }
        attach(opened);
        failures = 0;
        setState('connected');
      } catch (error) {
        const appError = error instanceof AppError ? error : notConnectedError(endpoint, String(error));
        failures += 1;
        // Also when closed meanwhile: scheduleRetry then settles the state on 'disconnected'.
        scheduleRetry(failures - 1, String(appError.data?.reason ?? appError.message));
        throw appError;
      } finally {
        connecting = null;
      }
    })();
    return connecting;
  }

  function attach(opened: CadSocket): void {
    socket = opened;
    const framer = createLineFramer({ maxFrameBytes: options.maxFrameBytes });
    let fatal: AppError | null = null;
    opened.onData((chunk) => {
      if (fatal) return;
      for (const item of framer.push(chunk)) {
        if (item.kind === 'overflow') {
          // The stream can no longer be trusted to stay in sync with our calls: drop it.
          fatal = frameTooLargeError(endpoint, options.maxFrameBytes, 'reply');
          opened.close();
          return;
        }
        // Never reached: the connection closes at the overflow, before the line's end.
        if (item.kind === 'overflow-end') continue;
        options.onFrame(item);
      }
    });
    opened.onDrain(() => {
      blocked = false;
      flush();
    });
    opened.onClose((reason) => {
      if (socket !== opened) return;
      socket = null;
      const error = fatal ?? disconnectedError(endpoint, closed ? 'closed by this client' : (reason ?? 'closed by the peer'));
      blocked = false;
      const waiting = outbox;
      outbox = [];
      queuedBytes = 0;
      for (const write of waiting) write.reject(error);
      options.onLost(error);
      scheduleRetry(0, error.message);
    });
  }

  function flush(): void {
    while (!blocked && socket && outbox.length > 0) {
      const write = outbox.shift()!;
      queuedBytes -= write.bytes.length;
      blocked = !socket.write(write.bytes);
      write.resolve();
    }
  }

  function ensureConnected(): Promise<void> {
    if (closed) return Promise.reject(notConnectedError(endpoint, 'the client is closed'));
    if (state === 'connected') return Promise.resolve();
    if (connecting) return connecting;
    cancelRetry?.();
    cancelRetry = null;
    return attempt();
  }

  return {
    get state() {
      return state;
    },
    get queuedBytes() {
      return queuedBytes;
    },
    keepAlive() {
      wanted = true;
      return ensureConnected();
    },
    ensureConnected,
    send(bytes) {
      if (!socket || state !== 'connected') return Promise.reject(notConnectedError(endpoint, `the connection is ${state}`));
      if (!blocked) {
        blocked = !socket.write(bytes);
        return Promise.resolve();
      }
      return new Promise<void>((resolve, reject) => {
        outbox.push({ bytes, resolve, reject });
        queuedBytes += bytes.length;
      });
    },
    onStateChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    close() {
      if (closed) return;
      closed = true;
      wanted = false;
      cancelRetry?.();
      cancelRetry = null;
      if (socket) socket.close();
      else setState('disconnected', { reason: 'closed by this client' });
    },
  };
}
