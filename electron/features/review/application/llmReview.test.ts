import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startScriptedProvider, type ScriptStep, type ScriptedProvider } from '../../../testSupport/scriptedProvider';
import { createLlmGateway } from '../../../platform/llm/index';
import { openDatabase } from '../../../platform/db/openDatabase';
import type { SqliteDatabase } from '../../../platform/db/types';
import { parseChecklist } from '../domain/checklist';
import { reviewMigrations } from '../adapters/reviewMigrations';
import { createSqliteReviewStore } from '../adapters/sqliteReviewStore';
import { createFolderOutput } from '../adapters/folderOutput';
import type { ReviewStore } from '../ports/reviewStore';
import { startReview } from './reviewRunner';
import { createFakeBackend, threeFrameDrawing } from './testkit/fakeDrawing';
import { preflightReply } from '../../../testSupport/reviewScripts/preflight';
import { providerPresets, type ProviderQuirks } from '../../../../shared/llmPresets';

const checklist = parseChecklist(readFileSync(path.resolve(__dirname, '../../../../resources/checklist/review_checklist.json'), 'utf8'), 'default');

let dir: string;
let db: SqliteDatabase;
let store: ReviewStore;
let provider: ScriptedProvider | undefined;

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'review-llm-'));
  db = openDatabase({ file: path.join(dir, 'cadsight.db'), migrations: reviewMigrations }).db;
  store = createSqliteReviewStore(db, () => new Date());
});
afterEach(async () => {
  db.close();
  await provider?.close();
  provider = undefined;
});

const submit = (findings: unknown[], frameId = 'F1'): ScriptStep => ({ toolCall: { name: 'submit_findings', arguments: { frameId, findings } } });
const call = (name: string, args: Record<string, unknown> = {}): ScriptStep => ({ toolCall: { name, arguments: args } });
const missingDimension = {
  checklistItemId: 'LLM-001',
  message: '技术要求附近的台阶缺少定位尺寸',
  // Pixel (183, 296) of the 1280 px overview of the 420×297 frame is (60.05, 199.88): by text 20.
  location: { kind: 'pixel', screenshotId: 'screenshot:F1/overview', x: 183, y: 296 },
  evidenceRefs: ['screenshot:F1/overview', 'entity:20', 'tool:get_dimensions'],
  annotationText: '缺少定位尺寸',
};

async function llmReview(script: ScriptStep[], budgets = { maxToolCalls: 3, maxReasks: 1 }, kimi?: { quirks: ProviderQuirks }) {
  // `kimi`: the provider enforces Kimi K2's thinking-mode rules; the gateway is given `quirks`.
  provider = await startScriptedProvider({ script: [preflightReply, ...script], ...(kimi ? { dialect: 'kimi' as const } : {}) });
  const gateway = createLlmGateway({
    provider: { id: 'scripted', protocol: 'chat-completions', baseUrl: provider.apiBaseUrl, model: 'scripted-model', getApiKey: () => 'test-key', ...(kimi ? { quirks: kimi.quirks } : {}) },
    retry: { maxAttempts: 1, baseDelayMs: 0, maxDelayMs: 0, totalBudgetMs: 10_000 },
  });
  const backend = createFakeBackend(threeFrameDrawing());
  const deps = { store, now: () => new Date(), newRunId: () => 'run-llm', generatorVersion: 'test', llm: { gateway, model: 'scripted/scripted-model', ...budgets } };
  const result = await startReview(deps, { source: backend.source, output: createFolderOutput(path.join(dir, 'out')), concurrency: 1 }, checklist, { llm: true, locale: 'zh-CN', frames: ['F1'] });
  const frame = store.listFrames('run-llm')[0]!;
  // requests[0] is the tool-call check before the run.
  return { result, backend, frame, requests: provider.requests.slice(1) };
}

