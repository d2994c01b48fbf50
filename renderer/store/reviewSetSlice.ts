import type { z } from 'zod';
import type { AppErrorData, Result } from '../../shared/errors';
import type { reviewSetChannels, setDetailViewSchema, setSummaryViewSchema } from '../../shared/ipc/contracts/reviewSet';
import { MAX_SET_FILES } from '../../shared/ipc/contracts/reviewSet';
import { fileToBase64, type ReviewSlice } from './reviewSlice';
import type { ShellSlice } from './shellSlice';
import type { SliceContext } from './types';

export type SetSummary = z.output<typeof setSummaryViewSchema>;
export type SetDetail = z.output<typeof setDetailViewSchema>;
export type NewSetReviewInput = Omit<z.input<(typeof reviewSetChannels)['reviewSetStart']['input']>, 'setId'>;

/** Drawing sets in the Review view: gather DXF files into a set, review it, read its set report. */
export interface ReviewSetSlice {
  sets: SetSummary[];
  /** The set shown in the main area (a file's run opened from it takes the area until closed). */
  set: SetDetail | null;
  /** Files being uploaded into a new set. */
  setUpload: { done: number; total: number } | null;
  /** Subscribes to set events and lists the sets. */
  initSets(): Promise<void>;
  /** A new set named `name` from the DXF files among `files` (others are skipped); it is shown, not started. */
  createSet(name: string, files: readonly File[]): Promise<void>;
  selectSet(setId: string | null): Promise<void>;
  startSet(input: NewSetReviewInput): Promise<void>;
  cancelSet(): Promise<void>;
  /** The set report as bytes to save; failures go to the banner. */
  downloadSetReport(kind: 'markdown' | 'json'): Promise<{ fileName: string; mimeType: string; dataBase64: string } | undefined>;
}

/** The drawings of a pick or drop: DXF files by name (a folder brings other files along), sorted, first MAX_SET_FILES. */
export const setDrawings = (files: readonly File[]): File[] =>
  files
    .filter((f) => /\.dxf$/i.test(f.name) && !/\.ai-review\.dxf$/i.test(f.name))
    .sort((a, b) => a.name.localeCompare(b.name))
    .slice(0, MAX_SET_FILES);

export function createReviewSetSlice<S extends ShellSlice & ReviewSlice & ReviewSetSlice>({ set, get, bridge }: SliceContext<S>): ReviewSetSlice {
  let subscribed = false;
  const put = (partial: Partial<ReviewSetSlice>): void => set(partial as Partial<S>);
  const unwrap = <T>(result: Result<T>): T | undefined => {
    if (result.ok) return result.value;
    get().reportError(result.error);
    return undefined;
  };
  const loadSets = async (): Promise<void> => {
    const list = await bridge.reviewListSets({});
    if (list.ok) put({ sets: list.value.sets });
  };
  const refreshSet = async (setId: string): Promise<void> => {
    const detail = unwrap(await bridge.reviewGetSet({ setId }));
    if (detail && get().set?.set.id === setId) put({ set: detail });
  };

  return {
    sets: [],
    set: null,
    setUpload: null,

    async initSets() {
      if (!subscribed) {
        subscribed = true;
        bridge.on('reviewSetProgress', (event) => {
          const current = get().set;
          if (current?.set.id !== event.setId) return;
          // Only the file that moved changes: no round trip per file.
          const files = current.files.map((f) => (f.file === event.file.file ? event.file : f));
          put({ set: { ...current, set: { ...current.set, status: 'running', done: event.done }, files } });
        });
        bridge.on('reviewSetStatus', (event) => {
          void loadSets();
          if (event.setId === get().set?.set.id) void refreshSet(event.setId);
          if (event.error && event.error.code !== 'REVIEW_CANCELLED') get().reportError(event.error as AppErrorData);
        });
      }
      await loadSets();
    },
    async createSet(name, files) {
      const drawings = setDrawings(files);
      if (drawings.length === 0) {
        get().reportError({ code: 'REVIEW_SET_EMPTY', message: 'None of the chosen files is a .dxf drawing.', retryable: false });
        return;
      }
      const created = unwrap(await bridge.reviewSetCreate({ name }));
      if (!created) return;
      put({ setUpload: { done: 0, total: drawings.length } });
      try {
        // One file at a time: each stays under the upload cap and the host stores it before the next.
        for (const [i, file] of drawings.entries()) {
          let dataBase64: string;
          try {
            dataBase64 = await fileToBase64(file);
          } catch {
            get().reportError({ code: 'REVIEW_UPLOAD_UNREADABLE', message: `Cannot read ${file.name} from disk.`, retryable: true });
            continue;
          }
          // A refused file (too large, a DWG) is reported and the others still go in.
          unwrap(await bridge.reviewSetAddFile({ setId: created.setId, fileName: file.name, dataBase64 }));
          put({ setUpload: { done: i + 1, total: drawings.length } });
        }
      } finally {
        put({ setUpload: null });
      }
      await get().selectRun(null);
      await get().selectSet(created.setId);
      await loadSets();
    },
    async selectSet(setId) {
      if (setId === null) {
        put({ set: null });
        return;
      }
      const detail = unwrap(await bridge.reviewGetSet({ setId }));
      if (!detail) return;
      await get().selectRun(null);
      put({ set: detail });
    },
    async startSet(input) {
      const current = get().set;
      if (!current) return;
      const started = unwrap(await bridge.reviewSetStart({ setId: current.set.id, ...input }));
      if (!started) return;
      await refreshSet(current.set.id);
      await loadSets();
    },
    async cancelSet() {
      const current = get().set;
      if (current) unwrap(await bridge.reviewSetCancel({ setId: current.set.id }));
    },
    async downloadSetReport(kind) {
      const current = get().set;
      if (!current) return undefined;
      return unwrap(await bridge.reviewSetDownload({ setId: current.set.id, kind }));
    },
  };
}
