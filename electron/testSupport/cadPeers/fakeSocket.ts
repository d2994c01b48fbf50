import type { CadSocket, CadSocketFactory } from '../../features/cadlink/index';

/**
 * In-memory CadSocket that records every byte written. `writable` controls back-pressure;
 * `reply` pushes bytes to the client; `drop` simulates the peer going away.
 */
export interface FakeSocket extends CadSocket {
  /** Frames written so far, decoded. */
  readonly written: string[];
  writable: boolean;
  reply(text: string): void;
  drain(): void;
  drop(reason?: string): void;
  readonly closed: boolean;
}

export function createFakeSocket(): FakeSocket {
  const written: string[] = [];
  const dataListeners: Array<(chunk: Uint8Array) => void> = [];
  const drainListeners: Array<() => void> = [];
  const closeListeners: Array<(reason: string | undefined) => void> = [];
  let closed = false;
  const decoder = new TextDecoder();
  const socket: FakeSocket = {
    written,
    writable: true,
    get closed() {
      return closed;
    },
    write(bytes) {
      if (closed) throw new Error('write after close');
      written.push(decoder.decode(bytes));
      return socket.writable;
    },
    onData: (listener) => void dataListeners.push(listener),
    onDrain: (listener) => void drainListeners.push(listener),
    onClose: (listener) => void closeListeners.push(listener),
    close() {
      socket.drop();
    },
    reply(text) {
      const bytes = new TextEncoder().encode(text);
      for (const listener of dataListeners) listener(bytes);
    },
    drain() {
      socket.writable = true;
      for (const listener of drainListeners) listener();
    },
    drop(reason) {
      if (closed) return;
      closed = true;
      for (const listener of closeListeners) listener(reason);
    },
  };
  return socket;
}

/** A factory handing out scripted outcomes in order: a FakeSocket, or an error to reject with. */
export function createScriptedSocketFactory(outcomes: Array<FakeSocket | Error>): CadSocketFactory & { attempts: number } {
  const factory = Object.assign(
    async () => {
      factory.attempts += 1;
      const next = outcomes.shift();
      if (!next) throw new Error('no more scripted connections');
      if (next instanceof Error) throw next;
      return next;
    },
    { attempts: 0 },
  );
  return factory;
}
