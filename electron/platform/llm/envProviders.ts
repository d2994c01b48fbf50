import { AppError } from '../../../shared/errors';
import { assertNotLinkLocalBaseUrl } from './baseUrlPolicy';
import { providerPresets, type ProviderPreset } from './presets';
import type { LlmProviderConfig } from './types';

/** Environment the resolver reads (process.env in Node contexts). Read again at call time for keys. */
export type EnvSource = Readonly<Record<string, string | undefined>>;

/**
 * Provider ids configurable by environment variables. `chat` is a generic OpenAI-compatible
 * Chat Completions gateway (the "custom" preset): it needs CHAT_BASE_URL and CHAT_MODEL.
 */
export const envProviderIds = ['openai', 'chat', 'anthropic', 'qwen', 'kimi', 'deepseek', 'zhipu', 'ollama'] as const;
export type EnvProviderId = (typeof envProviderIds)[number];

const presetOf: Record<EnvProviderId, ProviderPreset> = {
  openai: providerPresets.openai,
  chat: providerPresets.custom,
  anthropic: providerPresets.anthropic,
  qwen: providerPresets.qwen,
  kimi: providerPresets.kimi,
  deepseek: providerPresets.deepseek,
  zhipu: providerPresets.zhipu,
  ollama: providerPresets.ollama,
};

function isEnvProviderId(value: string): value is EnvProviderId {
  return (envProviderIds as readonly string[]).includes(value);
}

function notConfigured(message: string, data: Record<string, unknown>): AppError {
  return new AppError('LLM_NOT_CONFIGURED', message, { data });
}

function nonEmpty(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed ? trimmed : undefined;
}

/**
 * Names of the key variables of a provider, in lookup order: the picsense-style
 * `<ID>_API_KEY` (QWEN_API_KEY, KIMI_API_KEY...) first, then the vendor's own variable from
 * the preset table (DASHSCOPE_API_KEY, MOONSHOT_API_KEY...).
 */
export function keyEnvNames(id: EnvProviderId): string[] {
  const own = `${id.toUpperCase()}_API_KEY`;
  const vendor = presetOf[id].keyEnv;
  return vendor && vendor !== own ? [own, vendor] : [own];
}

function parseTimeout(env: EnvSource, id: EnvProviderId): number | undefined {
  const name = nonEmpty(env[`${id.toUpperCase()}_TIMEOUT_MS`]) !== undefined ? `${id.toUpperCase()}_TIMEOUT_MS` : 'TIMEOUT_MS';
  const raw = nonEmpty(env[name]);
  if (raw === undefined) return undefined;
  if (!/^\d+$/.test(raw) || Number(raw) <= 0) throw notConfigured(`${name} must be a positive whole number of milliseconds.`, { variable: name });
  return Number(raw);
}

/**
 * picsense reads OPENAI_BASE_URL as the server root and posts to `<root>/v1/responses`, while the
 * OpenAI SDK convention (and our preset) includes `/v1`. A Responses base URL with no path at all
 * (`https://gw.example.com` or `.../`) therefore gets `/v1` appended; any explicit path is kept
 * as written, so `https://gw.example.com/openai/v1` or a versionless proxy path still work.
 */
export function normalizeResponsesBaseUrl(baseUrl: string): string {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    return baseUrl;
  }
  if (url.pathname !== '/' && url.pathname !== '') return baseUrl;
  return `${baseUrl.replace(/\/+$/, '')}/v1`;
}

/** True when the environment says anything about provider `id` (a key, base URL or model). */
function mentioned(env: EnvSource, id: EnvProviderId): boolean {
  const prefix = id.toUpperCase();
  return [...keyEnvNames(id), `${prefix}_BASE_URL`, `${prefix}_MODEL`].some((name) => nonEmpty(env[name]) !== undefined);
}

