/**
 * The renderer's Content-Security-Policy: no inline scripts or styles, no eval, no remote
 * content. `connectOrigin` adds the browser-mode WebSocket origin.
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
