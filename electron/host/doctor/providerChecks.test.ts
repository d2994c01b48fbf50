import { afterEach, describe, expect, it } from 'vitest';
import { AppError } from '../../../shared/errors';
import type { LlmProviderConfig } from '../../platform/llm';
import { startScriptedProvider, type ScriptedProvider } from '../../testSupport/scriptedProvider';
import { runDoctor } from './doctorCheck';
import { providerCheck, type ProviderCandidate } from './providerChecks';

const KEY = 'sk-system-check-canary-77aa';
const RETRY = { maxAttempts: 2, baseDelayMs: 10, maxDelayMs: 20, totalBudgetMs: 5_000 };

let server: ScriptedProvider | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function candidate(baseUrl: string, key: string | undefined, name = 'My gateway'): ProviderCandidate {
  const config: LlmProviderConfig = { id: 'gw', protocol: 'chat-completions', baseUrl, model: 'scripted-model', getApiKey: () => key };
  return { id: 'gw', name, source: 'settings', resolve: () => config };
}

async function checkOnce(c: ProviderCandidate) {
  const report = await runDoctor([providerCheck(c, { liveModels: false, retry: RETRY })]);
  return report.items[0]!;
}

describe('the system check of a model provider', () => {
  it('is OK only after an authenticated model call answered, and names the provider and model', async () => {
    server = await startScriptedProvider({ script: [{ text: 'pong' }], apiKey: KEY });
    const row = await checkOnce(candidate(server.apiBaseUrl, KEY));
    expect(row).toMatchObject({ status: 'pass', provider: { id: 'gw', name: 'My gateway', model: 'scripted-model' } });
    expect(row.problem).toBeUndefined();
    expect(server.requests.map((r) => [r.method, r.path, r.authMatched])).toEqual([['POST', '/v1/chat/completions', true]]);
  });

  it('fails an address that answers HTTP 404 (reachable is not working), offering to edit the provider', async () => {
    server = await startScriptedProvider({ script: [{ text: 'pong' }], apiKey: KEY });
    const row = await checkOnce(candidate(`${server.baseUrl}/wrong/v1`, KEY));
    expect(row.status).toBe('fail');
    expect(row.problem).toEqual({ code: 'not-found', status: 404, host: new URL(server.baseUrl).host, action: 'edit-provider' });
    expect(row.detail).toContain('LLM_NOT_FOUND');
  });

  it('fails a refused key (HTTP 401) with that reason and never shows the key', async () => {
    server = await startScriptedProvider({ script: [{ text: 'pong' }], apiKey: KEY });
    const row = await checkOnce(candidate(server.apiBaseUrl, `${KEY}-old`));
    expect(row).toMatchObject({ status: 'fail', problem: { code: 'key-refused', status: 401, action: 'edit-provider' } });
    expect(JSON.stringify(row)).not.toContain(KEY);
  });

  it('fails an address where nothing listens as unreachable', async () => {
    server = await startScriptedProvider({ script: [] });
    const closedUrl = server.apiBaseUrl;
    await server.close();
    server = undefined;
    const row = await checkOnce(candidate(closedUrl, KEY));
    expect(row).toMatchObject({ status: 'fail', problem: { code: 'unreachable', action: 'edit-provider' } });
  });

  it('fails a provider without its key as not configured, before sending anything', async () => {
    const missing: ProviderCandidate = {
      id: 'gw',
      name: 'My gateway',
      source: 'settings',
      resolve: () => {
        throw new AppError('LLM_NOT_CONFIGURED', 'Provider "gw" has no API key.');
      },
    };
    const row = await checkOnce(missing);
    expect(row).toMatchObject({ status: 'fail', provider: { id: 'gw', name: 'My gateway' }, problem: { code: 'not-configured', action: 'edit-provider' } });
  });

  it('fails a provider that answers without any text', async () => {
    server = await startScriptedProvider({ script: [{ text: '' }], apiKey: KEY });
    const row = await checkOnce(candidate(server.apiBaseUrl, KEY));
    expect(row).toMatchObject({ status: 'fail', problem: { code: 'no-text' } });
  });
});
