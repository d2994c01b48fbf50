import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { settingsViewSchema } from '../../../shared/ipc/contracts/platform';
import { createCompositeSecretStore } from '../secrets/compositeSecretStore';
import { createCryptoSafeStorage } from '../secrets/cryptoSafeStorage.testSupport';
import { createEnvSecretStore } from '../secrets/envSecretStore';
import { createSafeStorageSecretStore } from '../secrets/safeStorageSecretStore';
import type { SecretStore } from '../secrets/types';
import { createSettingsService, type CreateSettingsServiceOptions, type SettingsService } from './settingsService';

const KEY = 'sk-settings-test-0123456789abcdef';
type ProviderInput = Parameters<SettingsService['saveProvider']>[0];
const ollama: ProviderInput = { id: 'local', label: 'Ollama', preset: 'ollama', protocol: 'chat-completions', baseUrl: 'http://127.0.0.1:11434/v1', models: ['llava', 'qwen2-vl'] };
const openai: ProviderInput = { id: 'openai', label: 'OpenAI', preset: 'openai', protocol: 'openai-responses', baseUrl: 'https://api.openai.com/v1', models: ['gpt-4.1'] };

describe('createSettingsService', () => {
  let dir = '';
  let file = '';
  let secrets: SecretStore;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'cadsight-settings-'));
    file = path.join(dir, 'settings.json');
    secrets = createSafeStorageSecretStore({ safeStorage: createCryptoSafeStorage(), file: path.join(dir, 'secrets.bin'), platform: 'linux' });
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const service = (overrides: Partial<CreateSettingsServiceOptions> = {}) => createSettingsService({ file, secrets, env: {}, systemLocale: 'zh-CN', ...overrides });

  it('starts from defaults that match the IPC settings view exactly', () => {
    const view = service().getSettings();
    expect(settingsViewSchema.parse(view)).toEqual(view);
    expect(view).toEqual({
      locale: 'zh-CN',
      providers: [],
      roles: { vision: null, author: null, reviewer: null },
      cad: { host: '127.0.0.1', port: 8080, allowRemote: false },
      allowedRoots: [],
      secretStorage: { available: true, backend: 'gnome_libsecret' },
      envOverrides: [],
    });
    expect(service({ systemLocale: 'en-US' }).getSettings().locale).toBe('en');
  });

  it('persists providers, roles, locale and general settings across a restart', () => {
    const first = service();
    first.saveProvider({ ...ollama });
    first.setRoleModel({ role: 'vision', value: { providerId: 'local', model: 'qwen2-vl' } });
    first.setLocale({ locale: 'en' });
    first.setGeneral({ cad: { host: 'localhost', port: 8081 }, allowedRoots: [path.join(dir, 'drawings')] });
    const view = service().getSettings();
    expect(view.providers).toEqual([{ ...ollama, forceStreaming: false, allowLocalNetwork: false, keyConfigured: false, keySource: 'none' }]);
    expect(view.roles.vision).toEqual({ providerId: 'local', model: 'qwen2-vl' });
    expect(view.locale).toBe('en');
    expect(view.cad).toEqual({ host: 'localhost', port: 8081, allowRemote: false });
    expect(view.allowedRoots).toEqual([path.join(dir, 'drawings')]);
    expect(JSON.parse(readFileSync(file, 'utf8')).version).toBe(1);
  });

  it('loads a Custom provider saved on a local address before the confirmation existed, and refuses to use it with a typed error', () => {
    const custom = { id: 'old-lan', label: 'LAN', preset: 'custom', protocol: 'chat-completions', baseUrl: 'http://192.168.1.9:8000/v1', models: ['m'], forceStreaming: false };
    writeFileSync(file, JSON.stringify({ version: 1, providers: [custom] }));
    const settings = service();
    expect(settings.notices).toEqual([]);
    expect(settings.getSettings().providers).toEqual([{ ...custom, allowLocalNetwork: false, keyConfigured: false, keySource: 'none' }]);
    expect(() => settings.resolveProvider({ providerId: 'old-lan' })).toThrow(expect.objectContaining({ code: 'SETTINGS_BASE_URL_NOT_ALLOWED', data: { providerId: 'old-lan', host: '192.168.1.9' } }));
    settings.saveProvider({ ...custom, preset: 'custom', protocol: 'chat-completions', allowLocalNetwork: true });
    expect(settings.resolveProvider({ providerId: 'old-lan' }).baseUrl).toBe('http://192.168.1.9:8000/v1');
  });

  it('stores a given key in the secret store only and reports it as configured', () => {
    const settings = service();
    const view = settings.saveProvider({ ...openai, apiKey: KEY });
    expect(view.providers[0]).toMatchObject({ keyConfigured: true, keySource: 'secret-store' });
    expect(JSON.stringify(view)).not.toContain(KEY);
    expect(readFileSync(file, 'utf8')).not.toContain(KEY);
    expect(settings.resolveProvider({ providerId: 'openai' }).getApiKey()).toBe(KEY);
    settings.saveProvider({ ...openai, label: 'Renamed' });
    expect(secrets.get('openai')).toBe(KEY);
    settings.saveProvider({ ...openai, apiKey: '' });
    expect(secrets.source('openai')).toBe('none');
  });

  it('changes nothing when the keychain refuses the key', () => {
    secrets = createSafeStorageSecretStore({ safeStorage: createCryptoSafeStorage({ backend: 'basic_text' }), file: path.join(dir, 'secrets.bin'), platform: 'linux' });
    const settings = service();
    expect(() => settings.saveProvider({ ...openai, apiKey: KEY })).toThrow(expect.objectContaining({ code: 'SECRETS_UNAVAILABLE' }));
    expect(settings.getSettings().providers).toEqual([]);
    expect(settings.getSettings().secretStorage).toEqual({ available: false, backend: 'basic_text' });
  });

  it('does not store the key when the new settings are invalid', () => {
    const settings = service();
    for (let i = 0; i < 50; i += 1) settings.saveProvider({ ...ollama, id: `p${i}` });
    expect(() => settings.saveProvider({ ...openai, apiKey: KEY })).toThrow(expect.objectContaining({ code: 'SETTINGS_INVALID' }));
    expect(secrets.source('openai')).toBe('none');
  });

  it('deletes a provider with its key and clears the roles that used it', () => {
    const settings = service();
    settings.saveProvider({ ...openai, apiKey: KEY });
    settings.setRoleModel({ role: 'reviewer', value: { providerId: 'openai', model: 'gpt-4.1' } });
    const view = settings.deleteProvider({ id: 'openai' });
    expect(view.providers).toEqual([]);
    expect(view.roles.reviewer).toBeNull();
    expect(secrets.source('openai')).toBe('none');
    expect(() => settings.deleteProvider({ id: 'openai' })).toThrow(expect.objectContaining({ code: 'SETTINGS_NOT_FOUND' }));
  });

  it('clears a role whose model disappears when its provider is edited', () => {
    const settings = service();
    settings.saveProvider({ ...ollama });
    settings.setRoleModel({ role: 'author', value: { providerId: 'local', model: 'llava' } });
    expect(settings.saveProvider({ ...ollama, models: ['qwen2-vl'] }).roles.author).toBeNull();
  });

  it('refuses unknown providers or models for a role and invalid input', () => {
    const settings = service();
    settings.saveProvider({ ...ollama });
    expect(() => settings.setRoleModel({ role: 'vision', value: { providerId: 'nope', model: 'x' } })).toThrow(expect.objectContaining({ code: 'SETTINGS_NOT_FOUND' }));
    expect(() => settings.setRoleModel({ role: 'vision', value: { providerId: 'local', model: 'gpt-5' } })).toThrow(expect.objectContaining({ code: 'SETTINGS_NOT_FOUND' }));
    expect(() => settings.saveProvider({ ...ollama, id: 'Bad Id' })).toThrow(expect.objectContaining({ code: 'SETTINGS_INVALID' }));
    expect(() => settings.setGeneral({ allowedRoots: ['relative'] })).toThrow(expect.objectContaining({ code: 'SETTINGS_INVALID' }));
  });

  it('applies environment overrides on read, reports them, and keeps the file values', () => {
    const settings = service({ env: { CADSIGHT_CAD_PORT: '9001', CADSIGHT_LOCALE: 'en' } });
    settings.setGeneral({ cad: { host: '127.0.0.1', port: 8082 } });
    const view = settings.getSettings();
    expect(view.cad.port).toBe(9001);
    expect(view.locale).toBe('en');
    expect(view.envOverrides).toEqual(['locale', 'cad.port']);
    expect(JSON.parse(readFileSync(file, 'utf8')).cad.port).toBe(8082);
  });

  it('moves an invalid settings file aside and starts from defaults with a notice', () => {
    writeFileSync(file, '{"version":1,"cad":{"port":"eighty"}}');
    const settings = service({ now: () => new Date('2026-02-03T04:05:06.000Z') });
    const movedTo = `${file}.corrupt-2026-02-03T04-05-06-000Z`;
    expect(settings.notices).toEqual([expect.objectContaining({ code: 'SETTINGS_CORRUPT_MOVED_ASIDE', data: { movedTo } })]);
    expect(readFileSync(movedTo, 'utf8')).toContain('eighty');
    expect(settings.getSettings().cad.port).toBe(8080);
  });

  it('refuses a settings file from a newer CadSight and leaves it in place', () => {
    writeFileSync(file, '{"version":2,"future":true}');
    expect(() => service()).toThrow(expect.objectContaining({ code: 'SETTINGS_TOO_NEW' }));
    expect(readFileSync(file, 'utf8')).toContain('future');
  });
});

