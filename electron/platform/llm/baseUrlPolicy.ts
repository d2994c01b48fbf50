import { AppError } from '../../../shared/errors';
import { isLinkLocalOrMetadataHost, isLocalNetworkHost } from '../../../shared/localNetwork';
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

const linkLocalRefusal = (providerId: string | undefined, host: string, address?: string): AppError =>
  new AppError(
    'SETTINGS_BASE_URL_NOT_ALLOWED',
    `${providerId === undefined ? 'A provider' : `Provider "${providerId}"`} points at a link-local or cloud metadata address (${address ?? host}); no model provider is served there, for any preset.`,
    { data: { ...(providerId === undefined ? {} : { providerId }), host, ...(address === undefined ? {} : { address }), reason: 'link-local-or-metadata' } },
  );

/**
 * Refuses a base URL on a link-local address (169.254.0.0/16, fe80::/10) or a cloud metadata
 * service, in any spelling, for every preset — Ollama and a confirmed Custom gateway included:
 * a reply from there can carry the machine's cloud credentials. Throws SETTINGS_BASE_URL_NOT_ALLOWED
 * with data.reason 'link-local-or-metadata'.
 */
export function assertNotLinkLocalBaseUrl(baseUrl: string, providerId?: string): void {
  const host = hostOf(baseUrl);
  if (host !== null && isLinkLocalOrMetadataHost(host)) throw linkLocalRefusal(providerId, host);
}

/**
 * Refuses any call of a provider on a link-local or metadata address (assertNotLinkLocalBaseUrl),
 * and of a Custom provider whose base URL is on this machine or a private network unless the
 * user confirmed it (`allowLocalNetwork`): otherwise whoever can edit settings could use
 * CadSight's replies to probe local services. Throws SETTINGS_BASE_URL_NOT_ALLOWED saying how to
 * confirm.
 */
export function assertConfirmedLocalBaseUrl(provider: { id: string; preset: ProviderPreset['id']; baseUrl: string; allowLocalNetwork: boolean }): void {
  assertNotLinkLocalBaseUrl(provider.baseUrl, provider.id);
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
 * Refuses a connection test of any preset on a link-local or metadata address, and of a hosted
 * preset (OpenAI, DeepSeek, ...) whose base URL points at this machine or a private network: the test's reply would make CadSight a probe of local
 * services for whoever can edit settings. Throws SETTINGS_BASE_URL_NOT_ALLOWED.
 */
export function assertTestableBaseUrl(preset: ProviderPreset['id'], baseUrl: string): void {
  assertNotLinkLocalBaseUrl(baseUrl);
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
 * internal DNS entry) leads there. Ollama, and a Custom provider the user confirmed, may resolve
 * to a local or private address, but no preset to a link-local or metadata one.
 * A name that does not resolve is left to the request itself (LLM_TRANSPORT_UNAVAILABLE).
 * Throws SETTINGS_BASE_URL_NOT_ALLOWED naming the address it resolved to.
 */
export async function assertResolvedBaseUrl(
  provider: { id: string; preset: ProviderPreset['id']; baseUrl: string; allowLocalNetwork: boolean },
  lookup: HostLookup,
): Promise<void> {
  const host = hostOf(provider.baseUrl);
  if (host === null || isLocalNetworkHost(host) || isLinkLocalOrMetadataHost(host)) return; // literal addresses: judged by the checks above
  let addresses: string[];
  try {
    addresses = await lookup(host);
  } catch {
    return;
  }
  const linkLocal = addresses.find((address) => isLinkLocalOrMetadataHost(address));
  if (linkLocal !== undefined) throw linkLocalRefusal(provider.id, host, linkLocal);
  if (provider.preset === 'ollama' || (provider.preset === 'custom' && provider.allowLocalNetwork)) return;
  const local = addresses.find((address) => isLocalNetworkHost(address));
  if (local === undefined) return;
  const fix = provider.preset === 'custom' ? 'edit it in Settings and tick "Allow this local or private address"' : 'use the Ollama or Custom preset for a gateway on your machine or network';
  throw new AppError('SETTINGS_BASE_URL_NOT_ALLOWED', `Provider "${provider.id}": ${host} resolves to a local or private address (${local}); ${fix}.`, {
    data: { providerId: provider.id, host, address: local },
  });
}
