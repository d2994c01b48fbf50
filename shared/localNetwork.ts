/**
 * Which hosts count as this machine or a private network. Shared by the main process (which
 * refuses unconfirmed local base URLs) and the renderer (which asks for the confirmation).
 */

function ipv4(host: string): number[] | null {
  const parts = host.split('.');
  if (parts.length !== 4 || parts.some((p) => !/^\d{1,3}$/.test(p))) return null;
  const bytes = parts.map(Number);
  return bytes.every((b) => b <= 255) ? bytes : null;
}

/**
 * True for a host on this machine or a private network, as WHATWG URL normalises it (`127.1`,
 * `0x7f.1` and `2130706433` all become 127.0.0.1; IPv6 comes bracketed). Names are judged as
 * written: `localhost` and `*.localhost`, plus the literal private ranges.
 */
export function isLocalNetworkHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/^\[|\]$/g, '');
  if (host === 'localhost' || host.endsWith('.localhost') || host === '') return true;
  const v4 = ipv4(host) ?? (host.startsWith('::ffff:') ? ipv4(host.slice(7)) : null);
  if (v4) {
    const [a, b] = v4 as [number, number, number, number];
    return a === 0 || a === 10 || a === 127 || (a === 169 && b === 254) || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 100 && b >= 64 && b <= 127);
  }
  if (host.includes(':')) return host === '::' || host === '::1' || /^f[cd]/.test(host) || /^fe[89ab]/.test(host) || host.startsWith('::ffff:');
  return false;
}


/** True for a name or literal that always means this machine: 127.x.y.z, localhost, ::1. */
export function isLoopbackHost(host: string): boolean {
  return /^(127(\.\d{1,3}){3}|localhost|::1|\[::1\])$/i.test(host);
}

/** Cloud metadata services reached by name (every spelling is lower-cased and loses trailing dots first). */
const METADATA_NAMES: ReadonlySet<string> = new Set([
  'metadata',
  'metadata.google.internal',
  'metadata.goog',
  'metadata.azure.com',
  'metadata.azure.internal',
  'instance-data',
  'instance-data.ec2.internal',
  'metadata.tencentyun.com',
  'metadata.platformequinix.com',
]);

/** Metadata services on addresses outside 169.254/16: Alibaba Cloud (100.100.100.200). */
const METADATA_V4 = ['100.100.100.200'];

/** The eight 16-bit groups of an IPv6 literal (URL-normalised or not), or null. */
function ipv6Groups(host: string): number[] | null {
  if (!host.includes(':')) return null;
  let text = host.replace(/%.*$/, '');
  const tailV4 = /(\d{1,3}(?:\.\d{1,3}){3})$/.exec(text);
  if (tailV4) {
    const bytes = ipv4(tailV4[1] as string);
    if (!bytes) return null;
    const [a, b, c, d] = bytes as [number, number, number, number];
    text = `${text.slice(0, -(tailV4[1] as string).length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return null;
  const parse = (part: string): number[] | null => {
    if (part === '') return [];
    const groups = part.split(':');
    return groups.every((g) => /^[0-9a-f]{1,4}$/i.test(g)) ? groups.map((g) => parseInt(g, 16)) : null;
  };
  const head = parse(halves[0] as string);
  const tail = halves.length === 2 ? parse(halves[1] as string) : [];
  if (!head || !tail) return null;
  const missing = 8 - head.length - tail.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return null;
  return [...head, ...new Array<number>(halves.length === 2 ? missing : 0).fill(0), ...tail];
}

function isLinkLocalOrMetadataV4(bytes: readonly number[]): boolean {
  return (bytes[0] === 169 && bytes[1] === 254) || METADATA_V4.includes(bytes.join('.'));
}

/**
 * True for a link-local address (169.254.0.0/16, fe80::/10) or a cloud metadata service (by
 * address or name), in every spelling a URL or a resolver may give: decimal/hex/octal IPv4 (as
 * WHATWG URL normalises them), IPv4-mapped, -compatible, NAT64 and 6to4 IPv6, brackets, zone ids,
 * trailing dots. No model provider lives there, and a reply from there may carry cloud credentials.
 */
export function isLinkLocalOrMetadataHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/^\[|\]$/g, '').replace(/\.+$/, '');
  if (METADATA_NAMES.has(host)) return true;
  const v4 = ipv4(host);
  if (v4) return isLinkLocalOrMetadataV4(v4);
  const groups = ipv6Groups(host);
  if (!groups) return false;
  const g = groups as [number, number, number, number, number, number, number, number];
  if ((g[0] & 0xffc0) === 0xfe80) return true;
  // AWS's IPv6 metadata endpoint fd00:ec2::254.
  if (g[0] === 0xfd00 && g[1] === 0x0ec2 && g.slice(2, 7).every((x) => x === 0) && g[7] === 0x254) return true;
  const embedded = (high: number, low: number): number[] => [high >> 8, high & 0xff, low >> 8, low & 0xff];
  const zeros = (from: number, to: number): boolean => g.slice(from, to).every((x) => x === 0);
  // ::ffff:a.b.c.d (mapped), ::a.b.c.d (compatible), 64:ff9b::a.b.c.d (NAT64), 2002:aabb:ccdd:: (6to4).
  if (zeros(0, 5) && (g[5] === 0xffff || g[5] === 0) && isLinkLocalOrMetadataV4(embedded(g[6], g[7]))) return true;
  if (g[0] === 0x64 && g[1] === 0xff9b && zeros(2, 6) && isLinkLocalOrMetadataV4(embedded(g[6], g[7]))) return true;
  return g[0] === 0x2002 && isLinkLocalOrMetadataV4(embedded(g[1], g[2]));
}
