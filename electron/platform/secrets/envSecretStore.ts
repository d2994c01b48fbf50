import { AppError } from '../../../shared/errors';
import type { ProviderPreset } from '../llm/presets';
import { isPresetId, keyEnvNames, providerKeyEnvName } from './envKeyNames';
import type { SecretRegistry, SecretStore } from './types';

export interface EnvSecretStoreOptions {
  /**
   * The preset of a provider id, so "my-openai" (preset openai) also reads OPENAI_API_KEY.
   * Called lazily on each lookup. Default: the id itself when it is a preset id.
   */
  presetOf?: (providerId: string) => ProviderPreset['id'] | undefined;
  registry?: SecretRegistry;
}

/**
 * Read-only key store over environment variables, for Node contexts (MCP servers, CLI) that
 * are configured purely by env. See keyEnvNames for the variables read. `set` throws
 * SECRETS_UNAVAILABLE naming the variable to set; `delete` has nothing to remove.
 */
export function createEnvSecretStore(env: Readonly<Record<string, string | undefined>>, options: EnvSecretStoreOptions = {}): SecretStore {
  const presetOf = options.presetOf ?? ((id: string) => (isPresetId(id) ? id : undefined));
  const lookup = (providerId: string): string | undefined => {
    for (const name of keyEnvNames(providerId, presetOf(providerId))) {
      const value = env[name]?.trim();
      if (value) return value;
    }
    return undefined;
  };
  return {
    status: () => ({ available: false, backend: 'env' }),
    get(providerId) {
      const key = lookup(providerId);
      if (key !== undefined) options.registry?.registerSecret(key);
      return key;
    },
    set(providerId) {
      throw new AppError('SECRETS_UNAVAILABLE', `API keys cannot be saved here; set the environment variable ${providerKeyEnvName(providerId)} instead.`, {
        data: { providerId, env: providerKeyEnvName(providerId) },
      });
    },
    delete() {
      // Nothing is stored by this adapter; environment variables belong to the caller's shell.
    },
    source: (providerId) => (lookup(providerId) === undefined ? 'none' : 'env'),
  };
}

