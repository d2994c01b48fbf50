import type { z } from 'zod';
import type { AppErrorData, Result } from '../../shared/errors';
import type {
  visionRegionSchema,
  visionSessionListingSchema,
  visionSessionSchema,
  visionTurnResultSchema,
  visionUploadSchema,
} from '../../shared/ipc/contracts/vision';
import type { ShellSlice } from './shellSlice';
import type { SliceContext } from './types';

export type VisionSessionListing = z.output<typeof visionSessionListingSchema>;
export type VisionSession = z.output<typeof visionSessionSchema>;
export type VisionTurnResult = z.output<typeof visionTurnResultSchema>;
export type VisionRegion = z.output<typeof visionRegionSchema>;

/** An image waiting to be sent with the next question. */
export interface PendingUpload extends z.output<typeof visionUploadSchema> {
  id: number;
  size: number;
}

/** The model the next turn uses; null = the vision default chosen in Settings. */
export type VisionModelChoice = { providerId: string; model: string } | null;

/** A turn in flight, with the latest progress the host reported for it. */
export interface VisionBusy {
  requestId: string;
  phase: 'send' | 'prepare' | 'ask';
  done: number;
  total: number;
}

/** The Images view: sessions, the open conversation, images waiting to be sent, the running turn. */
export interface VisionSlice {
  visionSessions: VisionSessionListing[];
  visionSession: VisionSession | null;
  /** Data URLs of session images, keyed `${sessionId}/${index}` (fetched once each). */
  visionImages: Record<string, string>;
  visionPending: PendingUpload[];
  visionChoice: VisionModelChoice;
  visionBusy: VisionBusy | null;
  /** The error of the last action, shown inline in the view (codes decide the hint, e.g. a Settings link). */
  visionError: AppErrorData | null;
  /** Result of the last turn: its latency and usage are shown under the conversation. */
  visionLastTurn: VisionTurnResult | null;
  /** True when the last turn failed and can be sent again unchanged (Retry). */
  visionCanRetry: boolean;
  /** Sends the failed turn again (same prompt, images and model). Returns true on success. */
  retryVision(): Promise<boolean>;
  /** Renames a session (its title in the list). Errors: VISION_SESSION_NOT_FOUND. */
  renameVisionSession(sessionId: string, summary: string): Promise<boolean>;
  /** Deletes a session and its images. */
  deleteVisionSession(sessionId: string): Promise<boolean>;
  loadVisionSessions(): Promise<void>;
  /** Opens a session (null = start a new one). */
  openVisionSession(sessionId: string | null): Promise<void>;
  /** Fetches a session image once: the bytes the model saw, or (`full`) the original for the lightbox. */
  loadVisionImage(sessionId: string, imageIndex: number, full?: boolean): Promise<void>;
  addVisionUploads(uploads: Omit<PendingUpload, 'id'>[]): void;
  removeVisionUpload(id: number): void;
  setVisionChoice(choice: VisionModelChoice): void;
  /** Asks the open session (or a new one) with the pending images. Returns true on success. */
  askVision(prompt: string): Promise<boolean>;
  /** Asks about a region (fractions) of an image of the open session. Returns true on success. */
  zoomVision(imageIndex: number, region: VisionRegion, prompt: string): Promise<boolean>;
  showVisionError(error: AppErrorData | null): void;
}

export const visionImageKey = (sessionId: string, imageIndex: number, full = false): string => `${sessionId}/${imageIndex}${full ? '/full' : ''}`;

