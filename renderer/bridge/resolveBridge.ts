import type { AppBridge } from '../../shared/ipc/channels';
import { createWsBridge } from './wsBridge';

declare global {
  interface Window {
    /** Exposed by the Electron preload; absent in browser mode. */
    cadsight?: AppBridge;
  }
}

/** Picks the transport once at start; the rest of the renderer only sees AppBridge. */
export function resolveBridge(win: Window): AppBridge {
  if (win.cadsight) return win.cadsight;
  const wsUrl = `${win.location.protocol === 'https:' ? 'wss' : 'ws'}://${win.location.host}/ipc`;
  return createWsBridge(wsUrl);
}
