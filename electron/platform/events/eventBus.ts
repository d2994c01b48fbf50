import type { z } from 'zod';
import type { EventTable } from '../../../shared/ipc/contract';

export type EventSink = (event: string, payload: unknown) => void;

/**
 * Typed main -> renderer event bus. Producers emit validated payloads; each transport
 * (Electron webContents, browser-mode WebSocket) subscribes once and forwards everything.
 */
export interface EventBus<T extends EventTable> {
  /** Validates the payload against the event table and delivers it to every subscriber. */
  emit<K extends keyof T & string>(event: K, payload: z.input<T[K]>): void;
  /** Returns the unsubscribe function. */
  subscribe(sink: EventSink): () => void;
}

export function createEventBus<T extends EventTable>(table: T, onSinkError: (error: unknown) => void): EventBus<T> {
  const sinks = new Set<EventSink>();
  return {
    emit(event, payload) {
      const parsed = table[event]!.parse(payload);
      for (const sink of [...sinks]) {
        try {
          sink(event, parsed);
        } catch (error) {
          onSinkError(error);
        }
      }
    },
    subscribe(sink) {
      sinks.add(sink);
      return () => sinks.delete(sink);
    },
  };
}
