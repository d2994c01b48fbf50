import { beforeEach, describe, expect, it } from 'vitest';
import { takeSessionToken } from './resolveBridge';

beforeEach(() => {
  window.sessionStorage.clear();
  window.history.replaceState(null, '', '/');
});

describe('takeSessionToken', () => {
  it('takes the token from the URL once, removes it from the address bar and keeps it for reloads', () => {
    window.history.replaceState(null, '', '/?token=abc123&lang=zh#review');
    expect(takeSessionToken(window)).toBe('abc123');
    expect(window.location.search).toBe('?lang=zh');
    expect(window.location.hash).toBe('#review');
    expect(document.cookie).not.toContain('abc123');
    expect(takeSessionToken(window)).toBe('abc123');
  });

  it('prefers a new token in the URL over the stored one (the host was restarted)', () => {
    window.history.replaceState(null, '', '/?token=first');
    takeSessionToken(window);
    window.history.replaceState(null, '', '/?token=second');
    expect(takeSessionToken(window)).toBe('second');
  });

  it('returns null when there is no token anywhere', () => {
    expect(takeSessionToken(window)).toBeNull();
  });
});
