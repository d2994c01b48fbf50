import { AppError } from '../../../shared/errors';
import { providerFromEnv, providersFromEnv } from '../../platform/llm/envProviders';
import type { EnvSource } from '../../platform/llm/envProviders';
import type { LlmProviderConfig } from '../../platform/llm/types';
import type { RoleName } from '../../platform/settings/schema';
import type { SettingsService } from '../../platform/settings/settingsService';

/**
 * The model for a role, resolved the same way for every CLI command and the app:
 * 1. an explicit `provider/model` override (a settings provider id or an env provider id);
 * 2. the role chosen in settings (CADSIGHT_<ROLE>_* env overrides apply there);
 * 3. the README's provider environment: DEFAULT_PROVIDER, else the first configured
 *    `<ID>_API_KEY`/`<ID>_BASE_URL`/`<ID>_MODEL` provider (CHAT_* for any Chat Completions gateway).
 * Throws LLM_NOT_CONFIGURED naming what to set when none applies.
 */
export function resolveRoleModel(settings: SettingsService, env: EnvSource, role: RoleName, override?: string): LlmProviderConfig {
  if (override) {
    const slash = override.indexOf('/');
    const providerId = slash < 0 ? override : override.slice(0, slash);
    const model = slash < 0 ? undefined : override.slice(slash + 1);
    try {
      return settings.resolveProvider({ providerId, ...(model ? { model } : {}) });
    } catch (error) {
      // No such provider in settings (SETTINGS_NOT_FOUND) or one without a key: the env providers the help names apply.
      if (!(error instanceof AppError) || (error.code !== 'LLM_NOT_CONFIGURED' && error.code !== 'SETTINGS_NOT_FOUND')) throw error;
      // `chat/<model>` names the model itself: <ID>_MODEL is then not needed.
      const fromEnv = providerFromEnv(model ? { ...env, [`${providerId.toUpperCase()}_MODEL`]: model } : env, providerId);
      return model ? { ...fromEnv, model } : fromEnv;
    }
  }
  try {
    return settings.resolveProvider({ role });
  } catch (error) {
    if (!(error instanceof AppError) || error.code !== 'LLM_NOT_CONFIGURED') throw error;
    const fromEnv = providersFromEnv(env).defaultProvider;
    if (fromEnv) return fromEnv;
    throw new AppError('LLM_NOT_CONFIGURED', `No model for the ${role} role: choose one in Settings, set CADSIGHT_${role.toUpperCase()}_PROVIDER, or set DEFAULT_PROVIDER with <ID>_API_KEY/<ID>_MODEL (CHAT_BASE_URL + CHAT_MODEL for a Chat Completions gateway).`, {
      data: { role },
    });
  }
}
