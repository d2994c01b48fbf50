import net from 'node:net';
import { performance } from 'node:perf_hooks';
import { notConnectedError } from '../../domain/protocol/cadErrors';
import { writeBatched } from './jsonRpcLineServer';
import type { CadSocket, CadSocketFactory } from '../../ports/cadSocket';
import type { Clock } from '../../ports/clock';

/** CadSocketFactory over node:net with a connect timeout; Nagle is off because every frame is a complete message. */
export const connectTcpSocket: CadSocketFactory = (endpoint, options) =>
  new Promise<CadSocket>((resolve, reject) => {
    const socket = net.connect({ host: endpoint.host, port: endpoint.port, noDelay: true });
    const fail = (reason: string): void => {
      socket.destroy();
      reject(notConnectedError(endpoint, reason));
    };
    const timer = setTimeout(() => fail(`no answer within ${options.timeoutMs} ms`), options.timeoutMs);
    socket.once('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      fail(error.code ?? error.message);
    });
    socket.once('connect', () => {
      clearTimeout(timer);
      socket.removeAllListeners('error');
      resolve(wrapSocket(socket));
    });
  });

function wrapSocket(socket: net.Socket): CadSocket {
  let closeReason: string | undefined;
  socket.on('error', (error: NodeJS.ErrnoException) => {
    closeReason = error.code ?? error.message;
  });
  return {
    write: (bytes) => writeBatched(socket, bytes),
    onData: (listener) => socket.on('data', listener),
    onDrain: (listener) => socket.on('drain', listener),
    onClose: (listener) => socket.once('close', () => listener(closeReason)),
    close: () => socket.destroy(),
  };
}

/** The real clock; timers are unref'd so a pending backoff never keeps a CLI process alive. */
export function createSystemClock(): Clock {
  return {
    now: () => performance.now(),
    setTimeout(callback, ms) {
      const timer = setTimeout(callback, ms);
      timer.unref();
      return () => clearTimeout(timer);
    },
  };
}
