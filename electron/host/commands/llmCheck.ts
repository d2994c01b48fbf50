import { parseArgs } from 'node:util';
import { AppError } from '../../../shared/errors';
import { createLlmGateway, envProviderIds, providerFromEnv, runLlmConformance, type ConformanceReport } from '../../platform/llm';

const USAGE = `Usage: cadsight llm-check --provider <${envProviderIds.join('|')}> [--model <id>] [--json]

Checks that a configured provider/model can do what CadSight needs: plain text, image input,
a forced single tool call (raw arguments) and a tool loop. The provider comes from the
environment: <ID>_API_KEY, <ID>_BASE_URL, <ID>_MODEL (e.g. OPENAI_API_KEY, CHAT_BASE_URL,
ANTHROPIC_MODEL, QWEN_API_KEY), TIMEOUT_MS. Exit code 0 when every check passes, 1 otherwise.
`;

/** Retries are bounded tightly: a conformance run should report a broken provider quickly. */
const CHECK_RETRY = { maxAttempts: 3, baseDelayMs: 500, maxDelayMs: 8000, totalBudgetMs: 60_000 };

function table(report: ConformanceReport): string {
  const rows = report.checks.map((c) => `  ${c.name.padEnd(16)} ${(c.passed ? 'pass' : 'FAIL').padEnd(6)} ${c.detail}`);
  const passed = report.checks.filter((c) => c.passed).length;
  return [
    `llm-check: provider ${report.providerId} (${report.protocol}), model ${report.model}`,
    `  ${'CHECK'.padEnd(16)} ${'RESULT'.padEnd(6)} DETAIL`,
    ...rows,
    `${passed}/${report.checks.length} checks passed`,
    '',
  ].join('\n');
}

/**
 * `cadsight llm-check`: the provider conformance suite (see USAGE). Shaped as registry.ts's
 * CliCommand; the type is not imported because registry.ts imports this module (a cycle).
 */
export const llmCheckCommand = {
  name: 'llm-check',
  summary: 'Check an LLM provider: text, image, forced tool call, tool loop',
  async run(args: string[]): Promise<number> {
    let values: { provider?: string; model?: string; json?: boolean; help?: boolean };
    try {
      ({ values } = parseArgs({ args, options: { provider: { type: 'string' }, model: { type: 'string' }, json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } }, strict: true }));
    } catch (error) {
      process.stderr.write(`cadsight llm-check: ${error instanceof Error ? error.message : String(error)}\n\n${USAGE}`);
      return 2;
    }
    if (values.help) {
      process.stdout.write(USAGE);
      return 0;
    }
    if (!values.provider) throw new AppError('LLM_NOT_CONFIGURED', `--provider is required (one of: ${envProviderIds.join(', ')}).`);
    const configured = providerFromEnv(process.env, values.provider);
    const provider = values.model ? { ...configured, model: values.model } : configured;
    const gateway = createLlmGateway({ provider, retry: CHECK_RETRY });
    const report = await runLlmConformance(gateway, { providerId: provider.id, protocol: provider.protocol, model: provider.model });
    process.stdout.write(values.json ? `${JSON.stringify(report, null, 2)}\n` : table(report));
    return report.checks.every((c) => c.passed) ? 0 : 1;
  },
};
