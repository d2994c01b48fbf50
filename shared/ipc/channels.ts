import type { BridgeEvents, BridgeMethods } from './contract';
import { cadgenChannels } from './contracts/cadgen';
import { generationChannels, generationEvents } from './contracts/generation';
import { platformChannels, platformEvents } from './contracts/platform';
import { reviewChannels, reviewEvents } from './contracts/review';
import { reviewSetChannels, reviewSetEvents } from './contracts/reviewSet';
import { visionChannels, visionEvents } from './contracts/vision';

/**
 * The one IPC channel table: every request the renderer can make, with zod input/output.
 * Each slice contributes its part from shared/ipc/contracts/<slice>.ts.
 */
export const ipcChannels = {
  ...platformChannels,
  ...cadgenChannels,
  ...generationChannels,
  ...reviewChannels,
  ...reviewSetChannels,
  ...visionChannels,
} as const;

/** The one table of main -> renderer events. */
export const ipcEvents = {
  ...platformEvents,
  ...generationEvents,
  ...reviewEvents,
  ...reviewSetEvents,
  ...visionEvents,
} as const;

export type IpcChannels = typeof ipcChannels;
export type IpcEvents = typeof ipcEvents;
export type ChannelName = keyof IpcChannels & string;
export type EventName = keyof IpcEvents & string;

/** A file the user picked or dropped (a DOM `File`; shared code has no DOM types). */
export interface PickedFile {
  readonly name: string;
  readonly size: number;
}

/** The object exposed to the renderer as `window.cadsight` (Electron) or built over WebSocket. */
export type AppBridge = BridgeMethods<IpcChannels> &
  BridgeEvents<IpcEvents> & {
    /**
     * Desktop app only: the absolute path of a file the user picked or dropped ('' when it has
     * none, e.g. a file from a browser download). Browser mode has no such method.
     */
    pathForFile?(file: PickedFile): string;
  };

/** Prefix of Electron ipcMain channel strings. */
export const IPC_PREFIX = 'cadsight:';
