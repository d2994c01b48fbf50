import { providerPresets } from '../llm/presets';
import type { SettingsFile } from './schema';

type Provider = SettingsFile['providers'][number];

/** Base URLs compared as origin + path, ignoring a trailing slash and letter case of the host. */
export function sameBaseUrl(a: string, b: string): boolean {
  const normal = (value: string): string | null => {
    try {
      const url = new URL(value);
      return `${url.protocol}//${url.host}${url.pathname.replace(/\/+$/, '')}`;
    } catch {
      return null;
    }
  };
  const x = normal(a);
  return x !== null && x === normal(b);
}

/**
 * The preset whose conventional key variable (OPENAI_API_KEY, DASHSCOPE_API_KEY...) may be sent
 * to this provider: only while the provider still points at that preset's own base URL. Anyone
 * who can change a base URL (any IPC caller) could otherwise have the user's key sent to a host
 * of their choosing; a provider moved elsewhere needs its own key (Settings or CADSIGHT_KEY_<ID>).
 */
export function presetKeyScope(provider: Provider | undefined): Provider['preset'] | undefined {
  if (provider === undefined) return undefined;
  const preset = providerPresets[provider.preset];
  return preset.baseUrl !== null && sameBaseUrl(provider.baseUrl, preset.baseUrl) ? provider.preset : undefined;
}
