import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { backoffDelayMs, validateBackoff } from './backoff';
import { formatEndpoint, parseEndpoint } from './cadErrors';

describe('endpoints', () => {
  it('round-trips any host name, IPv4 or IPv6 address and valid port through format and parse', () => {
    const hostArb = fc.oneof(fc.domain(), fc.ipV4(), fc.ipV6());
    fc.assert(
      fc.property(hostArb, fc.integer({ min: 1, max: 65535 }), (host, port) => {
        expect(parseEndpoint(formatEndpoint({ host, port }))).toEqual({ host, port });
      }),
    );
  });

  it('refuses text that is not host:port with CAD_BAD_ENDPOINT, never anything else', () => {
    for (const text of ['localhost', '127.0.0.1:', ':8080', '127.0.0.1:0', '127.0.0.1:65536', 'a b:1', '::1:8080', 'host:80x']) {
      expect(() => parseEndpoint(text)).toThrow(expect.objectContaining({ code: 'CAD_BAD_ENDPOINT' }));
    }
    fc.assert(
      fc.property(fc.string(), (text) => {
        try {
          const endpoint = parseEndpoint(text);
          expect(endpoint.port).toBeGreaterThanOrEqual(1);
        } catch (error) {
          expect(error).toMatchObject({ code: 'CAD_BAD_ENDPOINT' });
        }
      }),
    );
  });
});

describe('backoff', () => {
  it('stays within [ (1 - jitter) * ceiling, ceiling ] and never exceeds maxMs', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 5000 }), fc.integer({ min: 0, max: 60_000 }), fc.double({ min: 0, max: 1, noNaN: true }), fc.nat(200), fc.double({ min: 0, max: 0.9999, noNaN: true }), (baseMs, extra, jitter, attempt, random) => {
        const options = { baseMs, maxMs: baseMs + extra, jitter };
        const ceiling = Math.min(options.maxMs, baseMs * 2 ** attempt);
        const delay = backoffDelayMs(attempt, options, () => random);
        expect(delay).toBeLessThanOrEqual(options.maxMs);
        expect(delay).toBeGreaterThanOrEqual(Math.floor(ceiling * (1 - jitter)));
      }),
    );
  });

  it('refuses impossible settings', () => {
    expect(() => validateBackoff({ baseMs: 0, maxMs: 10, jitter: 0 })).toThrow(expect.objectContaining({ code: 'CAD_CONFIG_INVALID' }));
    expect(() => validateBackoff({ baseMs: 10, maxMs: 5, jitter: 0 })).toThrow(expect.objectContaining({ code: 'CAD_CONFIG_INVALID' }));
    expect(() => validateBackoff({ baseMs: 10, maxMs: 50, jitter: 2 })).toThrow(expect.objectContaining({ code: 'CAD_CONFIG_INVALID' }));
  });
});
