import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { OCCT_OPERATION_IDS } from '../../adapters/occt/operationIds';
import { createCdslCatalog } from '../cdslCatalog';
import { checkModel, conformanceKey, LATEST_CONFORMANCE, requireConformantModel } from './capabilities';
import type { GenerationDeps } from './deps';
import type { ModelEndpoint, ModelPort, ModelTurn, OutputMode } from './ports';

const catalog = createCdslCatalog(OCCT_OPERATION_IDS);
const usage = { providerId: 'p', model: 'm', contextBytes: 10, latencyMs: 1, retries: 0 };

/** Deps with an in-memory capabilities table: only what conformance touches. */
function depsWithStore(): GenerationDeps & { rows: Map<string, { passed: boolean; report: unknown; checked_at: string }> } {
  const rows = new Map<string, { passed: boolean; report: unknown; checked_at: string }>();
  const repo = {
    saveCapabilities: (providerId: string, model: string, passed: boolean, report: unknown) => rows.set(`${providerId}|${model}`, { passed, report: JSON.parse(JSON.stringify(report)) as unknown, checked_at: 'now' }),
    capabilities: (providerId: string, model: string) => rows.get(`${providerId}|${model}`),
  };
  return { repo, catalog, sha256: (text: string) => createHash('sha256').update(text).digest('hex'), rows } as unknown as GenerationDeps & { rows: typeof rows };
}

/** A model at `baseUrl` that echoes every probe, or answers in prose (fails every probe). */
function modelAt(baseUrl: string, conformant: boolean): ModelPort & { calls: number; used: OutputMode[] } {
  const endpoint: ModelEndpoint = { protocol: 'chat-completions', baseUrl, model: 'scripted-model', modes: ['strict', 'tool', 'json'] };
  const model = {
    id: 'chat/scripted-model',
    endpoint,
    calls: 0,
    used: [] as OutputMode[],
    useMode: (mode: OutputMode) => model.used.push(mode),
    async turn(request: ModelTurn) {
      model.calls += 1;
      if (!conformant) return { kind: 'no_call' as const, text: 'I would rather explain.', usage };
      const asked = JSON.parse(request.user) as { call: string; arguments: unknown };
      return { kind: 'call' as const, name: asked.call, rawArguments: JSON.stringify(asked.arguments), usage };
    },
  };
  return model;
}

describe('conformance records keyed by endpoint and schema set', () => {
  it('keys a record by protocol, base URL, model and the hash of the schema set the product sends', () => {
    const deps = depsWithStore();
    const key = conformanceKey(deps, modelAt('http://a/v1', true));
    expect(key).toEqual({ protocol: 'chat-completions', baseUrl: 'http://a/v1', model: 'scripted-model', schemaSetHash: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(conformanceKey(deps, modelAt('http://b/v1', true))).toEqual({ ...key, baseUrl: 'http://b/v1' });
  });

  it('reuses a passed record while the key matches and switches the port to the mode that passed', async () => {
    const deps = depsWithStore();
    const first = modelAt('http://a/v1', true);
    await requireConformantModel(deps, first);
    expect(first.calls).toBeGreaterThan(0);
    expect(first.used).toEqual(['strict', 'strict']);
    const again = modelAt('http://a/v1', true);
    const report = await requireConformantModel(deps, again);
    expect(again.calls).toBe(0);
    expect(again.used).toEqual(['strict']);
    expect(report.mode).toBe('strict');
  });

  it('re-probes the same provider id and model name at another base URL and refuses it with a typed error', async () => {
    const deps = depsWithStore();
    await requireConformantModel(deps, modelAt('http://good/v1', true));
    const swapped = modelAt('http://swapped/v1', false);
    await expect(requireConformantModel(deps, swapped)).rejects.toMatchObject({ code: 'CDSL_MODEL_STRUCTURED_OUTPUT_UNSUPPORTED', data: { key: { baseUrl: 'http://swapped/v1' }, modes: { strict: 'failed', tool: 'failed', json: 'failed' } } });
    expect(swapped.calls).toBe(3);
    expect(swapped.used).toEqual([]);
    // A stored failure is not retried implicitly; `gen check` (checkModel) probes again.
    await expect(requireConformantModel(deps, swapped)).rejects.toMatchObject({ code: 'CDSL_MODEL_STRUCTURED_OUTPUT_UNSUPPORTED' });
    expect(swapped.calls).toBe(3);
    await checkModel(deps, swapped);
    expect(swapped.calls).toBe(6);
    expect((deps.rows.get(`chat/scripted-model|${LATEST_CONFORMANCE}`)?.report as { key: { baseUrl: string } }).key.baseUrl).toBe('http://swapped/v1');
  });
});
