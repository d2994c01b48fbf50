import { describe, expect, it } from 'vitest';
import type { AppBridge } from '../../shared/ipc/channels';
import { createAppStore } from './appStore';

const error = { code: 'IPC_DISCONNECTED', message: 'Lost the connection.', retryable: true };

describe('error banner state', () => {
  it('shows one entry for the same failure reported by several views', () => {
    const store = createAppStore({ on: () => () => undefined } as unknown as AppBridge, 'en');
    store.getState().reportError(error);
    store.getState().reportError(error);
    store.getState().reportError({ ...error, code: 'CAD_DISCONNECTED' });
    expect(store.getState().banner.map((b) => b.error.code)).toEqual(['IPC_DISCONNECTED', 'CAD_DISCONNECTED']);
  });

  it('keeps only the five most recent distinct errors', () => {
    const store = createAppStore({ on: () => () => undefined } as unknown as AppBridge, 'en');
    for (let i = 0; i < 8; i++) store.getState().reportError({ ...error, code: `E_${i}` });
    expect(store.getState().banner.map((b) => b.error.code)).toEqual(['E_3', 'E_4', 'E_5', 'E_6', 'E_7']);
  });

  it('keeps an error with the view that raised it, except a lost host connection, which concerns every view', () => {
    const store = createAppStore({ on: () => () => undefined } as unknown as AppBridge, 'en');
    store.getState().navigate('review');
    store.getState().reportError({ ...error, code: 'CAD_DWG_UNSUPPORTED' }, 'error', { action: 'banner.action.openDrawing' });
    store.getState().reportError(error);
    store.getState().navigate('images');
    store.getState().reportError({ ...error, code: 'VISION_X' });
    expect(store.getState().banner.map((b) => [b.error.code, b.view, b.action])).toEqual([
      ['CAD_DWG_UNSUPPORTED', 'review', 'banner.action.openDrawing'],
      ['IPC_DISCONNECTED', null, null],
      ['VISION_X', 'images', null],
    ]);
  });
});
