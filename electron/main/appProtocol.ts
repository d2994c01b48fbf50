import { protocol } from 'electron';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { contentSecurityPolicy } from '../platform/ipc/csp';
import { APP_SCHEME } from './hardening';

const MIME: Record<string, string> = {
  '.html': 'text/html',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.json': 'application/json',
  '.wasm': 'application/wasm',
  '.woff2': 'font/woff2',
};

/** Must run before `app.ready`: app:// is a standard, secure origin. */
export function registerAppScheme(): void {
  protocol.registerSchemesAsPrivileged([{ scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } }]);
}

/** Serves the built renderer from `root`, refusing anything outside it. */
export function serveRenderer(root: string): void {
  const base = path.resolve(root);
  protocol.handle(APP_SCHEME, async (request) => {
    const url = new URL(request.url);
    const relative = decodeURIComponent(url.pathname === '/' ? '/index.html' : url.pathname);
    const file = path.resolve(base, `.${relative}`);
    if (url.host !== 'cadsight' || !file.startsWith(base + path.sep)) return new Response('Not found', { status: 404 });
    try {
      const body = await readFile(file);
      const headers: Record<string, string> = { 'content-type': MIME[path.extname(file)] ?? 'application/octet-stream' };
      // Set here as well as by enforceCsp: webRequest does not see every custom-protocol response.
      if (file.endsWith('.html')) headers['content-security-policy'] = contentSecurityPolicy();
      return new Response(body, { headers });
    } catch {
      return new Response('Not found', { status: 404 });
    }
  });
}
