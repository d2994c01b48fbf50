import type { AppErrorData, Result } from '../../shared/errors';
import { ipcChannels, type AppBridge } from '../../shared/ipc/channels';

/**
 * The bridge the slices use, seen through one check: any call answered with STORAGE_FULL also goes
 * to the banner, also from a view that shows its errors inline, so a full disk is always said at
 * the top (once: the banner merges repeats).
 */
export function withStorageFullBanner(bridge: AppBridge, report: (error: AppErrorData) => void): AppBridge {
  return new Proxy(bridge, {
    get(target, name, receiver) {
      const value: unknown = Reflect.get(target, name, receiver);
      // Only IPC channels answer a Result; `on` and desktop-only helpers (pathForFile) pass through.
      if (typeof name !== 'string' || !(name in ipcChannels) || typeof value !== 'function') return value;
      return async (...args: unknown[]) => {
        const result = (await (value as (...a: unknown[]) => Promise<Result<unknown>>).apply(target, args)) as Result<unknown>;
        if (result && result.ok === false && result.error.code === 'STORAGE_FULL') report(result.error);
        return result;
      };
    },
  });
}
