import type { Session, WebContents } from 'electron';
import { contentSecurityPolicy } from '../platform/ipc/csp';

/** The app's own origin: the renderer is served from app://cadsight/ (never file://). */
export const APP_SCHEME = 'app';
export const APP_ORIGIN = 'app://cadsight';

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
    if (!url.startsWith(`${APP_ORIGIN}/`)) event.preventDefault();
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
  try {
    return new URL(frame.url).origin === APP_ORIGIN || frame.url.startsWith(`${APP_ORIGIN}/`);
  } catch {
    return false;
  }
}
