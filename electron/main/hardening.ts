import type { Session, WebContents } from 'electron';
import { contentSecurityPolicy } from '../platform/ipc/csp';

/** The app's own origin: the renderer is served from app://cadsight/ (never file://). */
export const APP_SCHEME = 'app';
export const APP_ORIGIN = 'app://cadsight';

/**
 * True for a URL of the app's own origin. Parsed, not prefix-matched; and not via `URL.origin`,
 * which is the string "null" for app:// in Node's WHATWG URL (app is not a special scheme), so
 * comparing origins can never succeed and would leave only a prefix check standing.
 */
export function isAppUrl(value: string): boolean {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  return url.protocol === `${APP_SCHEME}:` && url.host === 'cadsight' && url.username === '' && url.password === '' && url.port === '';
}

/** Denies every permission request and check (camera, notifications, geolocation, ...). */
export function denyPermissions(session: Session): void {
  session.setPermissionRequestHandler((_webContents, _permission, callback) => callback(false));
  session.setPermissionCheckHandler(() => false);
  session.setDevicePermissionHandler(() => false);
}

/** Adds the strict CSP to every response the session serves. */
export function enforceCsp(session: Session): void {
  session.webRequest.onHeadersReceived((details, callback) => {
    callback({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [contentSecurityPolicy()] } });
  });
}

/** No navigation away from the app, no new windows, no <webview>. */
export function lockNavigation(contents: WebContents): void {
  contents.on('will-navigate', (event, url) => {
    if (!isAppUrl(url)) event.preventDefault();
  });
  contents.on('will-redirect', (event) => event.preventDefault());
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(() => ({ action: 'deny' }));
}

/**
 * IPC sender check: only the main frame of our own window, loaded from the app origin,
 * may call a channel.
 */
export function isTrustedSender(frame: { url: string; parent: unknown } | null, expected: WebContents, sender: WebContents): boolean {
  if (!frame || frame.parent !== null || sender !== expected) return false;
  return isAppUrl(frame.url);
}
