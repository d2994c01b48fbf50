import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../../shared/errors';
import type { GenModelConformance } from '../../../shared/ipc/contracts/generation';
import type { LlmProviderConfig } from '../../platform/llm/types';
import { createFixturePlayer } from '../../testSupport/cadgenPlayer/player';
import { startScriptedProvider, type ScriptedProvider } from '../../testSupport/scriptedProvider/index';
import { openGenerationHarness, readFixture, scriptedConfig, type GenerationHarness } from './generationHandlers.testSupport';

const fixture = readFixture('flange');

let good: ScriptedProvider;
let prose: ScriptedProvider;
let gone: ScriptedProvider;
let h: GenerationHarness;

beforeAll(async () => {
  good = await startScriptedProvider({ script: createFixturePlayer(fixture, {}) });
  prose = await startScriptedProvider({ script: createFixturePlayer(fixture, { nonConformant: true }) });
  // A provider that went away: its port is closed, so calls are refused at connect.
  gone = await startScriptedProvider({ script: [] });
  await gone.close();
  const configs: Record<string, LlmProviderConfig> = {
    chat: scriptedConfig(good),
    prose: scriptedConfig(prose, 'prose'),
    gone: { ...scriptedConfig(gone, 'gone'), timeoutMs: 2_000 },
  };
  const resolveModel = (role: 'author' | 'reviewer', override?: string): LlmProviderConfig => {
    const [id, model] = (override ?? (role === 'author' ? 'chat/scripted-model' : 'chat/reviewer-model')).split('/');
    const config = configs[id ?? ''];
    if (!config) throw new AppError('LLM_NOT_CONFIGURED', `no provider ${id}`);
    return { ...config, model: model ?? config.model };
  };
  h = await openGenerationHarness({ resolveModel });
}, 60_000);

afterAll(async () => {
  await h?.close();
  await good?.close();
  await prose?.close();
});

const status = (models?: string[]): Promise<GenModelConformance[]> => h.call<GenModelConformance[]>('genModelStatus', models ? { models } : {});

describe('genModelStatus and genCheckModel: protocol conformance per model', () => {
  it('reports the role models as unchecked before any check, without calling them', async () => {
    expect(await status()).toEqual([
      { model: 'chat/scripted-model', status: 'unchecked', checkedAt: null, passedChecks: 0, totalChecks: 0, failures: [] },
      { model: 'chat/reviewer-model', status: 'unchecked', checkedAt: null, passedChecks: 0, totalChecks: 0, failures: [] },
    ]);
    expect(good.requests).toHaveLength(0);
  });

  it('runs the conformance suite over HTTP against a conforming model and stores a pass for that model only', async () => {
    const checked = await h.call<GenModelConformance>('genCheckModel', { model: 'chat/scripted-model' });
    expect(checked).toMatchObject({ model: 'chat/scripted-model', status: 'passed', failures: [] });
    // One probe per schema family (claims, requirements, actions, reviews, fragments) plus the two-tool probe, in the first mode that passes.
    expect(checked.totalChecks).toBe(6);
    expect(checked.passedChecks).toBe(checked.totalChecks);
    expect(Number.isNaN(Date.parse(checked.checkedAt ?? ''))).toBe(false);
    // Every probe went over the wire and named the checked model.
    expect(good.requests.length).toBeGreaterThanOrEqual(checked.totalChecks);
    expect(good.requests.every((r) => (r.body as { model?: string }).model === 'scripted-model')).toBe(true);
    expect((await status()).map((s) => [s.model, s.status])).toEqual([
      ['chat/scripted-model', 'passed'],
      ['chat/reviewer-model', 'unchecked'],
    ]);
  });

  it('stores a failure with the failed checks for a model that answers in prose, and genStart then refuses it without calling it again', async () => {
    const checked = await h.call<GenModelConformance>('genCheckModel', { model: 'prose/scripted-model' });
    expect(checked.status).toBe('failed');
    expect(checked.passedChecks).toBe(0);
    expect(checked.failures).toHaveLength(checked.totalChecks);
    expect(checked.failures[0]?.name).toBeTruthy();
    expect((await status(['prose/scripted-model', 'chat/scripted-model', 'chat/never-checked', 'chat/scripted-model'])).map((s) => [s.model, s.status])).toEqual([
      ['prose/scripted-model', 'failed'],
      ['chat/scripted-model', 'passed'],
      ['chat/never-checked', 'unchecked'],
    ]);
    const calls = prose.requests.length;
    expect(await h.refusal('genStart', { request: fixture.request, author: 'prose/scripted-model', reviewer: 'chat/scripted-model' })).toBe('CDSL_MODEL_STRUCTURED_OUTPUT_UNSUPPORTED');
    expect(prose.requests.length).toBe(calls);
    expect(await h.call('genList', {})).toEqual([]);
  });

  it('answers an unknown provider with LLM_NOT_CONFIGURED and a provider that is down with a retryable LLM error, storing nothing', async () => {
    expect(await h.refusal('genCheckModel', { model: 'nowhere/model' })).toBe('LLM_NOT_CONFIGURED');
    const down = await Promise.resolve(h.generation.handlers.genCheckModel({ model: 'gone/scripted-model' }, { transport: 'test' })).then(
      () => null,
      (error: unknown) => error,
    );
    expect(down).toBeInstanceOf(AppError);
    expect((down as AppError).code).toMatch(/^LLM_/);
    expect((down as AppError).retryable).toBe(true);
    expect((await status(['gone/scripted-model', 'nowhere/model'])).map((s) => s.status)).toEqual(['unchecked', 'unchecked']);
  }, 60_000);

  it('leaves out a role that has no model instead of failing the whole status', async () => {
    const unconfigured = h.handlersWith({
      resolveModel: (role) => {
        if (role === 'reviewer') throw new AppError('LLM_NOT_CONFIGURED', 'no reviewer model');
        return scriptedConfig(good);
      },
    });
    expect((await unconfigured.handlers.genModelStatus({}, { transport: 'test' })).map((s) => [s.model, s.status])).toEqual([['chat/scripted-model', 'passed']]);
  });
});
