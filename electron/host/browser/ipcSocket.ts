import type { WebSocket } from 'ws';
import { AppError } from '../../../shared/errors';
import { clientMessageSchema } from '../../../shared/ipc/wire';
import type { EventSink } from '../../platform/events/eventBus';
import type { IpcRouter } from '../../platform/ipc/router';

/** A message at least this big counts against the shared large-message budget. */
export const LARGE_MESSAGE_BYTES = 1024 * 1024;
/**
 * Bytes of large messages being decoded and dispatched at once, over every connection. Decoding
 * multiplies a message (UTF-16 string, parsed object, base64 bytes), so eight 60 MB messages at
 * once took the host to 1 GB; beyond this budget a message is refused with IPC_BUSY.
 */
export const LARGE_MESSAGE_BUDGET_BYTES = 96 * 1024 * 1024;

export interface IpcSocketDeps {
  router: IpcRouter;
  subscribeEvents: (sink: EventSink) => () => void;
  /** Shared between all sockets of one host (see LARGE_MESSAGE_BUDGET_BYTES). */
  budget: { inFlightBytes: number; limitBytes: number };
  onInternalError: (error: unknown) => void;
}

/**
 * The id of a call whose body is not decoded (refused for size): the bridge serialises
 * `{t, id, ...}` in that order, so it is in the first bytes.
 */
function peekCallId(data: Buffer | ArrayBuffer | Buffer[]): number | null {
  const first = Array.isArray(data) ? (data[0] ?? Buffer.alloc(0)) : data;
  // Views, not copies: the message may be tens of megabytes.
  const head = (first instanceof ArrayBuffer ? Buffer.from(first, 0, Math.min(64, first.byteLength)) : first.subarray(0, 64)).toString('latin1');
  const match = /^\{"t":"call","id":(\d{1,15}),/.exec(head);
  return match ? Number(match[1]) : null;
}

function byteLength(data: Buffer | ArrayBuffer | Buffer[]): number {
  if (Array.isArray(data)) return data.reduce((sum, part) => sum + part.length, 0);
  return data instanceof ArrayBuffer ? data.byteLength : data.length;
}

/**
 * Carries the IPC contract over one authorised WebSocket. Nothing a client sends can throw out
 * of here: protocol errors (bad frames, a message over maxPayload) close only this socket, and
 * every handler failure is answered as data.
 */
export function serveIpcSocket(ws: WebSocket, deps: IpcSocketDeps): void {
  const send = (message: unknown): void => {
    if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(message));
  };
  const unsubscribe = deps.subscribeEvents((event, payload) => send({ t: 'event', event, payload }));
  ws.on('close', unsubscribe);
  // ws emits 'error' for invalid frames and oversized messages, then closes the socket (1002 /
  // 1009); without a listener the EventEmitter would throw and take the host down.
  ws.on('error', (error) => deps.onInternalError(new AppError('IPC_BAD_MESSAGE', `IPC socket closed: ${(error as NodeJS.ErrnoException).code ?? 'protocol error'}`)));
  ws.on('message', (data: Buffer | ArrayBuffer | Buffer[]) => {
    const size = byteLength(data);
    const large = size >= LARGE_MESSAGE_BYTES;
    if (large && deps.budget.inFlightBytes + size > deps.budget.limitBytes) {
      const error = new AppError('IPC_BUSY', 'The host is already processing other large messages; try again in a moment.', { retryable: true, data: { bytes: size } }).toData();
      const id = peekCallId(data);
      send(id === null ? { t: 'error', error } : { t: 'result', id, result: { ok: false, error } });
      return;
    }
    let message;
    try {
      message = clientMessageSchema.parse(JSON.parse(String(data)));
    } catch {
      send({ t: 'error', error: new AppError('IPC_BAD_MESSAGE', 'Malformed message on the IPC socket.').toData() });
      return;
    }
    if (large) deps.budget.inFlightBytes += size;
    void deps.router
      .dispatch(message.channel, message.input, { transport: 'browser' })
      .then((result) => send({ t: 'result', id: message.id, result }))
      .catch((error: unknown) => deps.onInternalError(error))
      .finally(() => {
        if (large) deps.budget.inFlightBytes -= size;
      });
  });
}
