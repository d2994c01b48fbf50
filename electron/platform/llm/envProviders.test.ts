import { describe, expect, it } from 'vitest';
import { providerFromEnv, providersFromEnv } from './envProviders';
import { providerPresets } from './presets';

describe('providers from environment variables', () => {
  it('builds OpenAI from its key with the preset base URL and default model', () => {
    const provider = providerFromEnv({ OPENAI_API_KEY: 'sk-a' }, 'openai');
    expect(provider).toMatchObject({ id: 'openai', protocol: 'openai-responses', baseUrl: providerPresets.openai.baseUrl, model: providerPresets.openai.defaultModel });
    expect(provider.getApiKey()).toBe('sk-a');
  });

  it('lets base URL, model, timeout and streaming be overridden per provider', () => {
    const env = { CHAT_BASE_URL: 'http://127.0.0.1:8000/v1', CHAT_MODEL: 'qwen2.5-vl', CHAT_TIMEOUT_MS: '5000', TIMEOUT_MS: '9000', CHAT_FORCE_STREAMING: 'true' };
    expect(providerFromEnv(env, 'chat')).toMatchObject({ protocol: 'chat-completions', baseUrl: env.CHAT_BASE_URL, model: 'qwen2.5-vl', timeoutMs: 5000, forceStreaming: true });
    expect(providerFromEnv({ ANTHROPIC_API_KEY: 'k', TIMEOUT_MS: '9000' }, 'anthropic')).toMatchObject({ protocol: 'anthropic-messages', timeoutMs: 9000 });
  });

  it('accepts the picsense key name and the vendor key name, picsense first', () => {
    expect(providerFromEnv({ DASHSCOPE_API_KEY: 'vendor' }, 'qwen').getApiKey()).toBe('vendor');
    expect(providerFromEnv({ QWEN_API_KEY: 'own', DASHSCOPE_API_KEY: 'vendor' }, 'qwen').getApiKey()).toBe('own');
    expect(providerFromEnv({ KIMI_API_KEY: 'k' }, 'kimi').baseUrl).toBe('https://api.moonshot.cn/v1');
  });

  it('reads the key at call time so a rotated key is picked up', () => {
    const env: Record<string, string | undefined> = { DEEPSEEK_API_KEY: 'old' };
    const provider = providerFromEnv(env, 'deepseek');
    env['DEEPSEEK_API_KEY'] = 'new';
    expect(provider.getApiKey()).toBe('new');
  });

  it('needs no key for Ollama and uses its local preset URL', () => {
    const { defaultProvider } = providersFromEnv({ DEFAULT_PROVIDER: 'ollama' });
    expect(defaultProvider).toMatchObject({ id: 'ollama', baseUrl: 'http://127.0.0.1:11434/v1' });
    expect(defaultProvider?.getApiKey()).toBeUndefined();
  });

  it('names the missing variable, never a value, when a provider is incomplete', () => {
    expect(() => providerFromEnv({}, 'zhipu')).toThrow(expect.objectContaining({ code: 'LLM_NOT_CONFIGURED', message: expect.stringContaining('ZHIPU_API_KEY or ZHIPUAI_API_KEY') }));
    expect(() => providerFromEnv({ CHAT_BASE_URL: 'http://x/v1' }, 'chat')).toThrow(expect.objectContaining({ message: expect.stringContaining('CHAT_MODEL') }));
    expect(() => providerFromEnv({ OPENAI_API_KEY: 'k', TIMEOUT_MS: 'soon' }, 'openai')).toThrow(expect.objectContaining({ code: 'LLM_NOT_CONFIGURED' }));
    expect(() => providerFromEnv({}, 'gemini')).toThrow(expect.objectContaining({ code: 'LLM_NOT_CONFIGURED' }));
  });

  it('lists every mentioned provider and honours DEFAULT_PROVIDER', () => {
    const env = { OPENAI_API_KEY: 'a', KIMI_API_KEY: 'b', DEFAULT_PROVIDER: 'kimi' };
    const { providers, defaultProvider } = providersFromEnv(env);
    expect(providers.map((p) => p.id)).toEqual(['openai', 'kimi']);
    expect(defaultProvider?.id).toBe('kimi');
    expect(providersFromEnv({ ANTHROPIC_API_KEY: 'c' }).defaultProvider?.id).toBe('anthropic');
    expect(providersFromEnv({}).defaultProvider).toBeUndefined();
  });

  it('refuses a DEFAULT_PROVIDER that is not configured instead of falling back', () => {
    expect(() => providersFromEnv({ OPENAI_API_KEY: 'a', DEFAULT_PROVIDER: 'qwen' })).toThrow(expect.objectContaining({ code: 'LLM_NOT_CONFIGURED' }));
  });
});
