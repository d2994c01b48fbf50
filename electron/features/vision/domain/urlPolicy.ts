import { visionError } from './errors';

/** Parsed IP address: 4 or 16 bytes. */
export interface IpAddress {
  family: 4 | 6;
  bytes: number[];
}

/** Parses a canonical dotted IPv4 or an IPv6 literal (brackets allowed); undefined otherwise. */
export function parseIp(text: string): IpAddress | undefined {
  const host = text.startsWith('[') && text.endsWith(']') ? text.slice(1, -1) : text;
  const v4 = parseIpv4(host);
  if (v4) return { family: 4, bytes: v4 };
  const v6 = parseIpv6(host.split('%')[0] ?? '');
  return v6 ? { family: 6, bytes: v6 } : undefined;
}

function parseIpv4(text: string): number[] | undefined {
  const parts = text.split('.');
  if (parts.length !== 4) return undefined;
  const bytes = parts.map((part) => (/^(0|[1-9][0-9]{0,2})$/.test(part) ? Number(part) : NaN));
  return bytes.every((b) => b >= 0 && b <= 255) ? bytes : undefined;
}

function parseIpv6(text: string): number[] | undefined {
  if (!/^[0-9a-fA-F:.]+$/.test(text) || !text.includes(':')) return undefined;
  const halves = text.split('::');
  if (halves.length > 2) return undefined;
  const groups = (half: string): number[] | undefined => {
    if (half === '') return [];
    const out: number[] = [];
    const pieces = half.split(':');
    for (let i = 0; i < pieces.length; i++) {
      const piece = pieces[i]!;
      if (i === pieces.length - 1 && piece.includes('.')) {
        const v4 = parseIpv4(piece);
        if (!v4) return undefined;
        out.push((v4[0]! << 8) | v4[1]!, (v4[2]! << 8) | v4[3]!);
      } else if (/^[0-9a-fA-F]{1,4}$/.test(piece)) out.push(parseInt(piece, 16));
      else return undefined;
    }
    return out;
  };
  const head = groups(halves[0]!);
  const tail = halves.length === 2 ? groups(halves[1]!) : [];
  if (!head || !tail) return undefined;
  const missing = 8 - head.length - tail.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return undefined;
  const words = [...head, ...new Array<number>(missing).fill(0), ...tail];
  return words.flatMap((w) => [w >> 8, w & 0xff]);
}

function inV4(bytes: number[], prefix: number[], bits: number): boolean {
  for (let bit = 0; bit < bits; bit++) {
    const byte = bit >> 3;
    const mask = 0x80 >> (bit & 7);
    if ((bytes[byte]! & mask) !== (prefix[byte]! & mask)) return false;
  }
  return true;
}

/** IPv4 ranges that are not the public internet (RFC 6890 special-purpose, plus multicast/reserved). */
const BLOCKED_V4: Array<[number[], number]> = [
  [[0, 0, 0, 0], 8], [[10, 0, 0, 0], 8], [[100, 64, 0, 0], 10], [[127, 0, 0, 0], 8], [[169, 254, 0, 0], 16],
  [[172, 16, 0, 0], 12], [[192, 0, 0, 0], 24], [[192, 168, 0, 0], 16], [[198, 18, 0, 0], 15], [[224, 0, 0, 0], 4], [[240, 0, 0, 0], 4],
];

/**
 * True when an address is loopback, private, link-local, CGNAT, multicast or reserved,
 * including IPv4 embedded in IPv6 (mapped ::ffff:a.b.c.d, NAT64 64:ff9b::/96, 6to4 2002::/16).
 */
export function isNonPublicAddress(ip: IpAddress): boolean {
  if (ip.family === 4) return BLOCKED_V4.some(([prefix, bits]) => inV4(ip.bytes, prefix, bits));
  const b = ip.bytes;
  const zeroUpTo = (n: number) => b.slice(0, n).every((x) => x === 0);
  if (zeroUpTo(15) && (b[15] === 0 || b[15] === 1)) return true; // :: and ::1
  if (zeroUpTo(10) && b[10] === 0xff && b[11] === 0xff) return isNonPublicAddress({ family: 4, bytes: b.slice(12) });
  if (zeroUpTo(12)) return isNonPublicAddress({ family: 4, bytes: b.slice(12) }); // deprecated IPv4-compatible
  if (b[0] === 0x00 && b[1] === 0x64 && b[2] === 0xff && b[3] === 0x9b && b.slice(4, 12).every((x) => x === 0)) {
    return isNonPublicAddress({ family: 4, bytes: b.slice(12) });
  }
  if (b[0] === 0x20 && b[1] === 0x02) return isNonPublicAddress({ family: 4, bytes: b.slice(2, 6) });
  if ((b[0]! & 0xfe) === 0xfc) return true; // unique local fc00::/7
  if (b[0] === 0xfe && (b[1]! & 0xc0) === 0x80) return true; // link-local fe80::/10
  if (b[0] === 0xfe && (b[1]! & 0xc0) === 0xc0) return true; // site-local fec0::/10 (deprecated)
  if (b[0] === 0xff) return true; // multicast
  if (b[0] === 0x20 && b[1] === 0x01 && b[2] === 0x0d && b[3] === 0xb8) return true; // documentation
  return false;
}

/** Decides whether the fetcher may connect to an address. */
export type AddressPolicy = (ip: IpAddress) => boolean;

/** The default policy: public addresses only, unless private targets are explicitly allowed. */
export const addressPolicy = (allowPrivate: boolean): AddressPolicy => (ip) => allowPrivate || !isNonPublicAddress(ip);

const LOOPBACK_PROBE: IpAddress = { family: 4, bytes: [127, 0, 0, 1] };

/**
 * Checks a URL before anything is fetched: http(s) only; "localhost" names are refused when
 * the policy refuses loopback; literal IP hosts (the WHATWG parser already turns 127.1,
 * 0x7f000001 and 2130706433 into 127.0.0.1) must pass the policy. Host names are checked again
 * after DNS resolution by the fetcher. Errors: VISION_URL_BLOCKED (scheme, loopback name,
 * refused literal address), VISION_SOURCE_INVALID (not a URL).
 */
export function checkUrl(raw: string, allowAddress: AddressPolicy): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw visionError('VISION_SOURCE_INVALID', 'The URL cannot be parsed.');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw visionError('VISION_URL_BLOCKED', `Only http and https URLs are fetched (got ${url.protocol}).`, { reason: 'scheme' });
  }
  const host = url.hostname.toLowerCase().replace(/\.+$/, '');
  if ((host === 'localhost' || host.endsWith('.localhost') || host === '') && !allowAddress(LOOPBACK_PROBE)) {
    throw visionError('VISION_URL_BLOCKED', 'URLs pointing at localhost are refused.', { reason: 'loopback-name' });
  }
  const ip = parseIp(host);
  if (ip && !allowAddress(ip)) {
    throw visionError('VISION_URL_BLOCKED', 'URLs pointing at loopback, private or link-local addresses are refused.', { reason: 'private-address' });
  }
  return url;
}
