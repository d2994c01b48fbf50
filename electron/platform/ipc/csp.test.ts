import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { contentSecurityPolicy, withMetaConnectOrigin } from './csp';

const directive = (policy: string, name: string): string[] =>
  policy
    .split(';')
    .map((part) => part.trim().split(/\s+/))
    .find(([key]) => key === name)
    ?.slice(1) ?? [];

const metaPolicy = (): string => {
  const html = readFileSync(new URL('../../../renderer/index.html', import.meta.url), 'utf8');
  const match = /http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(html);
  if (!match?.[1]) throw new Error('renderer/index.html has no CSP meta tag');
  return match[1];
};

describe('content security policy', () => {
  it('lets the desktop renderer connect to its own origin only', () => {
    expect(directive(contentSecurityPolicy(), 'connect-src')).toEqual(["'self'"]);
  });

  it('adds exactly the one WebSocket origin of browser mode, never a port wildcard', () => {
    expect(directive(contentSecurityPolicy({ connectOrigin: 'ws://127.0.0.1:43817' }), 'connect-src')).toEqual(["'self'", 'ws://127.0.0.1:43817']);
  });

  it('gives the page meta tag (which applies even where no header is set) no wider connect-src than the desktop policy', () => {
    expect(directive(metaPolicy(), 'connect-src')).toEqual(["'self'"]);
    for (const name of ['default-src', 'script-src', 'style-src', 'object-src', 'base-uri']) {
      expect(directive(metaPolicy(), name), name).toEqual(directive(contentSecurityPolicy(), name));
    }
  });

  it('adds browser mode\'s one socket origin to the served page\'s meta tag and nothing else', () => {
    const html = readFileSync(new URL('../../../renderer/index.html', import.meta.url), 'utf8');
    const served = withMetaConnectOrigin(html, 'ws://127.0.0.1:43817');
    const meta = /http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(served)![1]!;
    expect(directive(meta, 'connect-src')).toEqual(["'self'", 'ws://127.0.0.1:43817']);
    expect(served.replace(" ws://127.0.0.1:43817", '')).toBe(html);
  });
});
