import { platformChannels, type SystemCheckReport } from '../../../shared/ipc/contracts/platform';
import type { HandlerTable } from '../../platform/ipc/router';
import { lookup } from 'node:dns/promises';
import { assertResolvedBaseUrl, assertTestableBaseUrl, type HostLookup } from '../../platform/llm/baseUrlPolicy';
import { createLlmGateway } from '../../platform/llm/gateway';
import type { PlatformRuntime } from './platformRuntime';

export interface AppIdentity {
  version: string;
  transport: 'electron' | 'browser';
  systemLocale: string;
}

const CONNECTION_TEST_PROMPT = 'Connection test from CadSight. Reply with the single word OK.';

/** Every address a host name resolves to (the system resolver). */
const systemLookup: HostLookup = async (host) => (await lookup(host, { all: true })).map((entry) => entry.address);

/** Handlers of the platform channels: app info, settings, providers, connection test, system check. */
export function createPlatformHandlers(
  platform: PlatformRuntime,
  identity: AppIdentity,
  runSystemCheck: (options: { liveModels: boolean }) => Promise<SystemCheckReport>,
  hostLookup: HostLookup = systemLookup,
): HandlerTable<typeof platformChannels> {
  const { settings } = platform;
  return {
    getAppInfo: () => ({
      version: identity.version,
      transport: identity.transport,
      dataDir: platform.layout.root,
      systemLocale: identity.systemLocale,
      startupNotices: platform.notices.map((n) => ({ code: n.code, message: n.message })),
    }),
    getSettings: () => settings.getSettings(),
    setLocale: (input) => settings.setLocale(input),
    saveProvider: (input) => settings.saveProvider(input),
    deleteProvider: (input) => settings.deleteProvider(input),
    setRoleModel: (input) => settings.setRoleModel(input),
    setGeneral: (input) => settings.setGeneral(input),
    runSystemCheck: (input) => runSystemCheck(input),
    async testProvider(input) {
      const preset = settings.presetOf(input.id);
      const provider = settings.resolveProvider({ providerId: input.id, ...(input.model ? { model: input.model } : {}) });
      if (preset !== undefined) {
        assertTestableBaseUrl(preset, provider.baseUrl);
        const allowLocalNetwork = settings.getSettings().providers.find((p) => p.id === input.id)?.allowLocalNetwork ?? false;
        await assertResolvedBaseUrl({ id: input.id, preset, baseUrl: provider.baseUrl, allowLocalNetwork }, hostLookup);
      }
      // One attempt, short budget: a connection test should answer quickly and honestly.
      const gateway = createLlmGateway({ provider, retry: { maxAttempts: 1, baseDelayMs: 0, maxDelayMs: 0, totalBudgetMs: 30_000 }, log: platform.log });
      const response = await gateway.complete({
        messages: [{ role: 'user', content: [{ type: 'text', text: CONNECTION_TEST_PROMPT }] }],
        maxOutputTokens: 16,
        purpose: 'settings.testProvider',
      });
      return { ok: true as const, model: response.usage.model, latencyMs: response.usage.latencyMs, reply: response.text.slice(0, 200) };
    },
  };
}
