import { AppError } from '../../../shared/errors';
import { createLlmGateway, runLlmConformance, type LlmProviderConfig, type RetryOptions } from '../../platform/llm';
import type { DoctorCheck } from './doctorCheck';

/** A provider the user configured, in Settings or by environment variables (CLI, MCP servers). */
export interface ProviderCandidate {
  id: string;
  source: 'settings' | 'environment';
  /** Builds the config; throws LLM_NOT_CONFIGURED when its key (or model) is missing. */
  resolve(): LlmProviderConfig;
}

export interface ProviderCheckOptions {
  /** Also run the capability checks (text, image, forced tool call, tool loop): a few short requests. */
  liveModels: boolean;
  retry: RetryOptions;
  fetchImpl?: typeof fetch;
  reachTimeoutMs?: number;
  /** The stored result of `cadsight gen check` for a provider/model (the CAD protocol's schemas). */
  protocolCapability?: (providerId: string, model: string) => { passed: boolean; checked_at: string } | undefined;
}

function protocolNote(options: ProviderCheckOptions, providerId: string, model: string): string {
  const stored = options.protocolCapability?.(providerId, model);
  if (!stored) return `CAD protocol schemas not checked (run cadsight gen check --author ${providerId}/${model})`;
  return `CAD protocol schemas ${stored.passed ? 'passed' : 'FAILED'} (cadsight gen check, ${stored.checked_at.slice(0, 10)})`;
}

/** Any HTTP answer from the base URL means the host is up; only the status is read, no key is sent. */
async function reachable(baseUrl: string, fetchImpl: typeof fetch, timeoutMs: number): Promise<string> {
  try {
    const response = await fetchImpl(baseUrl, { method: 'GET', redirect: 'manual', signal: AbortSignal.timeout(timeoutMs) });
    await response.body?.cancel();
    return `reachable (HTTP ${response.status})`;
  } catch (error) {
    const reason = error instanceof Error && error.name === 'TimeoutError' ? `no answer within ${timeoutMs} ms` : 'connection failed';
    throw new AppError('LLM_TRANSPORT_UNAVAILABLE', `${new URL(baseUrl).host}: ${reason}`, { retryable: true });
  }
}

/** One row per configured provider: key present, host reachable, and (live) which capabilities pass. */
export function providerCheck(candidate: ProviderCandidate, options: ProviderCheckOptions): DoctorCheck {
  return {
    id: `provider:${candidate.id}`,
    group: 'provider',
    label: `Provider ${candidate.id} (${candidate.source})`,
    async run() {
      const provider = candidate.resolve();
      const key = provider.getApiKey() ? 'key present' : 'no key (keyless gateway)';
      const reach = await reachable(provider.baseUrl, options.fetchImpl ?? fetch, options.reachTimeoutMs ?? 5000);
      const head = `model ${provider.model}: ${key}, ${reach}; ${protocolNote(options, provider.id, provider.model)}`;
      if (!options.liveModels) return { status: 'pass', detail: `${head}; capabilities not checked (run with model calls)` };
      const gateway = createLlmGateway({ provider, retry: options.retry });
      const report = await runLlmConformance(gateway, { providerId: provider.id, protocol: provider.protocol, model: provider.model });
      const passed = report.checks.filter((c) => c.passed).map((c) => c.name);
      const failed = report.checks.filter((c) => !c.passed);
      const detail = `${head}; capabilities: ${passed.join(', ') || 'none'}${failed.length ? `; failed: ${failed.map((c) => `${c.name} (${c.detail})`).join(', ')}` : ''}`;
      // A model that cannot answer text is broken; one that lacks images or tool calls is limited.
      const status = report.capabilities.plainText ? (failed.length ? 'warn' : 'pass') : 'fail';
      return { status, detail };
    },
  };
}
