import { afterEach, describe, expect, it } from 'vitest';
import { createLlmGateway } from '../../../../platform/llm/gateway';
import { openAiStrictIssues, toStrictInstance } from '../../../../platform/llm/strictDialect/index';
import type { LlmProviderConfig } from '../../../../platform/llm/types';
import { startScriptedProvider, type CapturedRequest, type ScriptedProvider, type ScriptStep } from '../../../../testSupport/scriptedProvider/index';
import { OCCT_OPERATION_IDS } from '../occt/operationIds';
import { schemaExamples } from '../../domain/protocol/schemaExample';
import { validateRawArguments } from '../../domain/protocol/tools/toolKit';
import { createCdslCatalog } from '../../application/cdslCatalog';
import { conformanceTools, runGenerationConformance, type ConformanceKey } from '../../application/protocol/conformance';
import { schemaFamilies } from '../../application/protocol/conformanceProbes';
import { createGatewayModel, endpointOf, strictToolDefinition } from './gatewayModel';

const catalog = createCdslCatalog(OCCT_OPERATION_IDS);
const check = (schema: Parameters<typeof catalog.validator.issues>[0], value: unknown, path: string) => catalog.validator.issues(schema, value, path);
const tools = conformanceTools(catalog, check);
const key: ConformanceKey = { protocol: 'chat-completions', baseUrl: 'scripted', model: 'scripted-model', schemaSetHash: 'h' };

let server: ScriptedProvider | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A model over real HTTP: echoes the arguments the conformance user text shows (JSON mode: as the envelope). */
function echo(request: CapturedRequest): ScriptStep {
  const body = request.body as { messages: { role: string; content: unknown }[]; response_format?: unknown };
  const content = body.messages.filter((m) => m.role === 'user').pop()?.content;
  const text = Array.isArray(content) ? String((content[0] as { text: string }).text) : String(content);
  const asked = JSON.parse(text) as { call: string; arguments: Record<string, unknown> };
  return body.response_format ? { text: JSON.stringify({ tool: asked.call, arguments: asked.arguments }) } : { toolCall: { name: asked.call, arguments: asked.arguments } };
}

async function modelOver(script: ScriptStep[] | ((request: CapturedRequest) => ScriptStep), options: { enforce?: boolean; timeoutMs?: number; modes?: ('strict' | 'tool' | 'json')[] } = {}) {
  server = await startScriptedProvider({ script: typeof script === 'function' ? (r) => script(r) : script, enforceOpenAiStrict: options.enforce ?? true });
  const config: LlmProviderConfig = { id: 'chat', protocol: 'chat-completions', baseUrl: server.apiBaseUrl, model: 'scripted-model', getApiKey: () => undefined, ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}) };
  const gateway = createLlmGateway({ provider: config, retry: { maxAttempts: 2, baseDelayMs: 10, maxDelayMs: 50, totalBudgetMs: 3_000 } });
  const endpoint = endpointOf(config);
  return createGatewayModel('chat/scripted-model', gateway, options.modes ? { ...endpoint, modes: options.modes } : endpoint);
}

