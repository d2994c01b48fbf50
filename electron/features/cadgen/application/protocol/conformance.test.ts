import { describe, expect, it } from 'vitest';
import { AppError } from '../../../../../shared/errors';
import { OCCT_OPERATION_IDS } from '../../adapters/occt/operationIds';
import { schemaExample } from '../../domain/protocol/schemaExample';
import { createCdslCatalog } from '../cdslCatalog';
import { conformanceTools, runGenerationConformance } from './conformance';
import type { ModelPort, ModelTurn } from './ports';

const catalog = createCdslCatalog(OCCT_OPERATION_IDS);
const check = (schema: Parameters<typeof catalog.validator.issues>[0], value: unknown, path: string) => catalog.validator.issues(schema, value, path);
const usage = { providerId: 'p', model: 'm', contextBytes: 1, latencyMs: 1, retries: 0 };
/** A model that echoes the shown arguments through the named tool, or throws `fail` on call number `failAt`. */
function echoModel(failAt?: number, fail?: AppError): ModelPort & { calls: number } {
  const model = {
    id: 'p/m',
    calls: 0,
    async turn(request: ModelTurn) {
      model.calls += 1;
      if (model.calls === failAt) throw fail;
      const asked = JSON.parse(request.user) as { call: string; arguments: unknown };
      return { kind: 'call' as const, name: asked.call, rawArguments: JSON.stringify(asked.arguments), usage };
    },
  };
  return model;
}

describe('generation conformance suite', () => {
  it('has a valid example instance for every fixed tool and every offered operation fragment schema', () => {
    const tools = conformanceTools(catalog, check);
    const fragments = tools.filter((t) => t.name === 'submit_cdsl_fragment');
    expect(fragments).toHaveLength(catalog.contracts.size);
    expect(new Set(tools.filter((t) => t.name !== 'submit_cdsl_fragment').map((t) => t.name)).size).toBe(15);
    for (const tool of tools) {
      const example = schemaExample(tool.canonicalParameters ?? tool.parameters);
      const result = tool.validate(example);
      expect(result.ok, `${tool.name} ${String(JSON.stringify(example)).slice(0, 200)} ${JSON.stringify(result)}`.slice(0, 600)).toBe(true);
    }
  });

  it('passes a model that sends back exactly the shown arguments through every offered tool', async () => {
    const model = echoModel();
    const report = await runGenerationConformance(model, catalog, check);
    expect(report.passed).toBe(true);
    expect(report.checks).toHaveLength(conformanceTools(catalog, check).length + 1);
    expect(model.calls).toBe(report.checks.length);
  });

  it('counts a refused request (non-retryable) as a failed check and keeps going', async () => {
    const report = await runGenerationConformance(echoModel(3, new AppError('LLM_BAD_REQUEST', 'schema keyword not supported', { retryable: false })), catalog, check);
    expect(report.passed).toBe(false);
    expect(report.checks.filter((c) => !c.passed)).toEqual([expect.objectContaining({ detail: expect.stringContaining('LLM_BAD_REQUEST') })]);
  });

  it('stops at a provider outage (retryable error) and throws it instead of returning a verdict on the model', async () => {
    const model = echoModel(2, new AppError('LLM_TRANSPORT_UNAVAILABLE', 'connection refused', { retryable: true }));
    await expect(runGenerationConformance(model, catalog, check)).rejects.toMatchObject({ code: 'LLM_TRANSPORT_UNAVAILABLE', retryable: true });
    expect(model.calls).toBe(2);
  });
});
