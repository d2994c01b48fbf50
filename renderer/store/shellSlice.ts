import type { AppErrorData, Result } from '../../shared/errors';
import type { z } from 'zod';
import type { appInfoSchema } from '../../shared/ipc/contracts/platform';
import type { Locale } from '../i18n/messages';
import type { BannerEntry, BannerScope, SliceContext, ViewId } from './types';

export type AppInfo = z.output<typeof appInfoSchema>;

/** Navigation, language, app info and the error banner. */
export interface ShellSlice {
  view: ViewId;
  locale: Locale;
  appInfo: AppInfo | null;
  banner: BannerEntry[];
  navigate(view: ViewId): void;
  setLocaleLocal(locale: Locale): void;
  loadAppInfo(): Promise<void>;
  /**
   * Shows a typed error in the banner of the view that raised it (`scope.view`, default the view
   * on screen; null = every view), with the user's action when given.
   */
  reportError(error: AppErrorData, level?: BannerEntry['level'], scope?: BannerScope): void;
  dismiss(id: number): void;
  /** Unwraps a bridge Result: the value, or undefined after reporting the error to the banner. */
  unwrap<T>(result: Result<T>): T | undefined;
}

export function createShellSlice<S extends ShellSlice>({ set, get, bridge }: SliceContext<S>, initialLocale: Locale): ShellSlice {
  let nextBannerId = 1;
  return {
    view: 'review',
    locale: initialLocale,
    appInfo: null,
    banner: [],
    navigate: (view) => set({ view } as Partial<S>),
    setLocaleLocal: (locale) => set({ locale } as Partial<S>),
    async loadAppInfo() {
      const info = get().unwrap(await bridge.getAppInfo({}));
      if (!info) return;
      set({ appInfo: info } as Partial<S>);
      for (const notice of info.startupNotices) get().reportError({ code: notice.code, message: notice.message, retryable: false }, 'warning', { view: null });
    },
    reportError(error, level = 'error', scope = {}) {
      // A lost connection to the host concerns every view, whoever noticed it first.
      const view = scope.view !== undefined ? scope.view : error.code === 'IPC_DISCONNECTED' ? null : get().view;
      // The same failure reported by several panels of one view (e.g. after a disconnect) is shown once.
      if (get().banner.some((b) => b.error.code === error.code && b.error.message === error.message && b.view === view)) return;
      const entry: BannerEntry = { id: nextBannerId++, level, error, view, action: scope.action ?? null };
      set((state) => ({ banner: [...state.banner.slice(-4), entry] }) as Partial<S>);
    },
    dismiss: (id) => set((state) => ({ banner: state.banner.filter((b) => b.id !== id) }) as Partial<S>),
    unwrap(result) {
      if (result.ok) return result.value;
      get().reportError(result.error);
      return undefined;
    },
  };
}