describe('SettingsService.resolveProvider', () => {
  let dir = '';
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'cadsight-resolve-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('resolves a role to a full provider config whose key is read at call time', () => {
    const env: Record<string, string | undefined> = { CADSIGHT_VISION_PROVIDER: 'qwen', CADSIGHT_LLM_TIMEOUT_MS: '30000' };
    const secrets = createEnvSecretStore(env);
    const settings = createSettingsService({ file: path.join(dir, 'settings.json'), secrets, env, systemLocale: 'en' });
    expect(() => settings.resolveProvider({ role: 'vision' })).toThrow(
      expect.objectContaining({ code: 'LLM_NOT_CONFIGURED', message: expect.stringContaining('DASHSCOPE_API_KEY') }),
    );
    env.DASHSCOPE_API_KEY = KEY;
    const config = settings.resolveProvider({ role: 'vision' });
    expect(config).toMatchObject({ id: 'qwen', protocol: 'chat-completions', model: 'qwen-vl-max', timeoutMs: 30000, maxImageEdge: 1280, forceStreaming: false });
    expect(config.getApiKey()).toBe(KEY);
    env.DASHSCOPE_API_KEY = `${KEY}-rotated`;
    expect(config.getApiKey()).toBe(`${KEY}-rotated`);
  });

  it('reads the conventional key variable for a provider id that differs from its preset', () => {
    const env = { OPENAI_API_KEY: KEY };
    let presetOf: (id: string) => 'openai' | undefined = () => undefined;
    const secrets = createCompositeSecretStore(
      createSafeStorageSecretStore({ safeStorage: createCryptoSafeStorage(), file: path.join(dir, 'secrets.bin'), platform: 'linux' }),
      createEnvSecretStore(env, { presetOf: (id) => presetOf(id) }),
    );
    const settings = createSettingsService({ file: path.join(dir, 'settings.json'), secrets, env, systemLocale: 'en' });
    presetOf = (id) => (settings.presetOf(id) === 'openai' ? 'openai' : undefined);
    settings.saveProvider({ ...openai, id: 'work-openai' });
    expect(settings.getSettings().providers[0]).toMatchObject({ keyConfigured: true, keySource: 'env' });
    expect(settings.resolveProvider({ providerId: 'work-openai' }).getApiKey()).toBe(KEY);
  });

  it('reports unset roles, unknown providers and unlisted models with typed errors', () => {
    const settings = createSettingsService({ file: path.join(dir, 'settings.json'), secrets: createEnvSecretStore({}), env: {}, systemLocale: 'en' });
    settings.saveProvider({ ...ollama });
    expect(() => settings.resolveProvider({ role: 'author' })).toThrow(expect.objectContaining({ code: 'LLM_NOT_CONFIGURED' }));
    expect(() => settings.resolveProvider({ providerId: 'ghost' })).toThrow(expect.objectContaining({ code: 'SETTINGS_NOT_FOUND' }));
    expect(() => settings.resolveProvider({ providerId: 'local', model: 'gpt-5' })).toThrow(expect.objectContaining({ code: 'SETTINGS_NOT_FOUND' }));
    const keyless = settings.resolveProvider({ providerId: 'local' });
    expect(keyless.model).toBe('llava');
    expect(keyless.getApiKey()).toBeUndefined();
  });
});
