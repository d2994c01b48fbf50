import { randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { toAppErrorData } from '../../../shared/errors';
import { platformChannels } from '../../../shared/ipc/contracts/platform';
import { createArtifactStore } from '../artifacts/artifactStore';
import { prepareDataDir, type DataDirLayout } from '../dataDir/resolveDataDir';
import { immediate } from '../db/immediate';
import { openDatabase } from '../db/openDatabase';
import { createIpcRouter } from '../ipc/router';
import { createLogger } from '../log/logger';
import { createRedactor } from '../log/redact';
import type { Logger } from '../log/types';
import { createSettingsService, type SettingsService } from '../settings/settingsService';
import { createCompositeSecretStore } from './compositeSecretStore';
import { createCryptoSafeStorage } from './cryptoSafeStorage.testSupport';
import { createEnvSecretStore } from './envSecretStore';
import { createSafeStorageSecretStore } from './safeStorageSecretStore';

/** Every form in which a leaked key could sit in a file or a line. */
function encodings(secret: string): Buffer[] {
  const utf8 = Buffer.from(secret, 'utf8');
  return [utf8, Buffer.from(utf8.toString('base64')), Buffer.from(utf8.toString('hex')), Buffer.from(secret, 'utf16le')];
}

function leaks(haystack: Buffer, secret: string): boolean {
  return encodings(secret).some((needle) => haystack.includes(needle));
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(full) : [full];
  });
}

function fanOut(loggers: Logger[]): Logger {
  return {
    debug: (m, f) => loggers.forEach((l) => l.debug(m, f)),
    info: (m, f) => loggers.forEach((l) => l.info(m, f)),
    warn: (m, f) => loggers.forEach((l) => l.warn(m, f)),
    error: (m, f) => loggers.forEach((l) => l.error(m, f)),
    child: (fields) => fanOut(loggers.map((l) => l.child(fields))),
  };
}

