import { describe, expect, it } from 'vitest';
import type { WebContents } from 'electron';
import { isAppUrl, isTrustedSender } from './hardening';

const contents = {} as WebContents;
const other = {} as WebContents;
const frame = (url: string, parent: unknown = null) => ({ url, parent });

describe('isTrustedSender', () => {
  it('does not rely on URL.origin, which Node reports as "null" for app:// URLs', () => {
    expect(new URL('app://cadsight/index.html').origin).toBe('null');
    expect(isAppUrl('app://cadsight/index.html')).toBe(true);
    expect(isTrustedSender(frame('app://cadsight/index.html#/review'), contents, contents)).toBe(true);
  });

  it('refuses other hosts, schemes, credentials, ports, sub-frames and other windows', () => {
    for (const url of ['app://cadsight.evil/x', 'app://evil/cadsight/', 'app://cadsight@evil/', 'app://user:pw@cadsight/', 'app://cadsight:8080/', 'https://cadsight/', 'file:///app/cadsight/index.html', 'null', '', 'app:cadsight/x']) {
      expect(isTrustedSender(frame(url), contents, contents), url).toBe(false);
    }
    expect(isTrustedSender(frame('app://cadsight/index.html', {}), contents, contents)).toBe(false);
    expect(isTrustedSender(frame('app://cadsight/index.html'), contents, other)).toBe(false);
    expect(isTrustedSender(null, contents, contents)).toBe(false);
  });
});
