import { z } from 'zod';
import { AppError } from '../../../shared/errors';
import { writeFileAtomicSync, type StartupNotice } from '../dataDir/fileSafety';
import { loadJsonFile } from '../dataDir/jsonFile';
import { providerKeyEnvName } from './envKeyNames';
import type { SafeStorageLike, SecretRegistry, SecretStore, SecretStoreStatus } from './types';

export interface SafeStorageSecretStoreOptions {
  /** Electron's safeStorage (or an object of the same shape). */
  safeStorage: SafeStorageLike;
  /** `<data>/secrets.bin`: encrypted blobs per provider id (never SQLite). */
  file: string;
  platform: NodeJS.Platform;
  registry?: SecretRegistry;
  now?: () => Date;
}

export interface SafeStorageSecretStore extends SecretStore {
  /** SECRETS_CORRUPT_MOVED_ASIDE when an unreadable secrets file was moved away at start. */
  readonly notices: StartupNotice[];
}

// Only ciphertext is stored: the file is JSON so that it can be inspected and versioned.
const secretsFileSchema = z.object({ version: z.literal(1), keys: z.record(z.string(), z.string().regex(/^[A-Za-z0-9+/]*={0,2}$/)) }).strict();
type SecretsFile = z.infer<typeof secretsFileSchema>;

// On Linux, Electron reports encryption as available even when it falls back to a hard-coded
// password ("basic_text"): that is plaintext in disguise, so it counts as unavailable.
const INSECURE_LINUX_BACKENDS = new Set(['basic_text', 'unknown']);

/**
 * Key store encrypted with Electron safeStorage (OS keychain / DPAPI / libsecret) in
 * `<data>/secrets.bin`. Refuses to persist when no real keychain exists (SECRETS_UNAVAILABLE
 * naming the env var to use instead) rather than store a key in plaintext.
 */
export function createSafeStorageSecretStore(options: SafeStorageSecretStoreOptions): SafeStorageSecretStore {
  const notices: StartupNotice[] = [];
  let contents = load(options, notices);

  const status = (): SecretStoreStatus => {
    const backend = backendName(options);
    const available = options.safeStorage.isEncryptionAvailable() && !(options.platform === 'linux' && INSECURE_LINUX_BACKENDS.has(backend));
    return { available, backend };
  };

  const save = (next: SecretsFile): void => {
    try {
      writeFileAtomicSync(options.file, `${JSON.stringify(next)}\n`);
    } catch (error) {
      if (error instanceof AppError) throw error; // STORAGE_FULL
      throw new AppError('STORE_IO', 'The encrypted key file could not be written.', { data: { errno: (error as NodeJS.ErrnoException).code ?? 'unknown' }, cause: error });
    }
    contents = next;
  };

  return {
    notices,
    status,
    get(providerId) {
      const blob = contents.keys[providerId];
      if (blob === undefined) return undefined;
      let key: string;
      try {
        key = options.safeStorage.decryptString(Buffer.from(blob, 'base64'));
      } catch {
        // The decryption error text is dropped on purpose: it is not needed and could echo input.
        throw new AppError('SECRETS_UNREADABLE', `The saved API key of provider "${providerId}" cannot be decrypted on this machine any more; enter it again.`, {
          data: { providerId },
        });
      }
      options.registry?.registerSecret(key);
      return key;
    },
    set(providerId, key) {
      if (key.trim() === '') throw new AppError('SECRETS_INVALID', 'An API key cannot be empty.', { data: { providerId } });
      const current = status();
      if (!current.available) {
        throw new AppError(
          'SECRETS_UNAVAILABLE',
          `No secure key storage is available (backend: ${current.backend}); the key was not saved. Set the environment variable ${providerKeyEnvName(providerId)} instead.`,
          { data: { providerId, backend: current.backend, env: providerKeyEnvName(providerId) } },
        );
      }
      options.registry?.registerSecret(key);
      const blob = options.safeStorage.encryptString(key).toString('base64');
      save({ version: 1, keys: { ...contents.keys, [providerId]: blob } });
    },
    delete(providerId) {
      if (!Object.hasOwn(contents.keys, providerId)) return;
      const { [providerId]: _removed, ...rest } = contents.keys;
      save({ version: 1, keys: rest });
    },
    source: (providerId) => (Object.hasOwn(contents.keys, providerId) ? 'secret-store' : 'none'),
  };
}

function backendName(options: SafeStorageSecretStoreOptions): string {
  if (options.platform === 'linux') return options.safeStorage.getSelectedStorageBackend?.() ?? 'unknown';
  return options.platform === 'darwin' ? 'keychain' : options.platform === 'win32' ? 'dpapi' : 'os';
}

/** Reads the file; an unreadable one is moved aside (never deleted) and reported. */
function load(options: SafeStorageSecretStoreOptions, notices: StartupNotice[]): SecretsFile {
  const loaded = loadJsonFile({ file: options.file, schema: secretsFileSchema, now: (options.now ?? (() => new Date()))() });
  if (loaded.kind === 'ok') return loaded.value;
  if (loaded.kind === 'moved-aside') {
    notices.push({
      code: 'SECRETS_CORRUPT_MOVED_ASIDE',
      message: `The saved API keys file was unreadable; it was moved to ${loaded.movedTo}. Enter your API keys again.`,
      data: { movedTo: loaded.movedTo },
    });
  }
  return { version: 1, keys: {} };
}