export function createVisionSlice<S extends ShellSlice & VisionSlice>({ set, get, bridge }: SliceContext<S>): VisionSlice {
  let nextUploadId = 1;
  let nextRequest = 1;
  const patch = (partial: Partial<VisionSlice>) => set(partial as Partial<S>);

  bridge.on('progress', (event) => {
    const busy = get().visionBusy;
    if (!busy || event.taskId !== `vision:${busy.requestId}`) return;
    if (event.phase !== 'prepare' && event.phase !== 'ask') return;
    patch({ visionBusy: { ...busy, phase: event.phase, done: event.done, total: event.total } });
  });
  // Turns committed elsewhere (another window) or by this view: keep the list and conversation current.
  bridge.on('visionSessionChanged', ({ sessionId }) => {
    void get().loadVisionSessions();
    if (get().visionSession?.id === sessionId && !get().visionBusy) void reloadSession(sessionId, { goneIsEmpty: true });
  });

  /** Reloads the open session; `goneIsEmpty`: a session deleted elsewhere just closes. */
  async function reloadSession(sessionId: string, options: { goneIsEmpty?: boolean } = {}): Promise<boolean> {
    const result = await bridge.visionGetSession({ sessionId });
    if (!result.ok) {
      if (options.goneIsEmpty && result.error.code === 'VISION_SESSION_NOT_FOUND') patch({ visionSession: null });
      else patch({ visionError: result.error });
      return false;
    }
    patch({ visionSession: result.value });
    return true;
  }

  // The send of the last failed turn: Retry repeats it as it was (a failed turn wrote nothing).
  let failedSend: ((requestId: string) => Promise<Result<VisionTurnResult>>) | null = null;

  /** Runs one turn: progress tracking, inline error, then the refreshed conversation and list. */
  async function turn(send: (requestId: string) => Promise<Result<VisionTurnResult>>, uploads: readonly PendingUpload[] = []): Promise<boolean> {
    if (get().visionBusy) return false;
    const requestId = `r${Date.now().toString(36)}${nextRequest++}`;
    patch({ visionBusy: { requestId, phase: 'send', done: 0, total: 0 }, visionError: null, visionCanRetry: false });
    const result = await send(requestId);
    patch({ visionBusy: null });
    if (!result.ok) {
      // A file the engine refused (data.sourceIndex) leaves the tray, named in the error: sending
      // it again could not succeed, and it would fail the next question's good images too.
      const index = result.error.data?.['sourceIndex'];
      const bad = typeof index === 'number' ? uploads[index] : undefined;
      if (bad) {
        failedSend = null;
        patch({
          visionPending: get().visionPending.filter((upload) => upload.id !== bad.id),
          visionError: { ...result.error, data: { ...result.error.data, messageKey: 'vision.upload.removed', params: { name: bad.name, code: result.error.code } } },
          visionCanRetry: false,
        });
        return false;
      }
      failedSend = send;
      patch({ visionError: result.error, visionCanRetry: true });
      return false;
    }
    failedSend = null;
    patch({ visionLastTurn: result.value, visionPending: [] });
    await reloadSession(result.value.sessionId);
    await get().loadVisionSessions();
    return true;
  }

  const choiceInput = () => {
    const choice = get().visionChoice;
    return choice ? { providerId: choice.providerId, model: choice.model } : {};
  };

  return {
    visionSessions: [],
    visionSession: null,
    visionImages: {},
    visionPending: [],
    visionChoice: null,
    visionBusy: null,
    visionError: null,
    visionLastTurn: null,
    visionCanRetry: false,
    retryVision() {
      return failedSend ? turn(failedSend) : Promise.resolve(false);
    },
    async renameVisionSession(sessionId, summary) {
      const result = await bridge.visionRenameSession({ sessionId, summary });
      if (!result.ok) {
        patch({ visionError: result.error });
        return false;
      }
      if (get().visionSession?.id === sessionId) await reloadSession(sessionId);
      await get().loadVisionSessions();
      return true;
    },
    async deleteVisionSession(sessionId) {
      const result = await bridge.visionDeleteSession({ sessionId });
      if (!result.ok) {
        patch({ visionError: result.error });
        return false;
      }
      if (get().visionSession?.id === sessionId) patch({ visionSession: null, visionLastTurn: null });
      await get().loadVisionSessions();
      return true;
    },
    async loadVisionSessions() {
      const sessions = get().unwrap(await bridge.visionListSessions({}));
      if (sessions) patch({ visionSessions: sessions });
    },
    async openVisionSession(sessionId) {
      failedSend = null;
      patch({ visionError: null, visionLastTurn: null, visionCanRetry: false });
      if (sessionId === null) {
        patch({ visionSession: null });
        return;
      }
      await reloadSession(sessionId);
    },
    async loadVisionImage(sessionId, imageIndex, full = false) {
      const key = visionImageKey(sessionId, imageIndex, full);
      if (get().visionImages[key]) return;
      const result = await bridge.visionGetImage({ sessionId, imageIndex, ...(full ? { full: true } : {}) });
      if (!result.ok) {
        patch({ visionError: result.error });
        return;
      }
      const url = `data:${result.value.mimeType};base64,${result.value.dataBase64}`;
      set((state) => ({ visionImages: { ...state.visionImages, [key]: url } }) as Partial<S>);
    },
    addVisionUploads(uploads) {
      const added = uploads.map((upload) => ({ ...upload, id: nextUploadId++ }));
      set((state) => ({ visionPending: [...state.visionPending, ...added], visionError: null }) as Partial<S>);
    },
    removeVisionUpload: (id) => set((state) => ({ visionPending: state.visionPending.filter((p) => p.id !== id) }) as Partial<S>),
    setVisionChoice: (choice) => patch({ visionChoice: choice }),
    askVision(prompt) {
      const session = get().visionSession;
      const pending = get().visionPending;
      const images = pending.map(({ name, mimeType, dataBase64 }) => ({ name, dataBase64, ...(mimeType ? { mimeType } : {}) }));
      return turn((requestId) => bridge.visionAnalyze({ prompt, images, requestId, ...(session ? { sessionId: session.id } : {}), ...choiceInput() }), pending);
    },
    zoomVision(imageIndex, region, prompt) {
      const session = get().visionSession;
      if (!session) return Promise.resolve(false);
      return turn((requestId) => bridge.visionZoom({ sessionId: session.id, imageIndex, region, prompt, requestId, ...choiceInput() }));
    },
    showVisionError: (error) => patch({ visionError: error }),
  };
}
