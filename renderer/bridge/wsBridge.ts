import type { AppErrorData, Result } from '../../shared/errors';
import type { AppBridge, ChannelName } from '../../shared/ipc/channels';
import { ipcChannels } from '../../shared/ipc/channels';
import { IPC_SUBPROTOCOL, IPC_TOKEN_SUBPROTOCOL_PREFIX } from '../../shared/ipc/wire';

type Listener = (payload: never) => void;

const disconnected: AppErrorData = {
  code: 'IPC_DISCONNECTED',
  message: 'Lost the connection to the CadSight host. Restart `npm run serve` and reload the page.',
  retryable: true,
};

/**
 * The browser-mode bridge: the same AppBridge shape as the Electron preload, carried over a
 * WebSocket to the host that served this page; the session token rides in the subprotocol list.
 */
export function createWsBridge(url: string, token: string): AppBridge {
  const pending = new Map<number, (result: Result<unknown>) => void>();
  const listeners = new Map<string, Set<Listener>>();
  let nextId = 1;
  const socket = new WebSocket(url, [IPC_SUBPROTOCOL, `${IPC_TOKEN_SUBPROTOCOL_PREFIX}${token}`]);
  const opened = new Promise<boolean>((resolve) => {
    socket.addEventListener('open', () => resolve(true), { once: true });
    socket.addEventListener('error', () => resolve(false), { once: true });
  });

  socket.addEventListener('message', (event) => {
    const message = JSON.parse(String(event.data)) as
      | { t: 'result'; id: number; result: Result<unknown> }
      | { t: 'event'; event: string; payload: unknown };
    if (message.t === 'result') {
      pending.get(message.id)?.(message.result);
      pending.delete(message.id);
    } else if (message.t === 'event') {
      for (const listener of listeners.get(message.event) ?? []) listener(message.payload as never);
    }
  });
  socket.addEventListener('close', () => {
    for (const settle of pending.values()) settle({ ok: false, error: disconnected });
    pending.clear();
  });

  const call = async (channel: string, input: unknown): Promise<Result<unknown>> => {
    if (!(await opened) || socket.readyState !== WebSocket.OPEN) return { ok: false, error: disconnected };
    const id = nextId++;
    return new Promise((resolve) => {
      pending.set(id, resolve);
      socket.send(JSON.stringify({ t: 'call', id, channel, input }));
    });
  };

  const methods = Object.fromEntries(
    (Object.keys(ipcChannels) as ChannelName[]).map((name) => [name, (input: unknown) => call(name, input)]),
  );
  const on = (event: string, listener: Listener): (() => void) => {
    const set = listeners.get(event) ?? new Set<Listener>();
    set.add(listener);
    listeners.set(event, set);
    return () => {
      set.delete(listener);
    };
  };
  // The method table is built from the channel table itself, so it has exactly one method per
  // channel; TypeScript cannot follow Object.fromEntries, hence the one cast here.
  return { ...methods, on } as unknown as AppBridge;
}
