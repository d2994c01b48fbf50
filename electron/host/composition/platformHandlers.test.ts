import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
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

async function setup(options: { desktop?: boolean; hostLookup?: (host: string) => Promise<string[]> } = {}): Promise<{ platform: PlatformRuntime; evil: ScriptedProvider; call: (channel: string, input: unknown) => Promise<any> }> {
  const evil = await startScriptedProvider({ script: () => ({ text: 'OK' }) });
  cleanups.push(() => evil.close());
  const dataDir = mkdtempSync(path.join(tmpdir(), 'platform-handlers-'));
  const platform = createPlatformRuntime({ env: { CADSIGHT_DATA_DIR: dataDir, OPENAI_API_KEY: ENV_KEY }, systemLocale: 'en', logName: 'test.log', ...(options.desktop ? { safeStorage: createCryptoSafeStorage() } : {}) });
  cleanups.push(() => platform.close());
  const router = createIpcRouter(platformChannels, createPlatformHandlers(platform, { version: 'test', transport: 'browser', systemLocale: 'en' }, () => Promise.reject(new Error('the system check is not part of these tests')), options.hostLookup), () => undefined);
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
    await call('saveProvider', openaiAt('https://gateway.example/v1', { apiKey: 'sk-own-key-for-the-gateway-0123' }));
    expect(platform.secrets.source('openai')).toBe('secret-store');
    expect(platform.settings.resolveProvider({ providerId: 'openai' }).getApiKey()).toBe('sk-own-key-for-the-gateway-0123');
  });
});

