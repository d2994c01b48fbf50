import type { AppErrorData } from '../../shared/errors';
import type { AppBridge } from '../../shared/ipc/channels';

export type ViewId = 'images' | 'review' | 'generate' | 'settings';

/** Everything a slice creator receives: zustand's set/get plus the injected bridge. */
export interface SliceContext<S> {
  set: (partial: Partial<S> | ((state: S) => Partial<S>)) => void;
  get: () => S;
  bridge: AppBridge;
}

/** A banner entry: a typed error (or notice) shown at the top until dismissed. */
export interface BannerEntry {
  id: number;
  level: 'info' | 'warning' | 'error';
  error: AppErrorData;
}
