import type { SecretStore } from './types';

/**
 * Prefers a key saved in `stored` (the user's explicit choice in the UI) over `fallback`
 * (environment). Writes and status go to `stored`.
 */
export function createCompositeSecretStore(stored: SecretStore, fallback: SecretStore): SecretStore {
  return {
    status: () => stored.status(),
    get: (providerId) => (stored.source(providerId) === 'secret-store' ? stored.get(providerId) : fallback.get(providerId)),
    set: (providerId, key) => stored.set(providerId, key),
    delete: (providerId) => stored.delete(providerId),
    source: (providerId) => (stored.source(providerId) === 'secret-store' ? 'secret-store' : fallback.source(providerId)),
  };
}
