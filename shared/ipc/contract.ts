import type { z } from 'zod';
import type { Result } from '../errors';

/** One request/response channel: the input is validated by the router, the output by tests. */
export interface ChannelContract {
  input: z.ZodType;
  output: z.ZodType;
}

/** One main -> renderer event: its payload schema. */
export type EventContract = z.ZodType;

export type ChannelTable = Record<string, ChannelContract>;
export type EventTable = Record<string, EventContract>;

export type ChannelInput<C extends ChannelContract> = z.input<C['input']>;
export type ChannelOutput<C extends ChannelContract> = z.output<C['output']>;

/**
 * What the renderer sees: one async method per channel (returning a Result, never throwing
 * for a typed error), plus `on` for events. Both transports (Electron preload, WebSocket)
 * implement exactly this shape, so the renderer cannot tell which one it has.
 */
export type BridgeMethods<T extends ChannelTable> = {
  [K in keyof T]: (input: ChannelInput<T[K]>) => Promise<Result<ChannelOutput<T[K]>>>;
};

export type EventListener<T extends EventTable, K extends keyof T> = (payload: z.output<T[K]>) => void;

export interface BridgeEvents<T extends EventTable> {
  /** Subscribes to a main -> renderer event; returns the unsubscribe function. */
  on<K extends keyof T & string>(event: K, listener: EventListener<T, K>): () => void;
}