describe('canary API keys', () => {
  let root = '';
  let layout: DataDirLayout;
  const captured: string[] = [];
  beforeEach(() => {
    root = mkdtempSync(path.join(tmpdir(), 'cadsight-canary-'));
    layout = prepareDataDir(path.join(root, 'data'));
    captured.length = 0;
    const capture = (chunk: unknown) => {
      captured.push(String(chunk));
      return true;
    };
    vi.spyOn(process.stdout, 'write').mockImplementation(capture);
    vi.spyOn(process.stderr, 'write').mockImplementation(capture);
  });
  afterEach(() => {
    vi.restoreAllMocks();
    rmSync(root, { recursive: true, force: true });
  });

  it('never appear in the data folder, log output, IPC replies or error data', async () => {
    const storedCanary = `canary-stored-${randomUUID()}`; // no sk- prefix: only registration can catch it
    const envCanary = `canary-env-${randomUUID()}`;
    const canaries = [storedCanary, envCanary];
    const env = { DASHSCOPE_API_KEY: envCanary, CADSIGHT_VISION_PROVIDER: 'qwen' };

    const redactor = createRedactor();
    const log = fanOut([
      createLogger({ sink: path.join(layout.logs, 'cadsight.jsonl'), level: 'debug', redactor, base: { app: 'cadsight' } }),
      createLogger({ sink: (line) => captured.push(line), level: 'debug', redactor }),
    ]);
    let settings: SettingsService | undefined;
    const stored = createSafeStorageSecretStore({ safeStorage: createCryptoSafeStorage(), file: layout.secrets, platform: 'linux', registry: redactor });
    const secrets = createCompositeSecretStore(stored, createEnvSecretStore(env, { presetOf: (id) => settings?.presetOf(id), registry: redactor }));
    settings = createSettingsService({ file: layout.settings, secrets, env, systemLocale: 'zh-CN', log });
    const service = settings;
    const { db } = openDatabase({
      file: layout.database,
      migrations: [{ id: 'canary-001-calls', up: (d) => d.exec('CREATE TABLE calls (id INTEGER PRIMARY KEY, provider TEXT NOT NULL, config TEXT NOT NULL, error TEXT)') }],
      log,
    });
    const artifacts = createArtifactStore(layout.artifacts);
    const router = createIpcRouter(
      platformChannels,
      {
        getAppInfo: () => ({ version: '0.0.0', transport: 'electron' as const, dataDir: layout.root, systemLocale: 'zh-CN', startupNotices: [] }),
        getSettings: () => service.getSettings(),
        setLocale: (input) => service.setLocale(input),
        saveProvider: (input) => service.saveProvider(input),
        deleteProvider: (input) => service.deleteProvider(input),
        setRoleModel: (input) => service.setRoleModel(input),
        setGeneral: (input) => service.setGeneral(input),
        runSystemCheck: () => ({ checkedAt: new Date(0).toISOString(), ok: true, items: [] }),
        testProvider: ({ id, model }) => {
          const config = service.resolveProvider({ providerId: id, ...(model ? { model } : {}) });
          return { ok: true as const, model: config.model, latencyMs: 1, reply: `used key of length ${config.getApiKey()?.length ?? 0}` };
        },
      },
      (channel, error) => log.error('internal error', { channel, error }),
    );
    const replies: unknown[] = [];
    const errors: unknown[] = [];
    const call = async (channel: string, input: unknown) => {
      const result = await router.dispatch(channel, input, { transport: 'test' });
      replies.push(result);
      return result;
    };

    // Save a key through IPC, read settings, test the provider, resolve both roles and providers.
    await call('saveProvider', { id: 'openai', label: 'OpenAI', preset: 'openai', protocol: 'openai-responses', baseUrl: 'https://api.openai.com/v1', models: ['gpt-4.1'], apiKey: storedCanary });
    await call('setRoleModel', { role: 'reviewer', value: { providerId: 'openai', model: 'gpt-4.1' } });
    await call('getSettings', {});
    await call('testProvider', { id: 'openai' });
    await call('testProvider', { id: 'qwen' });
    await call('setRoleModel', { role: 'author', value: { providerId: 'openai', model: 'no-such-model' } });
    await call('saveProvider', { id: 'BAD', apiKey: storedCanary });
    const vision = service.resolveProvider({ role: 'vision' });
    const reviewer = service.resolveProvider({ role: 'reviewer' });
    expect(vision.getApiKey()).toBe(envCanary);
    expect(reviewer.getApiKey()).toBe(storedCanary);

    // A keychain-less machine refuses the key; the error must not carry it.
    const refusing = createSettingsService({
      file: path.join(layout.root, 'settings-refusing.json'),
      secrets: createSafeStorageSecretStore({ safeStorage: createCryptoSafeStorage({ backend: 'basic_text' }), file: path.join(layout.root, 'secrets-refusing.bin'), platform: 'linux' }),
      env: {},
      systemLocale: 'en',
    });
    try {
      refusing.saveProvider({ id: 'openai', label: 'OpenAI', preset: 'openai', protocol: 'openai-responses', baseUrl: 'https://api.openai.com/v1', models: ['gpt-4.1'], apiKey: storedCanary });
    } catch (error) {
      errors.push(toAppErrorData(error));
      log.error('save refused', { error });
    }
    expect(errors).toHaveLength(1);

    // The careless things real code does: log configs, requests with auth headers, URLs, bodies.
    for (const config of [vision, reviewer]) {
      const key = config.getApiKey() as string;
      log.info('llm call', { config, headers: { Authorization: `Bearer ${key}`, 'x-api-key': key }, url: `https://gw.example/v1?api_key=${key}`, body: `key=${key}` });
      log.debug(`raw key in a message: ${key}`);
      immediate(db, () => db.prepare('INSERT INTO calls (provider, config, error) VALUES (?, ?, ?)').run(config.id, JSON.stringify(config), JSON.stringify(errors)));
    }
    await artifacts.put(Buffer.from(JSON.stringify({ settings: service.getSettings(), replies, errors })), { mediaType: 'application/json' });
    process.stdout.write(`${JSON.stringify(redactor.redact({ replies }))}\n`);

    const expectNoLeakInFiles = () => {
      const files = filesUnder(layout.root);
      expect(files).toEqual(expect.arrayContaining([layout.database, layout.settings, layout.secrets, path.join(layout.logs, 'cadsight.jsonl')]));
      for (const file of files) {
        for (const canary of canaries) expect(leaks(readFileSync(file), canary), `${canary} found in ${file}`).toBe(false);
      }
      return files;
    };
    // While open, recent writes sit in the -wal file; after close they are checkpointed into the db.
    expect(expectNoLeakInFiles().some((file) => file.endsWith('-wal'))).toBe(true);
    db.close();
    expectNoLeakInFiles();
    expect(statSync(layout.secrets).size).toBeGreaterThan(0);
    const output = Buffer.from([...captured, JSON.stringify(replies), JSON.stringify(errors)].join('\n'));
    expect(captured.length).toBeGreaterThan(5);
    for (const canary of canaries) expect(leaks(output, canary), `${canary} found in output`).toBe(false);
    // Control: the detector does find a canary where one is.
    expect(leaks(Buffer.from(`x${Buffer.from(storedCanary).toString('base64')}x`), storedCanary)).toBe(true);
  });
});
