import type { AppBridge } from '../../shared/ipc/channels';
import { createWsBridge } from './wsBridge';

const TOKEN_KEY = 'cadsight.sessionToken';

/**
 * The browser-mode session token: taken from `?token=` once (then removed from the address bar)
 * and kept in this tab's sessionStorage for reloads. It is never put in a cookie, because
 * cookies reach every port on 127.0.0.1.
 */
export function takeSessionToken(win: Window): string | null {
  const params = new URLSearchParams(win.location.search);
  const fromUrl = params.get('token');
  if (fromUrl) {
    win.sessionStorage.setItem(TOKEN_KEY, fromUrl);
    params.delete('token');
    const query = params.toString();
    win.history.replaceState(win.history.state, '', `${win.location.pathname}${query ? `?${query}` : ''}${win.location.hash}`);
    return fromUrl;
  }
  return win.sessionStorage.getItem(TOKEN_KEY);
}

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
  return createWsBridge(wsUrl, takeSessionToken(win) ?? '');
}
