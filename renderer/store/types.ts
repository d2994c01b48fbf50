import type { AppErrorData } from '../../shared/errors';
import type { AppBridge } from '../../shared/ipc/channels';

export type ViewId = 'images' | 'review' | 'generate' | 'settings';

/** Everything a slice creator receives: zustand's set/get plus the injected bridge. */
export interface SliceContext<S> {
  set: (partial: Partial<S> | ((state: S) => Partial<S>)) => void;
  get: () => S;
  bridge: AppBridge;
}

/**
 * A banner entry: a typed error (or notice) shown at the top until dismissed. `view` is the view
 * whose action raised it (shown only there, so it does not follow the user elsewhere); null for
 * app-wide notices (start-up, lost connection) shown everywhere. `action` names what the user was
 * doing, as a catalog key (`banner.action.*`).
 */
export interface BannerEntry {
  id: number;
  level: 'info' | 'warning' | 'error';
  error: AppErrorData;
  view: ViewId | null;
  action: string | null;
}

/** Where a reported error belongs: the view (defaults to the one on screen) and the user's action. */
export interface BannerScope {
  view?: ViewId | null;
  action?: string;
}
