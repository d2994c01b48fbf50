import { createStore, type StoreApi } from 'zustand/vanilla';
import type { AppBridge } from '../../shared/ipc/channels';
import type { Locale } from '../i18n/messages';
import { createCadgenSlice, type CadgenSlice } from './cadgenSlice';
import { createGenerationSlice, type GenerationSlice } from './generationSlice';
import { createSettingsSlice, type SettingsSlice } from './settingsSlice';
import { createReviewSlice, type ReviewSlice } from './reviewSlice';
import { createReviewSetSlice, type ReviewSetSlice } from './reviewSetSlice';
import { createReviewViewerSlice, type ReviewViewerSlice } from './reviewViewerSlice';
import { createShellSlice, type ShellSlice } from './shellSlice';
import { withStorageFullBanner } from './storageFullBanner';
import { createVisionSlice, type VisionSlice } from './visionSlice';

/** The one renderer store, composed of typed slices (each feature view adds its slice here). */
export type AppState = ShellSlice & SettingsSlice & CadgenSlice & GenerationSlice & ReviewSlice & ReviewSetSlice & ReviewViewerSlice & VisionSlice;

export type AppStore = StoreApi<AppState>;

/** Creates the store around an injected bridge (no module-level singleton: tests make their own). */
export function createAppStore(bridge: AppBridge, initialLocale: Locale): AppStore {
  return createStore<AppState>()((set, get) => {
    const context = { set, get, bridge: withStorageFullBanner(bridge, (error) => get().reportError(error)) };
    return {
      ...createShellSlice(context, initialLocale),
      ...createSettingsSlice(context),
      ...createCadgenSlice(context),
      ...createGenerationSlice(context),
      ...createReviewSlice(context),
      ...createReviewSetSlice(context),
      ...createReviewViewerSlice(context),
      ...createVisionSlice(context),
    };
  });
}
