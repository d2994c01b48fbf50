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
