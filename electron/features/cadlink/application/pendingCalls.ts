import { idKey, type JsonRpcFailure, type JsonRpcId, type JsonRpcSuccess } from '../domain/protocol/jsonRpc';
import type { AppError } from '../../../../shared/errors';

/**
 * Correlates replies with outstanding requests by id type AND value ("1" is not 1). Every
 * registered call settles exactly once: by its reply, by expiry (timeout/abort) or by
 * rejectAll (disconnect). Replies that match nothing are counted and dropped, never thrown.
 */

export type CallOutcome = { kind: 'reply'; message: JsonRpcSuccess | JsonRpcFailure } | { kind: 'failed'; error: AppError };

/** Replies the client received but could not use. */
export interface CorrelationStats {
  /** Reply ids never sent on this client (or sent so long ago they were forgotten). */
  unknownReplies: number;
  /** A second reply for an id that was already answered. */
  duplicateReplies: number;
  /** A reply for a call that had already timed out, been cancelled or been rejected. */
  lateReplies: number;
}

export interface PendingCalls {
  /** Registers an outgoing call; `settle` is invoked exactly once. Throws if the id is already pending (a client bug). */
  register(id: JsonRpcId, settle: (outcome: CallOutcome) => void): void;
  /** Routes a reply; returns false (and counts it) when no pending call owns it. */
  deliver(message: JsonRpcSuccess | JsonRpcFailure): boolean;
  /** Fails one pending call (timeout, abort); a reply arriving later counts as late. */
  fail(id: JsonRpcId, error: AppError): void;
  /** Fails every pending call (connection lost); returns how many there were. */
  failAll(error: AppError): number;
  readonly size: number;
  readonly stats: Readonly<CorrelationStats>;
}

/** How many settled ids are remembered to tell duplicate/late replies from unknown ones. */
const DEFAULT_MEMORY = 4096;

export function createPendingCalls(memory = DEFAULT_MEMORY): PendingCalls {
  const pending = new Map<string, (outcome: CallOutcome) => void>();
  // Settled ids in a fixed ring: the oldest is forgotten first, with no per-call iterator or
  // reallocation. `slot` guards against evicting a newer entry for a reused id.
  const settled = new Map<string, { how: 'answered' | 'failed'; slot: number }>();
  const ring: Array<string | undefined> = new Array<string | undefined>(memory);
  let nextSlot = 0;
  const stats: CorrelationStats = { unknownReplies: 0, duplicateReplies: 0, lateReplies: 0 };

  function remember(key: string, how: 'answered' | 'failed'): void {
    const evicted = ring[nextSlot];
    if (evicted !== undefined && settled.get(evicted)?.slot === nextSlot) settled.delete(evicted);
    ring[nextSlot] = key;
    settled.set(key, { how, slot: nextSlot });
    nextSlot = (nextSlot + 1) % memory;
  }

  return {
    register(id, settle) {
      const key = idKey(id);
      if (pending.has(key)) throw new Error(`request id ${key} is already pending`);
      settled.delete(key);
      pending.set(key, settle);
    },
    deliver(message) {
      if (message.id === null) {
        stats.unknownReplies += 1;
        return false;
      }
      const key = idKey(message.id);
      const settle = pending.get(key);
      if (!settle) {
        const previous = settled.get(key)?.how;
        if (previous === 'answered') stats.duplicateReplies += 1;
        else if (previous === 'failed') stats.lateReplies += 1;
        else stats.unknownReplies += 1;
        return false;
      }
      pending.delete(key);
      remember(key, 'answered');
      settle({ kind: 'reply', message });
      return true;
    },
    fail(id, error) {
      const key = idKey(id);
      const settle = pending.get(key);
      if (!settle) return;
      pending.delete(key);
      remember(key, 'failed');
      settle({ kind: 'failed', error });
    },
    failAll(error) {
      const entries = [...pending];
      pending.clear();
      for (const [key, settle] of entries) {
        remember(key, 'failed');
        settle({ kind: 'failed', error });
      }
      return entries.length;
    },
    get size() {
      return pending.size;
    },
    stats,
  };
}
