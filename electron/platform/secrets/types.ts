/** Where a provider's API key comes from (the only key information the renderer ever sees). */
export type SecretSource = 'secret-store' | 'env' | 'none';

/** Whether keys can be persisted on this machine, and by which backend (e.g. "gnome_libsecret"). */
export interface SecretStoreStatus {
  available: boolean;
  backend: string;
}

/**
 * API-key storage port, keyed by provider id. Keys never appear in error messages, logs, the
 * settings file, SQLite or IPC replies; implementations register every key they touch with the
 * runtime's redactor. Error codes: SECRETS_UNAVAILABLE (this store cannot persist keys — the
 * message names the environment variable to use instead), SECRETS_UNREADABLE (a stored key can
 * no longer be decrypted, e.g. the keyring changed), SECRETS_INVALID (empty key), STORAGE_FULL, STORE_IO.
 */
export interface SecretStore {
  status(): SecretStoreStatus;
  /** The key, or undefined when none is configured. */
  get(providerId: string): string | undefined;
  set(providerId: string, key: string): void;
  /** Removes a stored key; removing an absent key is not an error. */
  delete(providerId: string): void;
  source(providerId: string): SecretSource;
}

/**
 * The subset of Electron's `safeStorage` this module uses, injected so that platform code never
 * imports electron (the desktop composition root passes the real object).
 */
export interface SafeStorageLike {
  isEncryptionAvailable(): boolean;
  encryptString(plainText: string): Buffer;
  decryptString(encrypted: Buffer): string;
  /** Linux only in Electron: "basic_text", "gnome_libsecret", "kwallet*", or "unknown". */
  getSelectedStorageBackend?(): string;
}

/** Receives every key a store reads or writes so the logger can redact it. */
export interface SecretRegistry {
  registerSecret(value: string): void;
}
