// npm run bench:conformance — what a first-time generation conformance costs (issue 27.5):
// model calls and request bytes as the provider received them, over real HTTP against the
// scripted provider (which enforces OpenAI's strict-schema rules). Baseline measured in the same
// run: the per-schema suite the product ran before (one request per offered schema, each alone,
// plus the two-tool probe), against the family suite (one request per schema family carrying every
// example) in its default order (stop at the first passing mode) and probing all three modes.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createGatewayModel, endpointOf } from '../../electron/features/cadgen/adapters/llm/gatewayModel';
import { OCCT_OPERATION_IDS } from '../../electron/features/cadgen/adapters/occt/operationIds';
import { createCdslCatalog } from '../../electron/features/cadgen/application/cdslCatalog';
import { conformanceTools, runGenerationConformance, type ConformanceKey } from '../../electron/features/cadgen/application/protocol/conformance';
import { schemaExample } from '../../electron/features/cadgen/domain/protocol/schemaExample';
import { createLlmGateway } from '../../electron/platform/llm/gateway';
import { startScriptedProvider, type CapturedRequest, type ScriptStep } from '../../electron/testSupport/scriptedProvider/index';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const catalog = createCdslCatalog(OCCT_OPERATION_IDS);
const check = (schema: Parameters<typeof catalog.validator.issues>[0], value: unknown, p: string) => catalog.validator.issues(schema, value, p);
const key: ConformanceKey = { protocol: 'chat-completions', baseUrl: 'scripted', model: 'scripted-model', schemaSetHash: 'bench' };

/** A conforming model: echoes the shown arguments (JSON mode: in the {tool, arguments} envelope). */
function echo(request: CapturedRequest): ScriptStep {
  const body = request.body as { messages: { role: string; content: unknown }[]; response_format?: unknown };
  const content = body.messages.filter((m) => m.role === 'user').pop()?.content;
  const asked = JSON.parse(Array.isArray(content) ? String((content[0] as { text: string }).text) : String(content)) as { call: string; arguments: Record<string, unknown> };
  return body.response_format ? { text: JSON.stringify({ tool: asked.call, arguments: asked.arguments }) } : { toolCall: { name: asked.call, arguments: asked.arguments } };
}

async function measure(name: string, run: (model: ReturnType<typeof createGatewayModel>) => Promise<boolean>) {
  const server = await startScriptedProvider({ script: (r) => echo(r), enforceOpenAiStrict: true });
  try {
    const config = { id: 'chat', protocol: 'chat-completions' as const, baseUrl: server.apiBaseUrl, model: 'scripted-model', getApiKey: () => undefined };
    const model = createGatewayModel('chat/scripted-model', createLlmGateway({ provider: config, retry: { maxAttempts: 1, baseDelayMs: 10, maxDelayMs: 10, totalBudgetMs: 1000 } }), endpointOf(config));
    const passed = await run(model);
    const bytes = server.requests.reduce((n, r) => n + r.bodyBytes, 0);
    return { suite: name, passed, calls: server.requests.length, request_bytes: bytes, largest_request_bytes: Math.max(...server.requests.map((r) => r.bodyBytes)) };
  } finally {
    await server.close();
  }
}

const tools = conformanceTools(catalog, check);
const perSchema = await measure('per-schema (before)', async (model) => {
  let ok = true;
  const ask = async (offered: typeof tools, target: (typeof tools)[number]) => {
    const reply = await model.turn({ mode: 'tool', system: 'Conformance check: call the requested tool with exactly the given arguments.', user: JSON.stringify({ conformance: true, call: target.name, arguments: schemaExample(target.parameters) }), tools: offered.map((t) => ({ name: t.name, description: t.description, parameters: t.parameters })), purpose: 'bench' });
    ok &&= reply.kind === 'call';
  };
  for (const tool of tools) await ask([tool], tool);
  await ask([tools[0]!, tools[1]!], tools[1]!);
  return ok;
});
const firstPassing = await measure('family, first passing mode (default)', async (model) => (await runGenerationConformance(model, catalog, check, key)).passed);
const allModes = await measure('family, all three modes recorded', async (model) => (await runGenerationConformance(model, catalog, check, key, { modes: 'all' })).passed);

const ratio = (a: number, b: number) => Math.round((a / b) * 1000) / 1000;
const result = {
  generated_at: new Date().toISOString(),
  schemas: tools.length,
  suites: [perSchema, firstPassing, allModes],
  ratios_vs_per_schema: { first_passing: { calls: ratio(firstPassing.calls, perSchema.calls), bytes: ratio(firstPassing.request_bytes, perSchema.request_bytes) }, all_modes: { calls: ratio(allModes.calls, perSchema.calls), bytes: ratio(allModes.request_bytes, perSchema.request_bytes) } },
  reuse: 'a second run with the same protocol/base URL/model/schema-set key makes 0 calls (capabilities.test.ts)',
};
const md = `# Conformance cost (first time a model is used)

Scripted provider over real HTTP (enforcing OpenAI's strict-schema rules), Chat Completions, ${tools.length} offered schemas. Bytes are request bodies as received.

| suite | passed | calls | request bytes | largest request | calls vs before | bytes vs before |
|---|---|---|---|---|---|---|
${result.suites.map((s) => `| ${s.suite} | ${s.passed} | ${s.calls} | ${s.request_bytes} | ${s.largest_request_bytes} | ${ratio(s.calls, perSchema.calls)} | ${ratio(s.request_bytes, perSchema.request_bytes)} |`).join('\n')}

Reuse: ${result.reuse}.
`;
mkdirSync(path.join(repoRoot, 'bench/results'), { recursive: true });
writeFileSync(path.join(repoRoot, 'bench/results/conformance.json'), `${JSON.stringify(result, null, 2)}\n`);
writeFileSync(path.join(repoRoot, 'bench/results/conformance.md'), md);
process.stdout.write(md);
