import type { z } from 'zod';
import type { AppErrorData } from '../../shared/errors';
import type { entityViewSchema, reviewBBoxSchema } from '../../shared/ipc/contracts/review';
import type { ShellSlice } from './shellSlice';
import type { SliceContext } from './types';

export type EntityView = z.output<typeof entityViewSchema>;
export type ViewBox = z.output<typeof reviewBBoxSchema>;

/** A picture of a layout region as the viewer places it: exactly `region` in drawing units. */
export interface ViewTile {
  url: string;
  widthPx: number;
  heightPx: number;
  region: ViewBox;
}

/** Where the viewer should look: a layout and a box to fit; `seq` makes a repeated click count. */
export interface ViewerFocus {
  layout: string;
  bbox: ViewBox | null;
  seq: number;
}

/** The drawing viewer's shared state: layer toggles, the layout tab, the focus and the inspector. */
export interface ReviewViewerSlice {
  /** Layers the user hid (names as the drawing spells them). */
  hiddenLayers: string[];
  viewerFocus: ViewerFocus | null;
  /** Entities under the last click (nearest first), or the error of that lookup. */
  inspected: { entities: EntityView[]; total: number } | { error: AppErrorData } | null;
  /** Entities that findings cite, by upper-case handle (their boxes are highlighted). */
  citedEntities: Record<string, EntityView | { error: AppErrorData }>;
  toggleLayer(name: string): void;
  showAllLayers(): void;
  focusViewer(layout: string, bbox: ViewBox | null): void;
  /** One picture for the viewer (errors are returned, the viewer shows them on the tile area). */
  viewImage(input: { layout: string; bbox?: ViewBox; maxEdge: number; hiddenLayers: string[] }): Promise<ViewTile | { error: AppErrorData }>;
  pickAt(layout: string, bbox: ViewBox): Promise<void>;
  clearInspected(): void;
  loadCitedEntity(handle: string): Promise<void>;
  /** Forgets everything about the previous drawing (another drawing was opened). */
  resetViewer(): void;
  /** Drops the pictures kept for the open drawing (it was read again and may have changed). */
  forgetPictures(): void;
}

/** Pictures kept per store (a 512 px tile is ~50–150 KB as a data URL). */
const PICTURE_CAPACITY = 240;

export function createReviewViewerSlice<S extends ShellSlice & ReviewViewerSlice>({ set, get, bridge }: SliceContext<S>): ReviewViewerSlice {
  const put = (partial: Partial<ReviewViewerSlice>): void => set(partial as Partial<S>);
  let focusSeq = 0;
  const asking = new Set<string>();
  /**
   * Pictures already rendered for the open drawing, by request (least recently used first):
   * coming back to Review or to a frame shows them at once instead of asking the host again.
   */
  const pictures = new Map<string, ViewTile>();
  return {
    hiddenLayers: [],
    viewerFocus: null,
    inspected: null,
    citedEntities: {},
    toggleLayer(name) {
      const hidden = get().hiddenLayers;
      put({ hiddenLayers: hidden.includes(name) ? hidden.filter((l) => l !== name) : [...hidden, name].sort() });
    },
    showAllLayers: () => put({ hiddenLayers: [] }),
    focusViewer: (layout, bbox) => put({ viewerFocus: { layout, bbox, seq: ++focusSeq } }),
    async viewImage(input) {
      const key = JSON.stringify([input.layout, input.bbox ?? null, input.maxEdge, input.hiddenLayers]);
      const kept = pictures.get(key);
      if (kept) {
        pictures.delete(key);
        pictures.set(key, kept);
        return kept;
      }
      const result = await bridge.reviewViewImage(input);
      // Failures are not kept: the next look asks again.
      if (!result.ok) return { error: result.error };
      const { image, region } = result.value;
      const tile = { url: `data:${image.mimeType};base64,${image.dataBase64}`, widthPx: image.widthPx, heightPx: image.heightPx, region };
      pictures.set(key, tile);
      while (pictures.size > PICTURE_CAPACITY) pictures.delete(pictures.keys().next().value as string);
      return tile;
    },
    async pickAt(layout, bbox) {
      const result = await bridge.reviewPickEntities({ layout, bbox });
      put({ inspected: result.ok ? result.value : { error: result.error } });
    },
    clearInspected: () => put({ inspected: null }),
    async loadCitedEntity(handle) {
      const key = handle.toUpperCase();
      if (get().citedEntities[key] || asking.has(key)) return;
      asking.add(key);
      try {
        const result = await bridge.reviewGetEntity({ handle });
        put({ citedEntities: { ...get().citedEntities, [key]: result.ok ? result.value : { error: result.error } } });
      } finally {
        asking.delete(key);
      }
    },
    resetViewer() {
      pictures.clear();
      put({ hiddenLayers: [], viewerFocus: null, inspected: null, citedEntities: {} });
    },
    forgetPictures: () => pictures.clear(),
  };
}
