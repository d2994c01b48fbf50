import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isLinkLocalOrMetadataHost, isLocalNetworkHost } from './localNetwork';

/** The host name a base URL ends up with after WHATWG URL parsing, as the policy sees it. */
const hostOf = (spelling: string): string => new URL(`http://${spelling}/v1`).hostname;
const hex = (n: number): string => n.toString(16);

/** Every way a base URL can name the IPv4 address a.b.c.d. */
function spellings([a, b, c, d]: [number, number, number, number]): string[] {
  const whole = ((a << 24) >>> 0) + (b << 16) + (c << 8) + d;
  return [
    `${a}.${b}.${c}.${d}`,
    `${a}.${b}.${c}.${d}.`,
    String(whole),
    `0x${hex(whole)}`,
    `0x${hex(a)}.0x${hex(b)}.0x${hex(c)}.0x${hex(d)}`,
    `0${a.toString(8)}.0${b.toString(8)}.${c}.${d}`,
    `${a}.${b}.${(c << 8) + d}`,
    `[::ffff:${a}.${b}.${c}.${d}]`,
    `[::ffff:${hex((a << 8) + b)}:${hex((c << 8) + d)}]`,
    `[0:0:0:0:0:ffff:${a}.${b}.${c}.${d}]`,
    `[64:ff9b::${a}.${b}.${c}.${d}]`,
    `[::${a}.${b}.${c}.${d}]`,
    `[2002:${hex((a << 8) + b)}:${hex((c << 8) + d)}::1]`,
  ];
}

const byte = fc.integer({ min: 0, max: 255 });

describe('link-local and cloud metadata hosts', () => {
  it('recognises every spelling of every 169.254.0.0/16 address', () => {
    fc.assert(
      fc.property(byte, byte, (c, d) => {
        for (const spelling of spellings([169, 254, c, d])) expect(isLinkLocalOrMetadataHost(hostOf(spelling)), spelling).toBe(true);
      }),
    );
  });

  it('recognises fe80::/10 however it is written, and the metadata services by name and address', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0xfe80, max: 0xfebf }), fc.integer({ min: 0, max: 0xffff }), (first, last) => {
        expect(isLinkLocalOrMetadataHost(hostOf(`[${hex(first)}::${hex(last)}]`))).toBe(true);
        expect(isLinkLocalOrMetadataHost(hostOf(`[${hex(first).toUpperCase()}:0:0:0:0:0:0:${hex(last)}]`))).toBe(true);
      }),
    );
    for (const host of ['metadata.google.internal', 'METADATA.google.internal.', 'metadata', 'metadata.goog', 'instance-data', 'metadata.tencentyun.com', '100.100.100.200', '[fd00:ec2::254]']) {
      expect(isLinkLocalOrMetadataHost(hostOf(host)), host).toBe(true);
    }
    expect(isLinkLocalOrMetadataHost('169.254.169.254')).toBe(true);
    expect(isLinkLocalOrMetadataHost('fe80::1%eth0')).toBe(true);
  });

  it('leaves loopback, private, public addresses and ordinary names alone', () => {
    fc.assert(
      fc.property(byte, byte, byte, byte, (a, b, c, d) => {
        fc.pre(!(a === 169 && b === 254) && `${a}.${b}.${c}.${d}` !== '100.100.100.200');
        for (const spelling of spellings([a, b, c, d])) expect(isLinkLocalOrMetadataHost(hostOf(spelling)), spelling).toBe(false);
      }),
    );
    for (const host of ['localhost', '127.0.0.1', '[::1]', '[fec0::1]', '[fc00::1]', 'api.openai.com', 'metadata.example.com', 'dashscope.aliyuncs.com']) {
      expect(isLinkLocalOrMetadataHost(hostOf(host)), host).toBe(false);
    }
    // Loopback stays what it was: local, but not link-local.
    expect(isLocalNetworkHost(hostOf('127.0.0.1'))).toBe(true);
  });
});