describe('provider connection tests as a probe of local services', () => {
  it('refuses a host name that resolves to a private or loopback address (DNS rebinding) without sending anything', async () => {
    const names: Record<string, string[]> = { 'rebind.example': ['93.184.216.34', '127.0.0.1'], 'intranet.example': ['10.20.30.40'] };
    const { evil, call } = await setup({ desktop: true, hostLookup: async (host) => names[host] ?? [] });
    for (const name of Object.keys(names)) {
      await call('saveProvider', openaiAt(`http://${name}/v1`, { apiKey: 'sk-typed-for-this-test-0123456789' }));
      const tested = await call('testProvider', { id: 'openai' });
      expect(tested, name).toMatchObject({ ok: false, error: { code: 'SETTINGS_BASE_URL_NOT_ALLOWED', data: { host: name, address: names[name]!.find((a) => a !== '93.184.216.34') } } });
    }
    // A Custom gateway the user confirmed as local may resolve to a private address.
    await call('saveProvider', { id: 'lab', label: 'Lab', preset: 'custom', protocol: 'chat-completions', baseUrl: 'http://intranet.example/v1', models: ['m'], allowLocalNetwork: true });
    expect(await call('testProvider', { id: 'lab' })).not.toMatchObject({ error: { code: 'SETTINGS_BASE_URL_NOT_ALLOWED' } });
    expect(evil.requests).toEqual([]);
  });

  it('refuses a hosted preset pointed at this machine or a private network without sending anything', async () => {
    const { evil, call } = await setup({ desktop: true });
    for (const host of [evil.apiBaseUrl, evil.apiBaseUrl.replace('127.0.0.1', 'localhost'), evil.apiBaseUrl.replace('127.0.0.1', '127.1'), 'http://[::1]:9/v1', 'http://10.1.2.3/v1', 'http://192.168.0.1/v1', 'http://169.254.169.254/latest']) {
      await call('saveProvider', openaiAt(host, { apiKey: 'sk-typed-for-this-test-0123456789' }));
      const tested = await call('testProvider', { id: 'openai' });
      expect(tested, host).toMatchObject({ ok: false, error: { code: 'SETTINGS_BASE_URL_NOT_ALLOWED' } });
    }
    expect(evil.requests).toEqual([]);
  });

  it('tests and uses a Custom provider on a local address only after the user confirmed it', async () => {
    const { platform, evil, call } = await setup();
    const lan = { id: 'lan', label: 'LAN gateway', preset: 'custom', protocol: 'chat-completions', baseUrl: evil.apiBaseUrl, models: ['scripted-model'] } as const;
    const saved = await call('saveProvider', lan);
    expect(saved).toMatchObject({ ok: true, value: { providers: [expect.objectContaining({ id: 'lan', allowLocalNetwork: false })] } });
    const refused = await call('testProvider', { id: 'lan' });
    expect(refused).toMatchObject({ ok: false, error: { code: 'SETTINGS_BASE_URL_NOT_ALLOWED', data: { providerId: 'lan' } } });
    expect(refused.ok === false && refused.error.message).toContain('Allow this local or private address');
    // Every other gateway call resolves the provider the same way, so a review or vision call is refused too.
    expect(() => platform.settings.resolveProvider({ providerId: 'lan' })).toThrow(expect.objectContaining({ code: 'SETTINGS_BASE_URL_NOT_ALLOWED' }));
    expect(evil.requests).toEqual([]);

    await call('saveProvider', { ...lan, allowLocalNetwork: true });
    expect(await call('testProvider', { id: 'lan' })).toMatchObject({ ok: true, value: { reply: 'OK' } });
    expect(evil.requests).toHaveLength(1);
  });

  it('needs no confirmation for Ollama, which is local by design', async () => {
    const { evil, call } = await setup();
    await call('saveProvider', { id: 'ollama', label: 'Ollama', preset: 'ollama', protocol: 'chat-completions', baseUrl: evil.apiBaseUrl, models: ['scripted-model'] });
    expect(await call('testProvider', { id: 'ollama' })).toMatchObject({ ok: true, value: { reply: 'OK' } });
  });

  it('refuses link-local and cloud metadata addresses for every preset, Ollama and a confirmed Custom gateway included, without sending anything', async () => {
    const { evil, call } = await setup({ desktop: true, hostLookup: async (host) => (host === 'imds.example' ? ['169.254.169.254'] : []) });
    const targets = ['http://169.254.169.254/latest', 'http://2852039166/v1', 'http://0xa9.0xfe.0xa9.0xfe/v1', 'http://[::ffff:169.254.169.254]/v1', 'http://[fe80::1]:11434/v1', 'http://metadata.google.internal./v1', 'http://100.100.100.200/v1', 'http://imds.example/v1'];
    for (const baseUrl of targets) {
      for (const provider of [
        { id: 'ollama', label: 'Ollama', preset: 'ollama', protocol: 'chat-completions', baseUrl, models: ['m'] },
        { id: 'lab', label: 'Lab', preset: 'custom', protocol: 'chat-completions', baseUrl, models: ['m'], allowLocalNetwork: true },
        openaiAt(baseUrl, { apiKey: 'sk-typed-for-this-test-0123456789' }),
      ]) {
        await call('saveProvider', provider);
        const tested = await call('testProvider', { id: provider.id });
        expect(tested, `${provider.preset} ${baseUrl}`).toMatchObject({ ok: false, error: { code: 'SETTINGS_BASE_URL_NOT_ALLOWED', data: { reason: 'link-local-or-metadata' } } });
      }
    }
    expect(evil.requests).toEqual([]);
  });

  it('answers a test of Ollama pointed at another local service with the status only, never that service\'s body', async () => {
    const secret = 'INTERNAL-ADMIN-TOKEN-42';
    const bodies = [`<html><body>router admin ${secret}</body></html>`, JSON.stringify({ message: `config ${secret}`, detail: secret }), JSON.stringify({ status: 'error', data: secret })];
    let next = 0;
    const other = createServer((_req, res) => {
      res.writeHead(next % 2 === 0 ? 404 : 400, { 'content-type': next % 2 === 0 ? 'text/html' : 'application/json' });
      res.end(bodies[next++ % bodies.length]);
    });
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => new Promise((resolve) => other.close(resolve)));
    const { call } = await setup();
    await call('saveProvider', { id: 'ollama', label: 'Ollama', preset: 'ollama', protocol: 'chat-completions', baseUrl: `http://127.0.0.1:${(other.address() as AddressInfo).port}/v1`, models: ['m'] });
    for (let i = 0; i < bodies.length; i += 1) {
      const tested = await call('testProvider', { id: 'ollama' });
      expect(tested).toMatchObject({ ok: false, error: { code: expect.stringMatching(/^LLM_(NOT_FOUND|BAD_REQUEST)$/), data: { status: expect.any(Number) } } });
      expect(JSON.stringify(tested)).not.toContain(secret);
      expect(tested.error.data).not.toHaveProperty('providerMessage');
    }
  });
});
