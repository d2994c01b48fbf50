import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { AppError } from '../../../../shared/errors';
import { createCadClient } from './cadClient';
import { createToolPolicy } from '../domain/policy/toolPolicy';
import { createFakeSocket, type FakeSocket } from '../../../testSupport/cadPeers/fakeSocket';
import { createManualClock } from '../../../testSupport/cadPeers/manualClock';

const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

type Action = 'connect' | 'call' | 'reply' | 'drop' | 'tick' | 'close';
const MAX_BACKOFF_MS = 1000;
const REQUEST_TIMEOUT_MS = 10_000;

describe('cadConnection state machine', () => {
  it('keeps its invariants under any sequence of connects, calls, replies, drops, timer ticks and close', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.constantFrom<Action>('connect', 'call', 'call', 'reply', 'drop', 'tick', 'tick', 'close'), { maxLength: 40 }),
        fc.array(fc.boolean(), { maxLength: 40 }),
        async (actions, attemptOutcomes) => {
          const clock = createManualClock();
          const sockets: FakeSocket[] = [];
          // A holder, not a `let`: TypeScript does not see the factory closure assigning it.
          const live: { socket: FakeSocket | null } = { socket: null };
          const client = createCadClient({
            host: '127.0.0.1',
            port: 8080,
            socketFactory: async () => {
              if (!(attemptOutcomes.shift() ?? false)) throw new AppError('CAD_NOT_CONNECTED', 'refused', { retryable: true });
              const socket = createFakeSocket();
              live.socket = socket;
              sockets.push(socket);
              return socket;
            },
            clock,
            random: () => 0.5,
            policy: createToolPolicy({ mode: 'read-write' }),
            requestTimeoutMs: REQUEST_TIMEOUT_MS,
            reconnect: { baseMs: 10, maxMs: MAX_BACKOFF_MS, jitter: 0.5 },
          });
          const states: string[] = [];
          client.onStateChange((event) => {
            states.push(event.state);
            if (event.retryInMs !== undefined) expect(event.retryInMs).toBeLessThanOrEqual(MAX_BACKOFF_MS);
          });
          const settledCount: number[] = [];
          let closed = false;
          for (const action of actions) {
            if (action === 'connect') client.connect().catch(() => undefined);
            if (action === 'call') {
              const index = settledCount.push(0) - 1;
              void client.callTool('get_layers').then(() => {
                settledCount[index]! += 1;
              });
            }
            const socket = live.socket;
            if (action === 'reply' && socket && !socket.closed) {
              for (const line of socket.written) socket.reply(`${line.replace(/"method".*$/, '"result":{"content":[]}}')}\n`);
            }
            if (action === 'drop') socket?.drop('ECONNRESET');
            if (action === 'tick' && clock.pendingDelays.length > 0) clock.advance(Math.min(...clock.pendingDelays));
            if (action === 'close') {
              client.close();
              closed = true;
            }
            await settle();
            const backoffTimers = clock.pendingDelays.filter((delay) => delay <= MAX_BACKOFF_MS);
            expect(backoffTimers.length).toBeLessThanOrEqual(1);
            if (client.state === 'backoff') expect(backoffTimers).toHaveLength(1);
            if (closed) {
              expect(client.state).toBe('disconnected');
              expect(backoffTimers).toEqual([]);
            }
            // At most one live socket at a time.
            expect(sockets.filter((socket) => !socket.closed).length).toBeLessThanOrEqual(1);
          }
          client.close();
          await settle();
          clock.advance(REQUEST_TIMEOUT_MS);
          await settle();
          // Every call settled exactly once (by its reply, a drop, close or its timeout).
          expect(settledCount.every((count) => count === 1)).toBe(true);
          expect(client.stats().pending).toBe(0);
          expect(states.every((state) => ['disconnected', 'connecting', 'connected', 'backoff'].includes(state))).toBe(true);
          expect(client.state).toBe('disconnected');
          expect(clock.pendingDelays.filter((delay) => delay <= MAX_BACKOFF_MS)).toEqual([]);
        },
      ),
      { numRuns: 150 },
    );
  });
});