/**
 * Builds provider `id` from `<ID>_API_KEY` (or the vendor key variable), `<ID>_BASE_URL`
 * (default: the preset's), `<ID>_MODEL` (default: the preset's), `<ID>_TIMEOUT_MS` or
 * TIMEOUT_MS, and `<ID>_FORCE_STREAMING=1` for Chat Completions gateways that only stream.
 * Throws LLM_NOT_CONFIGURED when a required key, base URL or model is missing or a value is
 * invalid; the message names the variable to set, never a value. SETTINGS_BASE_URL_NOT_ALLOWED
 * for a link-local or cloud metadata base URL.
 */
export function providerFromEnv(env: EnvSource, id: string): LlmProviderConfig {
  if (!isEnvProviderId(id)) throw notConfigured(`Unknown provider "${id}". Use one of: ${envProviderIds.join(', ')}.`, { provider: id });
  const preset = presetOf[id];
  const prefix = id.toUpperCase();
  const baseUrl = nonEmpty(env[`${prefix}_BASE_URL`]) ?? preset.baseUrl;
  if (!baseUrl) throw notConfigured(`Provider "${id}" needs ${prefix}_BASE_URL.`, { provider: id, variable: `${prefix}_BASE_URL` });
  if (!/^https?:\/\//.test(baseUrl)) throw notConfigured(`${prefix}_BASE_URL must be an http(s) URL.`, { provider: id, variable: `${prefix}_BASE_URL` });
  assertNotLinkLocalBaseUrl(baseUrl, id);
  const model = nonEmpty(env[`${prefix}_MODEL`]) ?? preset.defaultModel;
  const wireBaseUrl = preset.protocol === 'openai-responses' ? normalizeResponsesBaseUrl(baseUrl) : baseUrl;
  if (!model) throw notConfigured(`Provider "${id}" needs ${prefix}_MODEL.`, { provider: id, variable: `${prefix}_MODEL` });
  const keyNames = keyEnvNames(id);
  // Keyless: local gateways (Ollama, a local vLLM behind CHAT_BASE_URL) need no key.
  const keyRequired = preset.keyEnv !== null;
  const getApiKey = (): string | undefined => keyNames.map((name) => nonEmpty(env[name])).find((v) => v !== undefined);
  if (keyRequired && getApiKey() === undefined) throw notConfigured(`Provider "${id}" needs an API key in ${keyNames.join(' or ')}.`, { provider: id, variables: keyNames });
  const timeoutMs = parseTimeout(env, id);
  const forceStreaming = /^(1|true|yes)$/i.test(env[`${prefix}_FORCE_STREAMING`] ?? '');
  return {
    id,
    protocol: preset.protocol,
    baseUrl: wireBaseUrl,
    model,
    getApiKey,
    quirks: preset.quirks,
    ...(timeoutMs !== undefined ? { timeoutMs } : {}),
    ...(forceStreaming ? { forceStreaming } : {}),
  };
}

/** Providers configured by environment, and which one is the default. */
export interface EnvProviders {
  /** Every provider the environment mentions (key, base URL or model set), fully resolved. */
  providers: LlmProviderConfig[];
  /** DEFAULT_PROVIDER when set, else the first configured provider in envProviderIds order. */
  defaultProvider: LlmProviderConfig | undefined;
}

/**
 * Resolves all env-configured providers (picsense-compatible: DEFAULT_PROVIDER plus
 * `<ID>_API_KEY` / `<ID>_MODEL` / `<ID>_BASE_URL`). A mentioned but incomplete provider, an
 * unknown DEFAULT_PROVIDER or a DEFAULT_PROVIDER that cannot be built throws LLM_NOT_CONFIGURED
 * rather than being skipped silently.
 */
export function providersFromEnv(env: EnvSource): EnvProviders {
  const providers = envProviderIds.filter((id) => mentioned(env, id)).map((id) => providerFromEnv(env, id));
  const wanted = nonEmpty(env['DEFAULT_PROVIDER'])?.toLowerCase();
  if (wanted === undefined) return { providers, defaultProvider: providers[0] };
  const existing = providers.find((p) => p.id === wanted);
  if (existing) return { providers, defaultProvider: existing };
  const defaultProvider = providerFromEnv(env, wanted);
  return { providers: [...providers, defaultProvider], defaultProvider };
}
