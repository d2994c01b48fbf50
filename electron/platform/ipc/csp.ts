/**
 * The renderer's Content-Security-Policy: no inline scripts or styles, no eval, no remote
 * content. The desktop app talks to the main process over Electron IPC only, so it may connect
 * to its own origin and nothing else; `connectOrigin` adds browser mode's one WebSocket origin
 * (`ws://127.0.0.1:<its port>`). renderer/index.html carries the same policy as a meta tag.
 */
export function contentSecurityPolicy(options: { connectOrigin?: string } = {}): string {
  const connect = ["'self'", options.connectOrigin].filter(Boolean).join(' ');
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    `connect-src ${connect}`,
    "worker-src 'self' blob:",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
    "object-src 'none'",
  ].join('; ');
}

/**
 * The page with `origin` added to the connect-src of its CSP meta tag (which says `'self'` only,
 * the desktop policy): browser mode serves the same index.html and needs its one WebSocket origin
 * in both policies, since a browser enforces every policy of a page.
 */
export function withMetaConnectOrigin(html: string, origin: string): string {
  return html.replace(/(<meta http-equiv="Content-Security-Policy" content="[^"]*connect-src 'self')(;)/, `$1 ${origin}$2`);
}
