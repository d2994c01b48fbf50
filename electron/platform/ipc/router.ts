import type { z } from 'zod';
import { AppError, toAppErrorData, type Result } from '../../../shared/errors';
import { asStorageFull, folderOfFailure, MIN_WRITE_BYTES } from '../dataDir/storageFull';
import type { ChannelContract, ChannelTable } from '../../../shared/ipc/contract';

/** Who is calling: the transport fills this in after its own sender/token checks. */
export interface CallContext {
  transport: 'electron' | 'browser' | 'test';
}

export type ChannelHandler<C extends ChannelContract> = (
  input: z.output<C['input']>,
  context: CallContext,
) => Promise<z.input<C['output']>> | z.input<C['output']>;

export type HandlerTable<T extends ChannelTable> = { [K in keyof T]: ChannelHandler<T[K]> };

/** Logs a failure that was not an AppError (the user only sees INTERNAL_ERROR). */
export type InternalErrorSink = (channel: string, error: unknown) => void;

/**
 * The transport-agnostic router: validates the raw input against the channel's schema, runs
 * the handler and returns a Result. Never throws. Error codes: IPC_UNKNOWN_CHANNEL,
 * IPC_INVALID_INPUT (with zod issues in data), whatever AppError the handler threw,
 * STORAGE_FULL (retryable) for a file-system or SQLite write that found the disk full, over quota
 * or read-only wherever it happened, INTERNAL_ERROR for anything else.
 */
export interface IpcRouter {
  dispatch(channel: string, rawInput: unknown, context: CallContext): Promise<Result<unknown>>;
  channels(): string[];
}

export interface IpcRouterOptions {
  /** The folder named in STORAGE_FULL when the failed call does not say where it wrote (SQLite): the data folder. */
  storageFolder?: string;
}

export function createIpcRouter<T extends ChannelTable>(
  table: T,
  handlers: HandlerTable<T>,
  onInternalError: InternalErrorSink,
  options: IpcRouterOptions = {},
): IpcRouter {
  const names = Object.keys(table);
  return {
    channels: () => [...names],
    async dispatch(channel, rawInput, context) {
      if (!Object.hasOwn(table, channel)) {
        return { ok: false, error: new AppError('IPC_UNKNOWN_CHANNEL', `Unknown channel "${String(channel).slice(0, 80)}".`).toData() };
      }
      const contract = table[channel] as ChannelContract;
      const parsed = contract.input.safeParse(rawInput ?? {});
      if (!parsed.success) {
        const issues = parsed.error.issues.slice(0, 20).map((i) => ({ path: i.path.map(String).join('.'), message: i.message }));
        return {
          ok: false,
          error: new AppError('IPC_INVALID_INPUT', `Invalid input for ${channel}: ${issues.map((i) => `${i.path || '(root)'}: ${i.message}`).join('; ')}`, {
            data: { channel, issues },
          }).toData(),
        };
      }
      try {
        const handler = handlers[channel as keyof T] as ChannelHandler<ChannelContract>;
        const value = await handler(parsed.data, context);
        return { ok: true, value: contract.output.parse(value) };
      } catch (error) {
        // A full disk is the user's to fix, whichever write path met it (mkdir, SQLite, a stream):
        // one typed, retryable answer instead of INTERNAL_ERROR. Typed errors of a slice stay as they are.
        const full = error instanceof AppError && error.code !== 'STORE_IO' ? null : asStorageFull(error, { folder: folderOfFailure(error, options.storageFolder ?? 'The data folder'), neededBytes: MIN_WRITE_BYTES });
        if (full) return { ok: false, error: full.toData() };
        if (!(error instanceof AppError)) onInternalError(channel, error);
        return { ok: false, error: toAppErrorData(error) };
      }
    },
  };
}
