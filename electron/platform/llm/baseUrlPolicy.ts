import { AppError } from '../../../shared/errors';
import type { ProviderPreset } from './presets';

/** Presets whose private base URL needs no test-time refusal: Ollama is local by design, Custom is judged by assertConfirmedLocalBaseUrl. */
const LOCAL_PRESETS: ReadonlySet<ProviderPreset['id']> = new Set(['ollama', 'custom']);

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

const hostOf = (baseUrl: string): string | null => {
  try {
    return new URL(baseUrl).hostname;
  } catch {
    return null; // settings validation already refuses unparsable URLs
  }
};

/**
 * Refuses any call of a Custom provider whose base URL is on this machine or a private network
 * unless the user confirmed it (`allowLocalNetwork`): otherwise whoever can edit settings could
 * use CadSight's replies to probe local services. Throws SETTINGS_BASE_URL_NOT_ALLOWED saying how
 * to confirm.
 */
export function assertConfirmedLocalBaseUrl(provider: { id: string; preset: ProviderPreset['id']; baseUrl: string; allowLocalNetwork: boolean }): void {
  if (provider.preset !== 'custom' || provider.allowLocalNetwork) return;
  const host = hostOf(provider.baseUrl);
  if (host !== null && isLocalNetworkHost(host)) {
    throw new AppError(
      'SETTINGS_BASE_URL_NOT_ALLOWED',
      `Provider "${provider.id}" points at a local or private address (${host}); to use it, edit it in Settings and tick "Allow this local or private address".`,
      { data: { providerId: provider.id, host } },
    );
  }
}

/**
 * Refuses a connection test of a hosted preset (OpenAI, DeepSeek, ...) whose base URL points at
 * this machine or a private network: the test's reply would make CadSight a probe of local
 * services for whoever can edit settings. Throws SETTINGS_BASE_URL_NOT_ALLOWED.
 */
export function assertTestableBaseUrl(preset: ProviderPreset['id'], baseUrl: string): void {
  if (LOCAL_PRESETS.has(preset)) return;
  const host = hostOf(baseUrl);
  if (host !== null && isLocalNetworkHost(host)) {
    throw new AppError('SETTINGS_BASE_URL_NOT_ALLOWED', `A ${preset} provider cannot point at a local or private address; use the Ollama or Custom preset for a gateway on your machine or network.`, {
      data: { preset, host },
    });
  }
}
