import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { SafeStorageLike } from './types';

/**
 * TEST SUPPORT ONLY (never imported by product code; enforced by .dependency-cruiser.cjs):
 * an object with Electron safeStorage's shape that really encrypts (AES-256-GCM with a key
 * that lives only in this object), so tests can prove ciphertext never contains the key.
 */
export function createCryptoSafeStorage(options: { available?: boolean; backend?: string } = {}): SafeStorageLike {
  const masterKey = randomBytes(32);
  return {
    isEncryptionAvailable: () => options.available ?? true,
    getSelectedStorageBackend: () => options.backend ?? 'gnome_libsecret',
    encryptString(plainText) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', masterKey, iv);
      const body = Buffer.concat([cipher.update(plainText, 'utf8'), cipher.final()]);
      return Buffer.concat([iv, cipher.getAuthTag(), body]);
    },
    decryptString(encrypted) {
      const decipher = createDecipheriv('aes-256-gcm', masterKey, encrypted.subarray(0, 12));
      decipher.setAuthTag(encrypted.subarray(12, 28));
      return Buffer.concat([decipher.update(encrypted.subarray(28)), decipher.final()]).toString('utf8');
    },
  };
}
