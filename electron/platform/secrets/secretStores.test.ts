import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createRedactor } from '../log/redact';
import { createCompositeSecretStore } from './compositeSecretStore';
import { createCryptoSafeStorage } from './cryptoSafeStorage.testSupport';
import { createEnvSecretStore } from './envSecretStore';
import { createSafeStorageSecretStore } from './safeStorageSecretStore';

const KEY = 'sk-test-key-0123456789abcdefghij';

describe('createSafeStorageSecretStore', () => {
  let dir = '';
  let file = '';
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'cadsight-secrets-'));
    file = path.join(dir, 'secrets.bin');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('stores only ciphertext and reads the key back after a restart', () => {
    const safeStorage = createCryptoSafeStorage();
    const store = createSafeStorageSecretStore({ safeStorage, file, platform: 'linux' });
    expect(store.status()).toEqual({ available: true, backend: 'gnome_libsecret' });
    store.set('openai', KEY);
    expect(readFileSync(file, 'utf8')).not.toContain(KEY);
    const reopened = createSafeStorageSecretStore({ safeStorage, file, platform: 'linux' });
    expect(reopened.get('openai')).toBe(KEY);
    expect(reopened.source('openai')).toBe('secret-store');
    reopened.delete('openai');
    expect(reopened.get('openai')).toBeUndefined();
    expect(createSafeStorageSecretStore({ safeStorage, file, platform: 'linux' }).source('openai')).toBe('none');
  });

  it('refuses to persist on Linux with the basic_text backend and names the env var instead', () => {
    const store = createSafeStorageSecretStore({ safeStorage: createCryptoSafeStorage({ backend: 'basic_text' }), file, platform: 'linux' });
    expect(store.status()).toEqual({ available: false, backend: 'basic_text' });
    let thrown: unknown;
    try {
      store.set('my-vllm', KEY);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toMatchObject({ code: 'SECRETS_UNAVAILABLE', data: { env: 'CADSIGHT_KEY_MY_VLLM' } });
    expect((thrown as Error).message).toContain('CADSIGHT_KEY_MY_VLLM');
    expect((thrown as Error).message).not.toContain(KEY);
    expect(() => readFileSync(file)).toThrow();
  });

  it('refuses to persist when encryption is unavailable on any platform', () => {
    const store = createSafeStorageSecretStore({ safeStorage: createCryptoSafeStorage({ available: false }), file, platform: 'win32' });
    expect(store.status()).toEqual({ available: false, backend: 'dpapi' });
    expect(() => store.set('openai', KEY)).toThrow(expect.objectContaining({ code: 'SECRETS_UNAVAILABLE' }));
  });

  it('rejects an empty key with SECRETS_INVALID', () => {
    const store = createSafeStorageSecretStore({ safeStorage: createCryptoSafeStorage(), file, platform: 'darwin' });
    expect(() => store.set('openai', '  ')).toThrow(expect.objectContaining({ code: 'SECRETS_INVALID' }));
  });

  it('reports a key encrypted under another keychain as SECRETS_UNREADABLE without echoing anything', () => {
    createSafeStorageSecretStore({ safeStorage: createCryptoSafeStorage(), file, platform: 'linux' }).set('openai', KEY);
    const other = createSafeStorageSecretStore({ safeStorage: createCryptoSafeStorage(), file, platform: 'linux' });
    expect(() => other.get('openai')).toThrow(expect.objectContaining({ code: 'SECRETS_UNREADABLE' }));
  });

  it('moves an unreadable secrets file aside and reports it', () => {
    writeFileSync(file, 'not json at all');
    const store = createSafeStorageSecretStore({ safeStorage: createCryptoSafeStorage(), file, platform: 'linux', now: () => new Date('2026-01-01T00:00:00Z') });
    expect(store.notices).toEqual([expect.objectContaining({ code: 'SECRETS_CORRUPT_MOVED_ASIDE', data: { movedTo: `${file}.corrupt-2026-01-01T00-00-00-000Z` } })]);
    expect(readFileSync(`${file}.corrupt-2026-01-01T00-00-00-000Z`, 'utf8')).toBe('not json at all');
    expect(store.source('openai')).toBe('none');
  });

  it('registers every key it reads or writes with the redactor', () => {
    const redactor = createRedactor();
    const store = createSafeStorageSecretStore({ safeStorage: createCryptoSafeStorage(), file, platform: 'linux', registry: redactor });
    store.set('openai', KEY);
    expect(redactor.redactText(`x ${KEY} y`)).not.toContain(KEY);
  });
});

describe('createEnvSecretStore', () => {
  it('reads CADSIGHT_KEY_<ID> first, then the preset variable', () => {
    const env = { CADSIGHT_KEY_QWEN: 'specific-key-000', DASHSCOPE_API_KEY: 'preset-key-000', OPENAI_API_KEY: 'openai-key-000' };
    const store = createEnvSecretStore(env, { presetOf: (id) => (id === 'my-openai' ? 'openai' : id === 'qwen' ? 'qwen' : undefined) });
    expect(store.get('qwen')).toBe('specific-key-000');
    expect(store.get('my-openai')).toBe('openai-key-000');
    expect(store.source('my-openai')).toBe('env');
    expect(store.get('ollama')).toBeUndefined();
    expect(store.source('ollama')).toBe('none');
  });

  it('treats a preset id as its own preset by default and ignores blank values', () => {
    const store = createEnvSecretStore({ ANTHROPIC_API_KEY: '  ', DEEPSEEK_API_KEY: 'ds-key-000' });
    expect(store.get('anthropic')).toBeUndefined();
    expect(store.get('deepseek')).toBe('ds-key-000');
  });

  it('is read-only and says which variable to set', () => {
    const store = createEnvSecretStore({});
    expect(store.status()).toEqual({ available: false, backend: 'env' });
    expect(() => store.set('kimi', KEY)).toThrow(expect.objectContaining({ code: 'SECRETS_UNAVAILABLE', message: expect.stringContaining('CADSIGHT_KEY_KIMI') }));
  });
});

describe('createCompositeSecretStore', () => {
  let dir = '';
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('prefers the stored key over the environment and falls back when none is stored', () => {
    dir = mkdtempSync(path.join(tmpdir(), 'cadsight-composite-'));
    const stored = createSafeStorageSecretStore({ safeStorage: createCryptoSafeStorage(), file: path.join(dir, 'secrets.bin'), platform: 'linux' });
    const store = createCompositeSecretStore(stored, createEnvSecretStore({ OPENAI_API_KEY: 'env-key-00000' }));
    expect(store.get('openai')).toBe('env-key-00000');
    expect(store.source('openai')).toBe('env');
    store.set('openai', KEY);
    expect(store.get('openai')).toBe(KEY);
    expect(store.source('openai')).toBe('secret-store');
    store.delete('openai');
    expect(store.source('openai')).toBe('env');
    expect(store.status()).toEqual(stored.status());
  });
});
