import { describe, expect, it } from 'vitest';
import type { AppErrorData } from '../../shared/errors';
import type { AppBridge } from '../../shared/ipc/channels';
import { withStorageFullBanner } from './storageFullBanner';

const full: AppErrorData = { code: 'STORAGE_FULL', message: 'full', retryable: true, data: { folder: '/d', neededBytes: 4096 } };

describe('storage-full banner hook on the bridge', () => {
  it('reports every STORAGE_FULL answer once per call and passes every answer through unchanged', async () => {
    const reported: AppErrorData[] = [];
    const unsubscribe = () => undefined;
    const bridge = {
      reviewSetCreate: async () => ({ ok: false, error: full }),
      getSettings: async () => ({ ok: false, error: { code: 'SETTINGS_TOO_NEW', message: 'x', retryable: false } }),
      getAppInfo: async () => ({ ok: true, value: { version: '1' } }),
      on: () => unsubscribe,
    } as unknown as AppBridge;
    const wrapped = withStorageFullBanner(bridge, (error) => reported.push(error));
    expect(await wrapped.reviewSetCreate({ name: 'n' })).toEqual({ ok: false, error: full });
    expect(await wrapped.getSettings({})).toMatchObject({ ok: false, error: { code: 'SETTINGS_TOO_NEW' } });
    expect(await wrapped.getAppInfo({})).toMatchObject({ ok: true });
    expect(wrapped.on('reviewSetStatus' as never, () => undefined)).toBe(unsubscribe);
    expect(reported).toEqual([full]);
  });
});
