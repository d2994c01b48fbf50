import { AppError } from '../../../shared/errors';
import type { SystemCheckProblem } from '../../../shared/ipc/contracts/platform';
import { createLlmGateway, runLlmConformance, type LlmProviderConfig, type RetryOptions } from '../../platform/llm';
import { describeError, type DoctorCheck } from './doctorCheck';

/** A provider the user configured, in Settings or by environment variables (CLI, MCP servers). */
export interface ProviderCandidate {
  id: string;
  /** What the user calls it: the Settings name, or the preset's name for an environment provider. */
  name: string;
  source: 'settings' | 'environment';
  /** Builds the config; throws LLM_NOT_CONFIGURED when its key (or model) is missing. */
  resolve(): LlmProviderConfig;
}

export interface ProviderCheckOptions {
  /** Also run the capability checks (text, image, forced tool call, tool loop): a few more short requests. */
  liveModels: boolean;
  retry: RetryOptions;
  fetchImpl?: typeof fetch;
  /** The stored result of `cadsight gen check` for a provider/model (the CAD protocol's schemas). */
  protocolCapability?: (providerId: string, model: string) => { passed: boolean; checked_at: string } | undefined;
}

function protocolNote(options: ProviderCheckOptions, providerId: string, model: string): string {
  const stored = options.protocolCapability?.(providerId, model);
  if (!stored) return `CAD protocol schemas not checked (run cadsight gen check --author ${providerId}/${model})`;
  return `CAD protocol schemas ${stored.passed ? 'passed' : 'FAILED'} (cadsight gen check, ${stored.checked_at.slice(0, 10)})`;
}

/** The user-terms reason for a failed model call (the row's `problem`), from the gateway's typed error. */
export function problemOf(error: unknown, baseUrl: string): SystemCheckProblem {
  const host = new URL(baseUrl).host;
  if (!(error instanceof AppError)) return { code: 'rejected', host };
  const status = typeof error.data?.['status'] === 'number' ? error.data['status'] : typeof error.data?.['lastStatus'] === 'number' ? error.data['lastStatus'] : undefined;
  const withStatus = status === undefined ? {} : { status };
  switch (error.code) {
    case 'LLM_NOT_CONFIGURED':
      return { code: 'not-configured', action: 'edit-provider' };
    case 'LLM_AUTH':
      return { code: 'key-refused', host, ...withStatus, action: 'edit-provider' };
    case 'LLM_NOT_FOUND':
      return { code: 'not-found', host, ...withStatus, action: 'edit-provider' };
    case 'LLM_TRANSPORT_UNAVAILABLE':
    case 'LLM_TIMEOUT':
      return { code: 'unreachable', host, ...withStatus, action: 'edit-provider' };
    default:
      return { code: 'rejected', host, ...withStatus, action: 'edit-provider' };
  }
}

/**
 * One row per configured provider. OK only when an authenticated model call answers with text
 * (an address that answers 404, or a refused key, is a failure with its reason); with live
 * checks, also which capabilities pass.
 */
export function providerCheck(candidate: ProviderCandidate, options: ProviderCheckOptions): DoctorCheck {
  return {
    id: `provider:${candidate.id}`,
    group: 'provider',
    label: `Provider ${candidate.name} (${candidate.source})`,
    async run() {
      const subject = { id: candidate.id, name: candidate.name };
      let provider: LlmProviderConfig;
      try {
        provider = candidate.resolve();
      } catch (error) {
        return { status: 'fail', detail: describeError(error), provider: subject, problem: problemOf(error, 'http://unknown') };
      }
      const about = { ...subject, model: provider.model };
      const gateway = createLlmGateway({ provider, retry: options.retry, ...(options.fetchImpl ? { fetch: options.fetchImpl } : {}) });
      let answer: string;
      try {
        answer = (await gateway.complete({ messages: [{ role: 'user', content: [{ type: 'text', text: 'Reply with exactly one word: pong' }] }], maxOutputTokens: 50, purpose: 'system-check' })).text;
      } catch (error) {
        return { status: 'fail', detail: `model ${provider.model}: ${describeError(error)}`, provider: about, problem: problemOf(error, provider.baseUrl) };
      }
      if (answer.trim() === '') {
        return { status: 'fail', detail: `model ${provider.model}: answered without text`, provider: about, problem: { code: 'no-text', host: new URL(provider.baseUrl).host, action: 'edit-provider' } };
      }
      const head = `model ${provider.model} answered an authenticated call; ${protocolNote(options, provider.id, provider.model)}`;
      if (!options.liveModels) return { status: 'pass', detail: `${head}; capabilities not checked (run with model calls)`, provider: about };
      const report = await runLlmConformance(gateway, { providerId: provider.id, protocol: provider.protocol, model: provider.model });
      const passed = report.checks.filter((c) => c.passed).map((c) => c.name);
      const failed = report.checks.filter((c) => !c.passed);
      const detail = `${head}; capabilities: ${passed.join(', ') || 'none'}${failed.length ? `; failed: ${failed.map((c) => `${c.name} (${c.detail})`).join(', ')}` : ''}`;
      // A model that cannot answer text is broken; one that lacks images or tool calls is limited.
      const status = report.capabilities.plainText ? (failed.length ? 'warn' : 'pass') : 'fail';
      return { status, detail, provider: about };
    },
  };
}
