import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addressPolicy, checkUrl, isNonPublicAddress, parseIp } from './urlPolicy';

const strict = addressPolicy(false);
const blocked = (url: string) => {
  try {
    checkUrl(url, strict);
    return false;
  } catch (error) {
    expect((error as { code: string }).code).toBe('VISION_URL_BLOCKED');
    return true;
  }
};

describe('checkUrl', () => {
  it('refuses every spelling of loopback, private and link-local hosts', () => {
    for (const host of ['127.0.0.1', '127.1', '0x7f000001', '2130706433', '0177.0.0.1', '[::1]', '[::ffff:127.0.0.1]', '[::ffff:7f00:1]', 'localhost', 'localhost.', 'a.localhost', '0.0.0.0', '10.1.2.3', '192.168.0.10', '172.16.5.4', '169.254.169.254', '[fe80::1]', '[fd00::1]', '100.64.0.1', '[64:ff9b::7f00:1]', '[2002:7f00:1::]']) {
      expect(blocked(`http://${host}:8080/x.png`), host).toBe(true);
    }
  });

  it('allows public hosts, and private ones only when asked to', () => {
    expect(blocked('https://example.com/a.png')).toBe(false);
    expect(blocked('http://8.8.8.8/a.png')).toBe(false);
    expect(blocked('http://[2606:4700::1111]/a.png')).toBe(false);
    expect(checkUrl('http://127.0.0.1/a.png', addressPolicy(true)).hostname).toBe('127.0.0.1');
  });

  it('refuses non-http schemes', () => {
    expect(blocked('ftp://example.com/a.png')).toBe(true);
    expect(blocked('file:///etc/passwd')).toBe(true);
  });

  it('refuses any IPv4 literal in 127.0.0.0/8 whatever its numeric spelling', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 0xffffff }), fc.constantFrom('dotted', 'decimal', 'hex'), (low, spelling) => {
        const value = 0x7f000000 + low;
        const host = spelling === 'decimal' ? String(value) : spelling === 'hex' ? `0x${value.toString(16)}` : [value >>> 24, (value >> 16) & 255, (value >> 8) & 255, value & 255].join('.');
        expect(blocked(`http://${host}/`)).toBe(true);
      }),
    );
  });
});

describe('parseIp and isNonPublicAddress', () => {
  it('agree for IPv4 and its IPv6-mapped form', () => {
    fc.assert(
      fc.property(fc.ipV4(), (ip) => {
        const v4 = parseIp(ip)!;
        const mapped = parseIp(`::ffff:${ip}`)!;
        expect(mapped.family).toBe(6);
        expect(isNonPublicAddress(mapped)).toBe(isNonPublicAddress(v4));
      }),
    );
  });

  it('parse every valid IPv6 literal to 16 bytes', () => {
    fc.assert(
      fc.property(fc.ipV6(), (ip) => {
        const parsed = parseIp(ip);
        expect(parsed?.family).toBe(6);
        expect(parsed?.bytes).toHaveLength(16);
      }),
    );
  });
});
