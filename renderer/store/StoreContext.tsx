import { createContext, useContext, type ReactNode } from 'react';
import { useStore } from 'zustand';
import type { AppState, AppStore } from './appStore';
import { formatMessage, type MessageKey } from '../i18n/messages';

const StoreContext = createContext<AppStore | null>(null);

export function StoreProvider({ store, children }: { store: AppStore; children: ReactNode }) {
  return <StoreContext.Provider value={store}>{children}</StoreContext.Provider>;
}

/** Selects from the app store provided by the nearest StoreProvider. */
export function useApp<T>(selector: (state: AppState) => T): T {
  const store = useContext(StoreContext);
  if (!store) throw new Error('useApp must be used inside <StoreProvider>');
  return useStore(store, selector);
}

/** The translation function for the current locale. */
export function useT(): (key: MessageKey, params?: Record<string, string | number>) => string {
  const locale = useApp((s) => s.locale);
  return (key, params) => formatMessage(locale, key, params);
}