describe('the LLM sub-loop', () => {
  it('lets the model confirm with a read-only tool, then turns its pixel location into drawing coordinates', async () => {
    const { result, frame, requests } = await llmReview([call('get_dimensions'), submit([missingDimension])]);
    const llmFinding = result.report!.findings.find((f) => f.source === 'llm')!;
    expect(llmFinding.checklistItemId).toBe('LLM-001');
    expect(llmFinding.severity).toBe('major');
    const point = llmFinding.location.kind === 'point' ? llmFinding.location.point : undefined;
    expect(point!.x).toBeCloseTo(60.05, 1);
    expect(point!.y).toBeCloseTo(199.88, 1);
    expect(llmFinding.hypothesis).toBeUndefined();
    expect(frame.evidence?.llmCalls).toEqual([{ tool: 'get_dimensions', argsDigest: expect.stringMatching(/^[0-9a-f]{64}$/), resultDigest: expect.stringMatching(/^[0-9a-f]{64}$/), refused: null }]);
    // The model got the screenshot and, on the second turn, the tool's result.
    expect(JSON.stringify(requests[0]!.body)).toContain('image/png');
    expect(JSON.stringify(requests[1]!.body)).toContain('dimensions');
    // The two frame turns plus the tool-call check before the run: every model call is accounted.
    expect(store.getRun('run-llm')!.usage.llmCalls).toBe(3);
    // The report names the model next to its finding and audits the calls in Chinese.
    const markdown = readFileSync(path.join(dir, 'out/report.md'), 'utf8');
    expect(markdown).toContain('AI 发现（scripted/scripted-model）');
    expect(markdown).toContain('## 审计');
    expect(result.report!.audit).toMatchObject({ llmCalls: 3, modelToolCalls: 1, refusedCalls: [] });
    expect(result.report!.options.reviewer).toEqual({ model: 'scripted/scripted-model', maxToolCallsPerFrame: 3, maxReasks: 1 });
  });

  it('runs its read-only tool loop on a Kimi thinking model: each tool-call turn goes back with its reasoning_content, which never becomes a finding', async () => {
    const thinking = (step: ScriptStep, reasoning: string): ScriptStep => ({ ...step, reasoning });
    const { result, requests } = await llmReview([thinking(call('get_dimensions'), 'Check the step dimensions first.'), thinking(submit([missingDimension]), 'The step lacks a locating dimension.')], undefined, { quirks: providerPresets.kimi.quirks });
    expect(result.report!.findings.filter((f) => f.source === 'llm')).toHaveLength(1);
    const history = (requests[1]!.body as { messages: Record<string, unknown>[] }).messages;
    expect(history.find((m) => m['role'] === 'assistant')).toMatchObject({ reasoning_content: 'Check the step dimensions first.' });
    expect(JSON.stringify(result.report)).not.toContain('locating dimension.');
  });

  it('fails the frame with the provider\'s own error, keeping its rule findings, when a Kimi thinking model gets a history without reasoning_content', async () => {
    const { frame, result } = await llmReview([{ ...call('get_dimensions'), reasoning: 'r' }, submit([missingDimension])], undefined, { quirks: { ...providerPresets.kimi.quirks, echoReasoningOnToolCalls: false } });
    expect(frame.status).toBe('llm_failed');
    expect(JSON.stringify(frame)).toContain('reasoning_content is missing');
    expect(result.report!.findings.some((f) => f.source === 'rule')).toBe(true);
  });

  it('refuses a write tool the model asks for, logs it, and never sends it to the drawing', async () => {
    const { backend, frame } = await llmReview([call('add_leader_annotation', { points: [[1, 1], [2, 2]], text: 'x' }), submit([])]);
    expect(backend.calls.map((c) => c.name)).not.toContain('add_leader_annotation');
    expect(frame.evidence?.llmCalls?.[0]).toMatchObject({ tool: 'add_leader_annotation', resultDigest: null, refused: 'not-read-only' });
    expect((await import('node:fs')).readFileSync(path.join(dir, 'out/report.md'), 'utf8')).toMatch(/\| `F1` \| `add_leader_annotation` \| 非只读工具 \| `[0-9a-f]{16}…` \|/);
    expect(frame.status).toBe('done');
  });

  it('stops a model that exceeds its call budget and forces the structured submission', async () => {
    const { frame, requests, backend } = await llmReview([call('get_texts'), call('get_texts'), call('get_texts'), submit([])], { maxToolCalls: 2, maxReasks: 1 });
    expect(frame.evidence?.llmCalls?.map((c) => c.refused)).toEqual([null, null, 'budget']);
    expect(backend.calls.filter((c) => c.name === 'get_texts')).toHaveLength(1 + 2); // 1 drawing-wide read + 2 model calls
    expect((requests.at(-1)!.body as { tool_choice: unknown }).tool_choice).toEqual({ type: 'function', function: { name: 'submit_findings' } });
  });

  it('re-asks for exactly the invalid fields and accepts the corrected submission', async () => {
    const wrong = { ...missingDimension, checklistItemId: 'GEO-001', evidenceRefs: ['entity:NOPE'] };
    const { result, requests } = await llmReview([submit([wrong]), submit([missingDimension])]);
    const reask = JSON.stringify(requests[1]!.body);
    expect(reask).toContain('$.findings[0].checklistItemId');
    expect(reask).toContain('$.findings[0].evidenceRefs');
    expect(result.report!.findings.filter((f) => f.source === 'llm')).toHaveLength(1);
  });

  it('marks the frame llm_failed when the findings stay invalid after the re-asks, keeps its rule findings, and never reads findings from text', async () => {
    const outside = { ...missingDimension, location: { kind: 'point', x: 5000, y: 5000 } };
    const { frame, result } = await llmReview([{ text: '发现问题：LLM-001 缺少尺寸' }, submit([outside]), submit([outside])], { maxToolCalls: 3, maxReasks: 1 });
    expect(frame.status).toBe('llm_failed');
    expect(frame.error).toMatchObject({ code: 'REVIEW_LLM_INVALID_FINDINGS', retryable: false });
    expect(result.status).toBe('completed_with_errors');
    expect(result.report!.findings.some((f) => f.source === 'llm')).toBe(false);
    expect(result.report!.findings.map((f) => `${f.frameId}:${f.checklistItemId}`)).toContain('F1:DIM-001');
    expect(result.report!.notEvaluated.find((n) => n.checklistItemId === 'LLM-001')).toMatchObject({ frameIds: ['F1'] });
  });

  it('re-asks once for a finding that cites only a screenshot or an entity far from it, then keeps it as a hypothesis that is never written unpromoted', async () => {
    const screenshotOnly = { ...missingDimension, evidenceRefs: ['screenshot:F1/overview'] };
    const farEntity = { ...missingDimension, location: { kind: 'point', x: 300, y: 250 }, evidenceRefs: ['entity:30'] };
    const { result, requests } = await llmReview([submit([screenshotOnly, farEntity]), submit([screenshotOnly, farEntity])]);
    expect(JSON.stringify(requests[1]!.body)).toContain('a screenshot or tool name alone is not CAD evidence');
    const ai = result.report!.findings.filter((f) => f.source === 'llm');
    expect(ai.map((f) => f.hypothesis)).toEqual([true, true]);
    expect(result.status).toBe('completed');
    const { decideAnnotation, listAnnotatedFindings, promoteHypothesis } = await import('./annotationWriter');
    const item = listAnnotatedFindings(store, 'run-llm').find((a) => a.finding.id === ai[0]!.id)!;
    expect(() => decideAnnotation(store, item.finding.id, { kind: 'approve', payloadHash: item.payloadHash })).toThrow(expect.objectContaining({ code: 'REVIEW_HYPOTHESIS_NOT_PROMOTED' }));
    promoteHypothesis(store, item.finding.id);
    expect(store.getFinding(item.finding.id)!.hypothesis).toBeUndefined();
    expect(decideAnnotation(store, item.finding.id, { kind: 'approve', payloadHash: item.payloadHash }).state).toBe('approved');
  });

  it('accepts a finding corrected to cite a nearby entity after the evidence re-ask', async () => {
    const screenshotOnly = { ...missingDimension, evidenceRefs: ['screenshot:F1/overview'] };
    const { result } = await llmReview([submit([screenshotOnly]), submit([missingDimension])]);
    expect(result.report!.findings.filter((f) => f.source === 'llm').map((f) => f.hypothesis ?? false)).toEqual([false]);
  });

  it('reviews rules-only, with the typed cause, when the model answers the tool-call check in plain text', async () => {
    provider = await startScriptedProvider({ script: [{ text: '我无法调用工具。' }] });
    const gateway = createLlmGateway({
      provider: { id: 'scripted', protocol: 'chat-completions', baseUrl: provider.apiBaseUrl, model: 'scripted-model', getApiKey: () => 'test-key' },
      retry: { maxAttempts: 1, baseDelayMs: 0, maxDelayMs: 0, totalBudgetMs: 10_000 },
    });
    const deps = { store, now: () => new Date(), newRunId: () => 'run-prose', generatorVersion: 'test', llm: { gateway, model: 'scripted/scripted-model', maxToolCalls: 3, maxReasks: 1 } };
    const backend = createFakeBackend(threeFrameDrawing());
    const result = await startReview(deps, { source: backend.source, output: createFolderOutput(path.join(dir, 'out')), concurrency: 1 }, checklist, { llm: true, locale: 'en', frames: null });
    expect(result.status).toBe('completed_with_errors');
    expect(provider.requests).toHaveLength(1);
    expect(result.report!.frames.map((f) => [f.status, f.error?.code])).toEqual(result.report!.frames.map(() => ['llm_failed', 'LLM_NO_TOOL_CALL']));
    expect(result.report!.findings.filter((f) => f.source === 'rule').length).toBeGreaterThan(0);
  });
});
