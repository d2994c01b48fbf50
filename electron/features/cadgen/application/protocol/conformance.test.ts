import { describe, expect, it } from 'vitest';
import { AppError } from '../../../../../shared/errors';
import { OCCT_OPERATION_IDS } from '../../adapters/occt/operationIds';
import { schemaExamples } from '../../domain/protocol/schemaExample';
import { createCdslCatalog } from '../cdslCatalog';
import { conformanceTools, runGenerationConformance, type ConformanceKey } from './conformance';
import { probeSchemaOf, schemaFamilies } from './conformanceProbes';
import type { ModelEndpoint, ModelPort, ModelTurn, OutputMode } from './ports';

const catalog = createCdslCatalog(OCCT_OPERATION_IDS);
const check = (schema: Parameters<typeof catalog.validator.issues>[0], value: unknown, path: string) => catalog.validator.issues(schema, value, path);
const key: ConformanceKey = { protocol: 'chat-completions', baseUrl: 'http://127.0.0.1:1/v1', model: 'm', schemaSetHash: 'h' };
const usage = { providerId: 'p', model: 'm', contextBytes: 100, latencyMs: 1, retries: 0 };
const ALL_MODES: ModelEndpoint = { protocol: 'chat-completions', baseUrl: 'http://127.0.0.1:1/v1', model: 'm', modes: ['strict', 'tool', 'json'] };

/** A model that echoes the shown arguments through the named tool; `fail(call, mode)` may throw instead. */
function echoModel(fail?: (call: number, mode: OutputMode | undefined) => AppError | undefined, endpoint?: ModelEndpoint): ModelPort & { calls: number; modes: (OutputMode | undefined)[] } {
  const model = {
    id: 'p/m',
    calls: 0,
    modes: [] as (OutputMode | undefined)[],
    ...(endpoint ? { endpoint } : {}),
    async turn(request: ModelTurn) {
      model.calls += 1;
      model.modes.push(request.mode);
      const error = fail?.(model.calls, request.mode);
      if (error) throw error;
      const asked = JSON.parse(request.user) as { call: string; arguments: unknown };
      return { kind: 'call' as const, name: asked.call, rawArguments: JSON.stringify(asked.arguments), usage };
    },
  };
  return model;
}

describe('generation conformance suite', () => {
  const tools = conformanceTools(catalog, check);
  const { families, invalidMembers } = schemaFamilies(tools);

  it('has valid examples for every fixed tool and every operation fragment schema, grouped into five families', () => {
    expect(invalidMembers).toEqual([]);
    expect(families.map((f) => f.name).sort()).toEqual(['actions', 'claims', 'fragments', 'requirements', 'reviews']);
    expect(families.flatMap((f) => f.members)).toHaveLength(tools.length);
    expect(families.find((f) => f.name === 'fragments')?.members).toHaveLength(catalog.contracts.size);
  });

  it('carries an example of every claim kind and of every optional field of the claim schemas', () => {
    const batch = families.flatMap((f) => f.members).find((m) => m.key === 'submit_requirements_draft_batch');
    const claims = (batch?.examples ?? []).flatMap((e) => (e as { items: { acceptance_claims: { claim_kind: string; [k: string]: unknown }[] }[] }).items.flatMap((i) => i.acceptance_claims));
    expect(new Set(claims.map((c) => c.claim_kind))).toEqual(new Set([...catalog.verifiers.keys()]));
    const tool = tools.find((t) => t.name === 'submit_requirements_draft_batch')!;
    expect(schemaExamples(probeSchemaOf(tool)).length).toBeGreaterThan(catalog.verifiers.size / 2);
  });

  it('passes a model that sends back exactly the shown arguments, with one probe per family plus the two-tool probe', async () => {
    const model = echoModel();
    const report = await runGenerationConformance(model, catalog, check, key);
    expect(report).toMatchObject({ passed: true, mode: 'tool', key, cost: { calls: families.length + 1, requestBytes: (families.length + 1) * 100 } });
    expect(report.modes.strict.status).toBe('not_offered');
    expect(report.checks.map((c) => c.name)).toEqual([...families.map((f) => `family:${f.name}`), 'choice_among_two']);
  });

  it('probes modes in the endpoint order, records each separately and keeps the first that passed', async () => {
    const refusedStrict = (_call: number, mode: OutputMode | undefined) => (mode === 'strict' ? new AppError('LLM_BAD_REQUEST', "Invalid schema for function 'conformance_requirements'", { retryable: false }) : undefined);
    const model = echoModel(refusedStrict, ALL_MODES);
    const report = await runGenerationConformance(model, catalog, check, key);
    expect(report.mode).toBe('tool');
    expect(Object.fromEntries(Object.entries(report.modes).map(([m, o]) => [m, o.status]))).toEqual({ strict: 'failed', tool: 'passed', json: 'not_probed' });
    expect(report.modes.strict.checks).toEqual([expect.objectContaining({ passed: false, detail: expect.stringContaining('LLM_BAD_REQUEST') })]);
    expect(model.calls).toBe(1 + families.length + 1);

    const everyMode = await runGenerationConformance(echoModel(refusedStrict, ALL_MODES), catalog, check, key, { modes: 'all' });
    expect(everyMode.modes.json.status).toBe('passed');
    expect(everyMode.mode).toBe('tool');
  });

  it('fails a mode whose model answers in prose, with invalid JSON or with other arguments', async () => {
    const replies: Record<string, (request: ModelTurn) => Awaited<ReturnType<ModelPort['turn']>>> = {
      prose: () => ({ kind: 'no_call', text: 'Sure! Here are the arguments.', usage }),
      invalid_json: (r) => ({ kind: 'call', name: (JSON.parse(r.user) as { call: string }).call, rawArguments: '{"requirements": [', usage }),
      different: (r) => ({ kind: 'call', name: (JSON.parse(r.user) as { call: string }).call, rawArguments: '{}', usage }),
    };
    for (const [name, reply] of Object.entries(replies)) {
      const report = await runGenerationConformance({ id: 'p/m', turn: async (r) => reply(r) }, catalog, check, key);
      expect(report.passed, name).toBe(false);
      expect(report.mode).toBeNull();
      expect(report.checks).toHaveLength(1);
    }
  });

  it('stops at a provider outage (retryable error) and throws it instead of returning a verdict on the model', async () => {
    const model = echoModel((call) => (call === 2 ? new AppError('LLM_TRANSPORT_UNAVAILABLE', 'connection refused', { retryable: true }) : undefined));
    await expect(runGenerationConformance(model, catalog, check, key)).rejects.toMatchObject({ code: 'LLM_TRANSPORT_UNAVAILABLE', retryable: true });
    expect(model.calls).toBe(2);
  });

  it('refuses an over-long probe request before sending any probe', async () => {
    const model = echoModel();
    await expect(runGenerationConformance(model, catalog, check, key, { maxRequestBytes: 20_000 })).rejects.toMatchObject({ code: 'LLM_CONTEXT_TOO_LARGE', data: { limit: 20_000 } });
    expect(model.calls).toBe(0);
  });
});