describe('conformance through the gateway over real HTTP', () => {
  it("a scripted provider that enforces OpenAI's strict-schema rules accepts every schema the product sends in strict mode", async () => {
    for (const tool of tools) {
      const sent = strictToolDefinition('chat-completions', tool);
      if (sent.strict) expect(openAiStrictIssues(sent.parameters), tool.name).toEqual([]);
    }
    for (const family of schemaFamilies(tools).families) {
      const sent = strictToolDefinition('chat-completions', family.probe);
      // The claim drafting tools go compact and not strict; their family probe goes the same way.
      expect(sent.strict ?? false, family.name).toBe(family.name !== 'claims');
      if (sent.strict) expect(openAiStrictIssues(sent.parameters), family.name).toEqual([]);
    }
    const model = await modelOver(echo);
    const report = await runGenerationConformance(model, catalog, check, key, { modes: 'all' });
    expect(Object.fromEntries(Object.entries(report.modes).map(([m, o]) => [m, o.status]))).toEqual({ strict: 'passed', tool: 'passed', json: 'passed' });
    expect(report.mode).toBe('strict');
    const strictBodies = server!.requests.filter((r) => JSON.stringify(r.body).includes('"strict":true'));
    // Every strict-mode probe went strict but the claims family's, which goes compact like its tools.
    expect(strictBodies.length).toBe(report.modes.strict.checks.length - 1);
    const claimsProbe = server!.requests.find((r) => JSON.stringify(r.body).includes('"mode\\":\\"strict\\",\\"call\\":\\"conformance_claims'));
    expect(claimsProbe && JSON.stringify(claimsProbe.body).includes('"strict":true')).toBe(false);
  });

  it('sends a compact-offered drafting tool in strict mode as offered and not strict, every other tool compiled and strict', async () => {
    const batch = tools.find((t) => t.name === 'submit_requirements_draft_batch')!;
    const finalize = tools.find((t) => t.name === 'finalize_requirements_draft')!;
    const model = await modelOver([{ toolCall: { name: finalize.name, arguments: {} } }]);
    await model.turn({ mode: 'strict', system: 's', user: '{}', tools: [batch, finalize], purpose: 'test' });
    const sent = (server!.requests[0]!.body as { tools: { function: { name: string; strict?: boolean; parameters: unknown } }[] }).tools.map((t) => t.function);
    expect(sent.map((t) => [t.name, t.strict ?? false])).toEqual([[batch.name, false], [finalize.name, true]]);
    expect(JSON.stringify(sent[0]!.parameters)).toBe(JSON.stringify(batch.parameters));
    expect(JSON.stringify(sent[0]!.parameters).length).toBeLessThan(JSON.stringify(batch.canonicalParameters).length / 3);
  });

  it("refuses a canonical (non-compiled) schema sent as strict with OpenAI's 400 and fails that mode only", async () => {
    server = await startScriptedProvider({ script: (r) => echo(r), enforceOpenAiStrict: true });
    const config: LlmProviderConfig = { id: 'chat', protocol: 'chat-completions', baseUrl: server.apiBaseUrl, model: 'scripted-model', getApiKey: () => undefined };
    const gateway = createLlmGateway({ provider: config, retry: { maxAttempts: 1, baseDelayMs: 10, maxDelayMs: 10, totalBudgetMs: 100 } });
    const tool = tools.find((t) => t.name === 'review_final')!;
    await expect(gateway.complete({ messages: [{ role: 'user', content: [{ type: 'text', text: 'x' }] }], tools: [{ ...tool, strict: true }], toolChoice: { name: tool.name } })).rejects.toMatchObject({
      code: 'LLM_BAD_REQUEST',
      message: expect.stringContaining("Invalid schema for function 'review_final'"),
    });
  });

  it('maps the nulls a strict model sends for absent optionals back before canonical validation', async () => {
    // A product schema with optional fields: its required-only example goes over the wire with nulls.
    const tool = tools.find((t) => JSON.stringify(toStrictInstance(t.parameters, schemaExamples(t.parameters)[0])).includes('null'))!;
    expect(tool).toBeDefined();
    const [minimal] = schemaExamples(tool.parameters);
    const wire = toStrictInstance(tool.parameters, minimal) as Record<string, unknown>;
    const model = await modelOver([{ toolCall: { name: tool.name, arguments: wire } }]);
    const reply = await model.turn({ mode: 'strict', system: 's', user: '{}', tools: [tool], purpose: 'test' });
    expect(reply.kind).toBe('call');
    const validation = validateRawArguments(tool, reply.kind === 'call' ? reply.rawArguments : '');
    expect(validation.ok && validation.value).toEqual(minimal);
  });

  describe('error mapping', () => {
    it('waits out a 429 with Retry-After and then passes', async () => {
      let first = true;
      const model = await modelOver((r) => (first ? ((first = false), { error: { status: 429, retryAfter: 0 } }) : echo(r)), { modes: ['tool'] });
      const report = await runGenerationConformance(model, catalog, check, key);
      expect(report.passed).toBe(true);
      expect(server!.requests).toHaveLength(report.cost.calls + 1);
    });

    it('throws (stores nothing) when 429s or timeouts outlast the retry budget', async () => {
      const limited = await modelOver(() => ({ error: { status: 429, retryAfter: 0 } }), { modes: ['tool'] });
      await expect(runGenerationConformance(limited, catalog, check, key)).rejects.toMatchObject({ code: 'LLM_TRANSPORT_UNAVAILABLE', retryable: true });
      await server!.close();
      const slow = await modelOver((r) => ({ ...echo(r), delayMs: 400 }), { modes: ['tool'], timeoutMs: 100 });
      await expect(runGenerationConformance(slow, catalog, check, key)).rejects.toMatchObject({ code: 'LLM_TRANSPORT_UNAVAILABLE', retryable: true, data: { lastReason: expect.stringMatching(/timeout/) } });
    });

    it('fails the mode on empty choices, invalid JSON arguments and prose', async () => {
      const faults: Record<string, ScriptStep> = {
        empty_choices: { error: { status: 200, body: { id: 'x', object: 'chat.completion', choices: [] } } },
        invalid_json: { toolCall: { name: 'conformance_claims', arguments: '{"submit_requirements_draft_batch": [' } },
        prose: { text: 'Here you go: {"submit_requirements_draft_batch": []}' },
      };
      for (const [name, step] of Object.entries(faults)) {
        const model = await modelOver([step], { modes: ['tool'] });
        const report = await runGenerationConformance(model, catalog, check, key);
        expect(report.passed, name).toBe(false);
        expect(report.checks, name).toHaveLength(1);
        await server!.close();
        server = undefined;
      }
    });
  });
});
