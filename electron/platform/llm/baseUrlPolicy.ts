import { AppError } from '../../../shared/errors';
import { isLocalNetworkHost } from '../../../shared/localNetwork';
import type { ProviderPreset } from './presets';

/** Presets whose private base URL needs no test-time refusal: Ollama is local by design, Custom is judged by assertConfirmedLocalBaseUrl. */
const LOCAL_PRESETS: ReadonlySet<ProviderPreset['id']> = new Set(['ollama', 'custom']);

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

/** Resolves a host name to its addresses; injected so tests need no DNS. */
export type HostLookup = (host: string) => Promise<string[]>;

/**
 * The same refusals for a base URL given as a host name that resolves to this machine or a
 * private network: the literal checks above cannot see that a name (a rebinding domain, an
 * internal DNS entry) leads there. Ollama, and a Custom provider the user confirmed, are exempt.
 * A name that does not resolve is left to the request itself (LLM_TRANSPORT_UNAVAILABLE).
 * Throws SETTINGS_BASE_URL_NOT_ALLOWED naming the address it resolved to.
 */
export async function assertResolvedBaseUrl(
  provider: { id: string; preset: ProviderPreset['id']; baseUrl: string; allowLocalNetwork: boolean },
  lookup: HostLookup,
): Promise<void> {
  if (provider.preset === 'ollama' || (provider.preset === 'custom' && provider.allowLocalNetwork)) return;
  const host = hostOf(provider.baseUrl);
  if (host === null || isLocalNetworkHost(host)) return; // literal addresses: judged by the checks above
  let addresses: string[];
  try {
    addresses = await lookup(host);
  } catch {
    return;
  }
  const local = addresses.find((address) => isLocalNetworkHost(address));
  if (local === undefined) return;
  const fix = provider.preset === 'custom' ? 'edit it in Settings and tick "Allow this local or private address"' : 'use the Ollama or Custom preset for a gateway on your machine or network';
  throw new AppError('SETTINGS_BASE_URL_NOT_ALLOWED', `Provider "${provider.id}": ${host} resolves to a local or private address (${local}); ${fix}.`, {
    data: { providerId: provider.id, host, address: local },
  });
}
