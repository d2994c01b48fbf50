import { AppError } from '../../../shared/errors';
import type { LlmProviderConfig } from '../llm/types';
import { assertConfirmedLocalBaseUrl } from '../llm/baseUrlPolicy';
import { providerPresets } from '../llm/presets';
import { keyEnvNames } from '../secrets/envKeyNames';
import type { SecretStore } from '../secrets/types';
import type { RoleName, SettingsFile } from './schema';

/** What to resolve: the model chosen for a role, or a provider by id (model default: its first). */
export type ProviderTarget = { role: RoleName } | { providerId: string; model?: string };

/**
 * Builds the LlmProviderConfig for a role or provider from effective settings. The key is not
 * read here: `getApiKey` asks the secret store at call time, so a key changed in the UI applies
 * to the next call. Errors: LLM_NOT_CONFIGURED (no model chosen for the role, its provider is
 * gone, or a provider that needs a key has none), SETTINGS_NOT_FOUND (unknown provider id or
 * a model the provider does not list), SETTINGS_BASE_URL_NOT_ALLOWED (a Custom provider on a local
 * or private address the user did not confirm).
 */
export function resolveProviderConfig(settings: SettingsFile, secrets: SecretStore, target: ProviderTarget): LlmProviderConfig {
  const choice = 'role' in target ? roleChoice(settings, target.role) : { providerId: target.providerId, model: target.model };
  const provider = settings.providers.find((p) => p.id === choice.providerId);
  if (!provider) {
    if ('role' in target) {
      throw new AppError('LLM_NOT_CONFIGURED', `The ${target.role} role uses provider "${choice.providerId}", which no longer exists; choose another in Settings.`, {
        data: { role: target.role, providerId: choice.providerId },
      });
    }
    throw new AppError('SETTINGS_NOT_FOUND', `There is no provider "${choice.providerId}".`, { data: { providerId: choice.providerId } });
  }
  const model = choice.model ?? (provider.models[0] as string);
  if (!provider.models.includes(model)) {
    throw new AppError('SETTINGS_NOT_FOUND', `Provider "${provider.id}" does not list model "${model}".`, { data: { providerId: provider.id, model } });
  }
  assertConfirmedLocalBaseUrl(provider);
  // Presets with a conventional key variable are hosted APIs that reject anonymous calls;
  // failing here gives the user a fix instead of a 401 later. Local/custom gateways may be keyless.
  if (providerPresets[provider.preset].keyEnv !== null && secrets.source(provider.id) === 'none') {
    const variables = keyEnvNames(provider.id, provider.preset);
    throw new AppError('LLM_NOT_CONFIGURED', `Provider "${provider.id}" has no API key; enter one in Settings or set ${variables.join(' or ')}.`, {
      data: { providerId: provider.id, env: variables },
    });
  }
  return {
    id: provider.id,
    protocol: provider.protocol,
    baseUrl: provider.baseUrl,
    model,
    getApiKey: () => secrets.get(provider.id),
    forceStreaming: provider.forceStreaming,
    timeoutMs: settings.limits.llmTimeoutMs,
    maxImageEdge: settings.limits.maxImageEdge,
    quirks: providerPresets[provider.preset].quirks,
  };
}

function roleChoice(settings: SettingsFile, role: RoleName): { providerId: string; model: string } {
  const choice = settings.roles[role];
  if (choice === null) {
    const prefix = `CADSIGHT_${role.toUpperCase()}`;
    throw new AppError('LLM_NOT_CONFIGURED', `No model is chosen for the ${role} role; choose one in Settings or set ${prefix}_PROVIDER and ${prefix}_MODEL.`, {
      data: { role },
    });
  }
  return choice;
}
