import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyEnvOverrides, SETTINGS_ENV_VARIABLES } from './envOverrides';
import { defaultSettings, settingsFileSchema, type SettingsFile } from './schema';

const withProvider = (): SettingsFile =>
  settingsFileSchema.parse({
    version: 1,
    providers: [{ id: 'my-vllm', label: 'vLLM', preset: 'custom', protocol: 'chat-completions', baseUrl: 'http://127.0.0.1:8000/v1', models: ['qwen2-vl'], forceStreaming: true }],
    roles: { vision: { providerId: 'my-vllm', model: 'qwen2-vl' } },
  });

describe('applyEnvOverrides', () => {
  it('returns the file settings untouched when no variable is set', () => {
    const file = withProvider();
    expect(applyEnvOverrides(file, { PATH: '/usr/bin' })).toEqual({ settings: file, envOverrides: [] });
  });

  it('overrides locale, CAD endpoint, allowed roots and limits and reports each field', () => {
    const roots = ['/data/a', '/data/b'].join(path.delimiter);
    const { settings, envOverrides } = applyEnvOverrides(defaultSettings(), {
      CADSIGHT_LOCALE: 'en',
      CADSIGHT_CAD_HOST: '10.0.0.5',
      CADSIGHT_CAD_PORT: '9000',
      CADSIGHT_CAD_ALLOW_REMOTE: '1',
      CADSIGHT_ALLOWED_ROOTS: roots,
      CADSIGHT_MAX_IMAGE_EDGE: '2048',
    });
    expect(settings.locale).toBe('en');
    expect(settings.cad).toEqual({ host: '10.0.0.5', port: 9000, allowRemote: true });
    expect(settings.allowedRoots).toEqual(['/data/a', '/data/b']);
    expect(settings.limits.maxImageEdge).toBe(2048);
    expect(envOverrides).toEqual(['locale', 'cad.host', 'cad.port', 'cad.allowRemote', 'allowedRoots', 'limits.maxImageEdge']);
  });

  it('creates a provider from a preset for a role configured only by environment', () => {
    const { settings, envOverrides } = applyEnvOverrides(defaultSettings(), { CADSIGHT_VISION_PROVIDER: 'qwen', CADSIGHT_VISION_MODEL: 'qwen-vl-plus' });
    expect(settings.providers).toEqual([
      expect.objectContaining({ id: 'qwen', preset: 'qwen', protocol: 'chat-completions', baseUrl: 'https://dashscope.aliyuncs.com/compatible-mode/v1', models: ['qwen-vl-plus'] }),
    ]);
    expect(settings.roles.vision).toEqual({ providerId: 'qwen', model: 'qwen-vl-plus' });
    expect(envOverrides).toEqual(['providers.qwen', 'roles.vision']);
  });

  it('switches only the model of a role chosen in the file and overrides its base URL', () => {
    const { settings, envOverrides } = applyEnvOverrides(withProvider(), { CADSIGHT_VISION_MODEL: 'llava', CADSIGHT_VISION_BASE_URL: 'http://127.0.0.1:9999/v1' });
    expect(settings.roles.vision).toEqual({ providerId: 'my-vllm', model: 'llava' });
    expect(settings.providers[0]?.models).toEqual(['qwen2-vl', 'llava']);
    expect(settings.providers[0]?.baseUrl).toBe('http://127.0.0.1:9999/v1');
    expect(envOverrides).toEqual(['providers.my-vllm.baseUrl', 'roles.vision']);
  });

  it.each([
    [{ CADSIGHT_LOCALE: 'fr' }, 'CADSIGHT_LOCALE'],
    [{ CADSIGHT_CAD_PORT: '80a' }, 'CADSIGHT_CAD_PORT'],
    [{ CADSIGHT_CAD_ALLOW_REMOTE: 'yes' }, 'CADSIGHT_CAD_ALLOW_REMOTE'],
    [{ CADSIGHT_ALLOWED_ROOTS: 'relative/dir' }, 'CADSIGHT_ALLOWED_ROOTS'],
    [{ CADSIGHT_LLM_TIMEOUT_MS: '5' }, 'CADSIGHT_LLM_TIMEOUT_MS'],
    [{ CADSIGHT_REVIEWER_PROVIDER: 'nobody' }, 'CADSIGHT_REVIEWER_PROVIDER'],
    [{ CADSIGHT_AUTHOR_MODEL: 'gpt' }, 'CADSIGHT_AUTHOR_PROVIDER'],
    [{ CADSIGHT_AUTHOR_PROVIDER: 'custom', CADSIGHT_AUTHOR_MODEL: 'm' }, 'CADSIGHT_AUTHOR_BASE_URL'],
    [{ CADSIGHT_AUTHOR_PROVIDER: 'custom', CADSIGHT_AUTHOR_BASE_URL: 'http://127.0.0.1:1/v1' }, 'CADSIGHT_AUTHOR_MODEL'],
    [{ CADSIGHT_AUTHOR_PROVIDER: 'openai', CADSIGHT_AUTHOR_BASE_URL: 'not a url' }, 'CADSIGHT_AUTHOR_BASE_URL'],
  ])('refuses %o with SETTINGS_INVALID naming %s but not the value', (env, variable) => {
    let thrown: unknown;
    try {
      applyEnvOverrides(defaultSettings(), env);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toMatchObject({ code: 'SETTINGS_INVALID', data: { env: variable } });
    const value = Object.values(env).at(-1) as string;
    if (value.length > 3) expect((thrown as Error).message).not.toContain(value);
  });

  it('documents every variable it reads', () => {
    for (const name of ['CADSIGHT_LOCALE', 'CADSIGHT_CAD_HOST', 'CADSIGHT_CAD_PORT', 'CADSIGHT_ALLOWED_ROOTS', 'CADSIGHT_ROLE_PROVIDER', 'CADSIGHT_LLM_TIMEOUT_MS']) {
      expect(SETTINGS_ENV_VARIABLES).toHaveProperty(name);
    }
  });

  it('accepts exactly the ports 1..65535 from CADSIGHT_CAD_PORT', () => {
    fc.assert(
      fc.property(fc.integer({ min: -100_000, max: 200_000 }), (port) => {
        const apply = () => applyEnvOverrides(defaultSettings(), { CADSIGHT_CAD_PORT: String(port) });
        if (port >= 1 && port <= 65535) expect(apply().settings.cad.port).toBe(port);
        else expect(apply).toThrow(expect.objectContaining({ code: 'SETTINGS_INVALID' }));
      }),
    );
  });

  it('never changes the file settings object it was given', () => {
    fc.assert(
      fc.property(fc.constantFrom('en', 'zh-CN'), fc.integer({ min: 1, max: 65535 }), (locale, port) => {
        const file = withProvider();
        const before = structuredClone(file);
        applyEnvOverrides(file, { CADSIGHT_LOCALE: locale, CADSIGHT_CAD_PORT: String(port), CADSIGHT_VISION_MODEL: 'other', CADSIGHT_VISION_BASE_URL: 'http://h/v1' });
        expect(file).toEqual(before);
      }),
      { numRuns: 30 },
    );
  });
});
