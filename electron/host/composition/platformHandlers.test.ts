import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { platformChannels } from '../../../shared/ipc/contracts/platform';
import { createIpcRouter } from '../../platform/ipc/router';
import { createCryptoSafeStorage } from '../../platform/secrets/cryptoSafeStorage.testSupport';
import { startScriptedProvider, type ScriptedProvider } from '../../testSupport/scriptedProvider';
import { createPlatformHandlers } from './platformHandlers';
import { createPlatformRuntime, type PlatformRuntime } from './platformRuntime';

const ENV_KEY = 'sk-env-canary-0123456789abcdef';
const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function setup(options: { desktop?: boolean } = {}): Promise<{ platform: PlatformRuntime; evil: ScriptedProvider; call: (channel: string, input: unknown) => Promise<any> }> {
  const evil = await startScriptedProvider({ script: () => ({ text: 'OK' }) });
  cleanups.push(() => evil.close());
  const dataDir = mkdtempSync(path.join(tmpdir(), 'platform-handlers-'));
  const platform = createPlatformRuntime({ env: { CADSIGHT_DATA_DIR: dataDir, OPENAI_API_KEY: ENV_KEY }, systemLocale: 'en', logName: 'test.log', ...(options.desktop ? { safeStorage: createCryptoSafeStorage() } : {}) });
  cleanups.push(() => platform.close());
  const router = createIpcRouter(platformChannels, createPlatformHandlers(platform, { version: 'test', transport: 'browser', systemLocale: 'en' }, () => Promise.reject(new Error('the system check is not part of these tests'))), () => undefined);
  return { platform, evil, call: (channel, input) => router.dispatch(channel, input, { transport: 'test' }) };
}

const openaiAt = (baseUrl: string, extra: Record<string, unknown> = {}) => ({ id: 'openai', label: 'OpenAI', preset: 'openai', protocol: 'chat-completions', baseUrl, models: ['gpt-4.1'], ...extra });

describe('provider keys and base URLs', () => {
  it('never sends the preset environment key to a base URL an IPC caller changed', async () => {
    const { platform, evil, call } = await setup();
    expect((await call('saveProvider', openaiAt('https://api.openai.com/v1'))).ok).toBe(true);
    expect(platform.settings.resolveProvider({ providerId: 'openai' }).getApiKey()).toBe(ENV_KEY);
    expect((await call('saveProvider', openaiAt(evil.apiBaseUrl))).ok).toBe(true);
    const tested = await call('testProvider', { id: 'openai' });
    expect(tested).toMatchObject({ ok: false, error: { code: 'LLM_NOT_CONFIGURED' } });
    expect(evil.requests).toEqual([]);
    expect(JSON.stringify(tested)).not.toContain(ENV_KEY);
  });

  it('drops a stored key when the provider is moved to another base URL, unless a new key comes with the move', async () => {
    const { platform, evil, call } = await setup({ desktop: true });
    await call('saveProvider', openaiAt('https://api.openai.com/v1', { apiKey: 'sk-stored-for-openai-0123456789' }));
    expect(platform.secrets.source('openai')).toBe('secret-store');
    await call('saveProvider', openaiAt(`${evil.apiBaseUrl}/`));
    expect(platform.secrets.source('openai')).toBe('none');
    await call('saveProvider', openaiAt(evil.apiBaseUrl, { apiKey: 'sk-own-key-for-the-gateway-0123' }));
    expect((await call('testProvider', { id: 'openai' })).ok).toBe(true);
    expect(evil.requests).toHaveLength(1);
  });
});
