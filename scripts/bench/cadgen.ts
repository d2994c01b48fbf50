// npm run bench:cadgen — the single-action generation protocol (issue 9) with the real OpenCascade
// kernel and the scripted author/reviewer player over real HTTP, each figure against a baseline in
// the same run: (1) context bytes / prompt tokens per author turn against checkpoint index for
// 3-, 6- and 12-feature parts (turn at checkpoint 12 vs checkpoint 1); (2) calls per checkpoint on
// the happy path; (3) orchestration overhead with a model answering in 2 s; (4) a plan-based
// baseline (the old protocol of seed §2) modelled from the same runs' measured requests.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { checkModel, createOcctRuntime, encodeGlb, renderPng, renderReviewPng, type CadRuntime } from '../../electron/features/cadgen/index';
import { openDatabase } from '../../electron/platform/db/openDatabase';
import { createGenerationRuntime } from '../../electron/host/composition/cadgenGeneration';
import { allMigrations } from '../../electron/host/composition/migrations';
import { startScriptedProvider } from '../../electron/testSupport/scriptedProvider';
import type { CapturedRequest, ScriptStep } from '../../electron/testSupport/scriptedProvider/types';
import { createFixturePlayer, type GenFixture } from '../../electron/testSupport/cadgenPlayer/player';
import { promptTokensOf } from '../../electron/testSupport/scriptedProvider/promptTokens';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const fixturesDir = path.join(repoRoot, 'resources/evals/cadgen/v1');
const workerScript = pathToFileURL(path.join(repoRoot, 'dist/node/occtWorker.js'));
const MODEL_DELAY_MS = 2000;
const round = (n: number, d = 1): number => Math.round(n * 10 ** d) / 10 ** d;
const median = (values: number[]): number => {
  const s = [...values].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
const tokensOf = (bytes: number): number => Math.ceil(bytes / 4); // text: ~4 bytes per token
const work = mkdtempSync(path.join(os.tmpdir(), 'bench-cadgen-'));
const loadAverageAtStart = os.loadavg().map((l) => round(l, 2));

/** A plate 100 x 60 x 8 with (features - 1) separate single-position Ø6 hole features: N checkpoints. */
function platePart(features: number): GenFixture {
  const base = JSON.parse(readFileSync(path.join(fixturesDir, 'plate_with_holes.json'), 'utf8')) as GenFixture;
  const grid = [-36, -12, 12, 36].flatMap((x) => [-20, 0, 20].map((y) => [x, y]));
  const holes = grid.slice(0, features - 1);
  const hole = base.actions[1]!;
  const bore = (p: number[]) => ({ claim_kind: 'through_cylindrical_bore', expected: { diameter_mm: 6, axis: [0, 0, 1], position: [p[0], p[1], 4], tolerance_mm: 0.01 } });
  return {
    ...base,
    id: `plate_${features}_features`,
    request: `Plate 100 x 60 x 8 mm with ${holes.length} Ø6 through holes, each modelled as its own hole feature`,
    budget: { maxAuthorTurns: 8 + features * 5, maxReviewerCalls: 4 + features * 2, maxWallMs: 600_000 },
    requirements: [base.requirements[0]!, { statement: `${holes.length} Ø6 through holes`, claims: [bore(holes[0]!), bore(holes[holes.length - 1]!)] }],
    actions: [base.actions[0]!, ...holes.map(([x, y], i) => ({ ...hole, intent: `hole ${i + 1} at (${x}, ${y})`, expected_change: `one Ø6 through hole at (${x}, ${y})`, fragment: { feature: { atomic_id: 'hole', params: { ...(hole.fragment as { feature: { params: Record<string, unknown> } }).feature.params, positions_mm: [[x, y, 8]] } } } }))],
  };
}

/** One model request: `tokens` as the provider bills it (text ~bytes/4, PNG renders by pixels, OpenAI rule); `anthropicTokens` with Anthropic's rule. */
interface Call { role: 'author' | 'reviewer'; state: string; checkpoint: number; tool: string; bytes: number; tokens: number; anthropicTokens: number; naiveTokens: number; factsBytes: number; imageTokens: ImageTokens; toolsBytes: number; prompt: string }

/**
 * The text prompt in the order a caching provider reads it: system text, then each offered tool
 * definition as sent, then the facts (images left out: they follow the text and are never part
 * of a shared prefix here).
 */
function promptOrder(system: string, tools: unknown[], facts: string): string {
  return [system, ...tools.map((t) => JSON.stringify((t as { function?: unknown }).function ?? t)), facts].join('\n');
}

function describe(request: CapturedRequest, step: ScriptStep): Call | null {
  const body = request.body as { messages: { role: string; content: unknown }[] };
  const system = String(body.messages.find((m) => m.role === 'system')?.content ?? '');
  const user = body.messages.filter((m) => m.role === 'user').pop()?.content;
  const text = Array.isArray(user) ? String((user.find((p: { type: string }) => p.type === 'text') as { text: string }).text) : String(user);
  const facts = JSON.parse(text) as { conformance?: boolean; state: string; head_revision?: string | null };
  if (facts.conformance === true) return null;
  const tools = (request.body as { tools?: unknown[] }).tools ?? [];
  const done = Number(String(facts.head_revision ?? 'rev_000').slice(4));
  const requirementsPhase = facts.state === 'DRAFTING_REQUIREMENTS' || facts.state === 'REVIEWING_REQUIREMENTS';
  return {
    role: system.includes('independent reviewer') ? 'reviewer' : 'author',
    state: facts.state,
    checkpoint: requirementsPhase ? 0 : facts.state === 'FINAL_VALIDATION' ? -1 : done + 1,
    tool: 'toolCall' in step ? step.toolCall.name : 'text',
    bytes: request.bodyBytes,
    tokens: promptTokensOf(request.body, request.bodyBytes, 'openai'),
    anthropicTokens: promptTokensOf(request.body, request.bodyBytes, 'anthropic'),
    naiveTokens: tokensOf(request.bodyBytes),
    factsBytes: Buffer.byteLength(text),
    imageTokens: imageTokensOf(request),
    toolsBytes: Buffer.byteLength(JSON.stringify(tools)),
    prompt: promptOrder(system, tools, text),
  };
}

/** Wraps the kernel to time its share (builds and STEP re-imports are not orchestration). */
function timedRuntime(inner: CadRuntime, sink: { ms: number }): CadRuntime {
  const time = async <T>(p: () => Promise<T>): Promise<T> => {
    const started = performance.now();
    try {
      return await p();
    } finally {
      sink.ms += performance.now() - started;
    }
  };
  return { ...inner, build: (d, o) => time(() => inner.build(d, o)), inspectStep: (s) => time(() => inner.inspectStep(s)), warmUp: () => inner.warmUp(), stats: () => inner.stats(), dispose: () => inner.dispose() };
}

async function runPart(fixture: GenFixture, delayMs = 0) {
  const calls: Call[] = [];
  const player = createFixturePlayer(fixture);
  let modelCalls = 0;
  // The provider reports cached prompt tokens from a simulated automatic prefix cache (OpenAI,
  // DeepSeek, Kimi, GLM, Qwen: the longest prefix of system, tools, messages seen before, ≥ 1024 tokens).
  const provider = await startScriptedProvider({
    promptCache: true,
    script: (request) => {
      const step = player(request);
      const call = describe(request, step);
      if (!call) return step;
      // Reviewer facts carry no head; a candidate review belongs to the checkpoint just proposed.
      if (call.role === 'reviewer' && call.state === 'CANDIDATE_REVIEW') call.checkpoint = calls.filter((c) => c.role === 'author').pop()?.checkpoint ?? 0;
      calls.push(call);
      modelCalls++;
      return delayMs > 0 ? { ...step, delayMs } : step;
    },
  });
  const dir = path.join(work, `${fixture.id}-${delayMs}`);
  mkdirSync(dir, { recursive: true });
  const { db } = openDatabase({ file: path.join(dir, 'cadsight.db'), migrations: allMigrations });
  const kernel = { ms: 0 };
  const encoding = { ms: 0 };
  const since = (started: number): void => void (encoding.ms += performance.now() - started);
  const encoders = {
    glb: async (...a: Parameters<typeof encodeGlb>) => {
      const started = performance.now();
      return encodeGlb(...a).finally(() => since(started));
    },
    png: (...a: Parameters<typeof renderPng>) => {
      const started = performance.now();
      try {
        return renderPng(...a);
      } finally {
        since(started);
      }
    },
    reviewPng: async (...a: Parameters<typeof renderReviewPng>) => {
      const started = performance.now();
      return renderReviewPng(...a).finally(() => since(started));
    },
  };
  const runtime = createOcctRuntime({ workerScript });
  const config = { id: 'chat', protocol: 'chat-completions' as const, baseUrl: provider.apiBaseUrl, model: 'scripted-model', getApiKey: () => undefined };
  const gen = createGenerationRuntime({ db, tasksRoot: path.join(dir, 'tasks'), author: config, reviewer: config, workerScript, runtime: timedRuntime(runtime, kernel), encoders });
  try {
    await runtime.warmUp();
    for (const model of [gen.deps.author, gen.deps.reviewer]) {
      if (!(await checkModel(gen.deps, model)).passed) throw new Error(`conformance failed for ${fixture.id}`);
    }
    kernel.ms = 0;
    encoding.ms = 0;
    const started = performance.now();
    const created = await gen.service.create({ request: fixture.request, budget: fixture.budget });
    const task = await gen.service.run(created.task_id);
    const wallMs = performance.now() - started;
    if (task.state !== 'COMPLETED') throw new Error(`${fixture.id} ended ${task.state}: ${JSON.stringify(task.last_error)}`);
    // The frozen Markdown the old protocol's author wrote (here rendered by the server): for the baseline variant.
    const markdownBytes = ['requirements.md', 'completion.md'].reduce((n, f) => n + readFileSync(path.join(dir, 'tasks', task.task_id, f)).length, 0);
    return { fixture, calls, wallMs, markdownBytes, kernelMs: kernel.ms, encodingMs: encoding.ms, modelMs: modelCalls * delayMs, usage: task.usage, revisions: gen.service.show(task.task_id).revisions.length };
  } finally {
    await gen.dispose();
    await runtime.dispose();
    db.close();
    await provider.close();
  }
}

type Run = Awaited<ReturnType<typeof runPart>>;

/** Author turns of each checkpoint: mean/max request bytes and the facts (user message) bytes. */
function perCheckpoint(run: Run) {
  const rows = [];
  for (let k = 1; k <= run.fixture.actions.length; k++) {
    const author = run.calls.filter((c) => c.role === 'author' && c.checkpoint === k);
    const bytes = author.map((c) => c.bytes);
    rows.push({
      checkpoint: k,
      authorTurns: author.length,
      meanBytes: round(bytes.reduce((a, b) => a + b, 0) / bytes.length, 0),
      maxBytes: Math.max(...bytes),
      meanPromptTokens: round(author.map((c) => c.tokens).reduce((a, b) => a + b, 0) / author.length, 0),
      meanFactsBytes: round(author.map((c) => c.factsBytes).reduce((a, b) => a + b, 0) / author.length, 0),
      fragmentCalls: author.filter((c) => c.tool === 'submit_cdsl_fragment').length,
      candidateReviews: run.calls.filter((c) => c.role === 'reviewer' && c.checkpoint === k && c.tool === 'review_candidate').length,
    });
  }
  return rows;
}

/**
 * The old plan-based protocol (seed §2) on the same part, modelled from this run's requests:
 * + one plan-writing author call whose prompt is the first requirements author prompt plus the
 *   requirements text (the plan itself is output, not prompt);
 * + one plan review call: the requirements-review prompt plus the whole plan text;
 * every modelling author turn (checkpoints ≥ 1 and complete_task) is the measured request plus the
 * whole plan text and the source request (the old loop re-sent source-requirements.md). Each
 * measured turn stands for one old turn: the old author read the contract per plan step (seed §2),
 * which is what the propose_next_action turn carries now (the proposal reads its operation's
 * contract), then inspected and submitted as now. Every candidate review is the measured request
 * plus that checkpoint's plan step; requirements and final review calls are as measured. The plan
 * text is a Markdown step per action (intent, expected change, operation, selector slots, the
 * exact CDSL fragment as JSON), i.e. what the plan review demanded.
 */
function planBaseline(run: Run, rule: 'tokens' | 'anthropicTokens' | 'naiveTokens' = 'tokens') {
  const steps = run.fixture.actions.map((a, i) => `## Step ${i + 1}: ${a.intent}\n- operation: ${a.atomic_id}\n- expected change: ${a.expected_change}\n- selectors: ${Object.keys(a.selectors ?? {}).join(', ') || 'none'}\n\n\`\`\`json\n${JSON.stringify(a.fragment, null, 2)}\n\`\`\`\n`);
  const plan = `# Modeling plan\n\n${steps.join('\n')}`;
  const planBytes = Buffer.byteLength(plan);
  const requestBytes = Buffer.byteLength(run.fixture.request);
  const requirementsText = run.fixture.requirements.map((r) => `- ${r.statement}: ${JSON.stringify(r.claims)}`).join('\n');
  const firstAuthor = run.calls.find((c) => c.role === 'author')!;
  const reqReview = run.calls.find((c) => c.role === 'reviewer' && c.checkpoint === 0)!;
  // [prompt tokens, counts towards the seed's "author + plan-review" figure]; added text at bytes / 4.
  const modelled: [number, boolean][] = [[firstAuthor[rule] + tokensOf(Buffer.byteLength(requirementsText)), true], [reqReview[rule] + tokensOf(planBytes), true]];
  let resentMarkdown = 0;
  for (const c of run.calls) {
    if (c.role === 'author' && c.checkpoint !== 0) {
      modelled.push([c[rule] + tokensOf(planBytes + requestBytes), true]);
      resentMarkdown += tokensOf(run.markdownBytes);
    } else if (c.role === 'reviewer' && c.tool === 'review_candidate') {
      modelled.push([c[rule] + tokensOf(Buffer.byteLength(steps[c.checkpoint - 1] ?? '')), false]);
    } else {
      modelled.push([c[rule], c.role === 'author']);
    }
  }
  const sum = (xs: number[]): number => xs.reduce((x, y) => x + y, 0);
  const authorPlanBaseline = sum(modelled.filter(([, author]) => author).map(([t]) => t));
  const allBaseline = sum(modelled.map(([t]) => t));
  const authorMeasured = sum(run.calls.filter((c) => c.role === 'author').map((c) => c[rule]));
  const allMeasured = sum(run.calls.map((c) => c[rule]));
  return {
    fixture: run.fixture.id, checkpoints: run.fixture.actions.length, planBytes, measuredCalls: run.calls.length, baselineCalls: modelled.length,
    authorMeasuredTokens: authorMeasured, authorPlanBaselineTokens: authorPlanBaseline, saving: round(1 - authorMeasured / authorPlanBaseline, 3),
    markdownBytes: run.markdownBytes, savingWithMarkdown: round(1 - authorMeasured / (authorPlanBaseline + resentMarkdown), 3),
    reviewerMeasuredTokens: allMeasured - authorMeasured, allMeasuredTokens: allMeasured, engineChargedPromptTokens: run.usage.promptTokens, allBaselineTokens: allBaseline, savingAllCalls: round(1 - allMeasured / allBaseline, 3),
  };
}

/** Longest common prefix of two strings, in UTF-8 bytes. */
function commonPrefixBytes(a: string, b: string): number {
  let i = 0;
  const n = Math.min(a.length, b.length);
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return Buffer.byteLength(a.slice(0, i));
}

/** Providers cache a prefix only from 1024 tokens on (OpenAI automatic caching, Anthropic's minimum for Sonnet/Opus): ≈ 4096 bytes at ~4 bytes per token. */
const MIN_CACHED_PREFIX_BYTES = 1024 * 4;
/** DeepSeek's context cache has no such minimum: it serves a repeated prefix in whole 64-token units (≈ 256 bytes). */
const DEEPSEEK_CACHE_UNIT_BYTES = 64 * 4;

/**
 * Share of one role's prompt bytes that repeat, byte for byte, the start of an earlier request of
 * the same run (the longest match over all earlier requests: a cache keeps every recent prefix):
 * `shared` counts every repeated byte, `cacheable` only prefixes of at least 1024 tokens.
 */
function prefixShare(run: Run, role: 'author' | 'reviewer') {
  const calls = run.calls.filter((c) => c.role === role);
  let total = 0;
  let shared = 0;
  let cacheable = 0;
  let deepseek = 0;
  calls.forEach((c, i) => {
    const best = calls.slice(0, i).reduce((m, earlier) => Math.max(m, commonPrefixBytes(earlier.prompt, c.prompt)), 0);
    total += Buffer.byteLength(c.prompt);
    shared += best;
    if (best >= MIN_CACHED_PREFIX_BYTES) cacheable += best;
    deepseek += Math.floor(best / DEEPSEEK_CACHE_UNIT_BYTES) * DEEPSEEK_CACHE_UNIT_BYTES;
  });
  return { fixture: run.fixture.id, role, calls: calls.length, promptBytes: total, sharedShare: round(shared / total, 3), cacheableShare: round(cacheable / total, 3), deepseekShare: round(deepseek / total, 3) };
}

/** The flange's author requests: total and per-turn bytes, the finalize turn, the tool-schema share. */
function authorBytes(run: Run) {
  const author = run.calls.filter((c) => c.role === 'author');
  const finalize = author.find((c) => c.tool === 'finalize_requirements_draft');
  const sum = (xs: number[]): number => xs.reduce((x, y) => x + y, 0);
  const reviewer = run.calls.filter((c) => c.role === 'reviewer');
  return {
    fixture: run.fixture.id,
    authorCalls: author.length,
    authorRequestBytes: sum(author.map((c) => c.bytes)),
    toolSchemaShare: round(sum(author.map((c) => c.toolsBytes)) / sum(author.map((c) => c.bytes)), 3),
    largestAuthorRequest: Math.max(...author.map((c) => c.bytes)),
    finalizeTurnBytes: finalize?.bytes ?? null,
    draftingTurns: author.filter((c) => c.checkpoint === 0).map((c) => ({ tool: c.tool, bytes: c.bytes })),
    reviewerCalls: reviewer.length,
    reviewerRequestBytes: sum(reviewer.map((c) => c.bytes)),
    targets: { authorRequestBytes: 60 * 1024, finalizeTurnBytes: 4 * 1024 },
  };
}

const benchStarted = performance.now();
const evalFixtures = ['plate_with_holes', 'flange', 'l_bracket_rib', 'chamfered_block'].map((id) => JSON.parse(readFileSync(path.join(fixturesDir, `${id}.json`), 'utf8')) as GenFixture);
const three = evalFixtures.find((f) => f.id === 'flange')!; // the 3-feature part (three actions)
const scaling: Run[] = [];
for (const f of [three, platePart(6), platePart(12)]) scaling.push(await runPart(f));
const evalRuns: Run[] = [];
for (const f of evalFixtures) evalRuns.push(f.id === 'flange' ? scaling[0]! : await runPart(f));
const delayed = await runPart(three, MODEL_DELAY_MS);
rmSync(work, { recursive: true, force: true });

const curves = scaling.map((run) => ({ fixture: run.fixture.id, features: run.fixture.actions.length, rows: perCheckpoint(run) }));
const twelve = curves[2]!.rows;
const growth = { meanBytesRatio: round(twelve[11]!.meanBytes / twelve[0]!.meanBytes, 3), maxBytesRatio: round(twelve[11]!.maxBytes / twelve[0]!.maxBytes, 3), factsBytesPerCheckpoint: round((twelve[11]!.meanFactsBytes - twelve[1]!.meanFactsBytes) / 10, 0), target: 1.5 };
const happy = [...scaling, ...evalRuns.filter((r) => !scaling.includes(r))].map((run) => {
  const rows = perCheckpoint(run);
  return { fixture: run.fixture.id, checkpoints: rows.length, revisions: run.revisions, fragmentCallsPerCheckpoint: rows.map((r) => r.fragmentCalls), candidateReviewsPerCheckpoint: rows.map((r) => r.candidateReviews), exact: rows.every((r) => r.fragmentCalls === 1 && r.candidateReviews === 1) };
});
const modelOnly = delayed.wallMs - delayed.modelMs;
const overhead = {
  fixture: delayed.fixture.id,
  modelDelayMs: MODEL_DELAY_MS,
  modelCalls: delayed.calls.length,
  wallMs: round(delayed.wallMs),
  modelMs: delayed.modelMs,
  kernelMs: round(delayed.kernelMs),
  encodingMs: round(delayed.encodingMs),
  orchestrationMs: round(modelOnly - delayed.kernelMs - delayed.encodingMs),
  orchestrationShare: round((modelOnly - delayed.kernelMs - delayed.encodingMs) / delayed.wallMs, 4),
  nonModelShare: round(modelOnly / delayed.wallMs, 4),
  undelayedWallMs: round(scaling[0]!.wallMs),
  target: 0.05,
};
const baseline = evalRuns.map((r) => planBaseline(r));
const baselineAnthropic = evalRuns.map((r) => planBaseline(r, 'anthropicTokens'));
const baselineNaive = evalRuns.map((r) => planBaseline(r, 'naiveTokens'));
const medianSaving = round(median(baseline.map((b) => b.saving)), 3);
const medianSavingMarkdown = round(median(baseline.map((b) => b.savingWithMarkdown)), 3);
const medianSavingAll = round(median(baseline.map((b) => b.savingAllCalls)), 3);
const medianSavingAllAnthropic = round(median(baselineAnthropic.map((b) => b.savingAllCalls)), 3);
const medianSavingAllNaive = round(median(baselineNaive.map((b) => b.savingAllCalls)), 3);
const medianSavingNaive = round(median(baselineNaive.map((b) => b.saving)), 3);
// Prompt tokens per part: every author and reviewer call of the happy path, renders billed by pixels.
const perPart = {
  runs: baseline.map((b, i) => ({ fixture: b.fixture, openai: b.allMeasuredTokens, anthropic: baselineAnthropic[i]!.allMeasuredTokens })),
  medianOpenai: median(baseline.map((b) => b.allMeasuredTokens)),
  medianAnthropic: median(baselineAnthropic.map((b) => b.allMeasuredTokens)),
  target: 25_000,
  multiAgentCadPublished: 34_800,
};

// Share of the engine-charged prompt tokens a caching provider would have served from its cache.
const cacheRuns = evalRuns.map((r) => {
  const cached = r.usage.cachedPromptTokens ?? 0;
  return { fixture: r.fixture.id, promptTokens: r.usage.promptTokens, cachedPromptTokens: cached, share: round(cached / Math.max(1, r.usage.promptTokens), 3) };
});
const cache = { rule: 'automatic prefix cache, >= 1024 tokens (electron/testSupport/scriptedProvider/promptCache.ts)', runs: cacheRuns, medianShare: round(median(cacheRuns.map((c) => c.share)), 3) };
const flange = authorBytes(scaling[0]!);
const prefix = evalRuns.map((r) => ({ author: prefixShare(r, 'author'), reviewer: prefixShare(r, 'reviewer') }));
const prefixMedian = { authorShared: round(median(prefix.map((p) => p.author.sharedShare)), 3), authorCacheable: round(median(prefix.map((p) => p.author.cacheableShare)), 3), authorDeepseek: round(median(prefix.map((p) => p.author.deepseekShare)), 3), reviewerShared: round(median(prefix.map((p) => p.reviewer.sharedShare)), 3) };

const result = {
  machine: { cpus: os.cpus().length, node: process.version, load_average_start: loadAverageAtStart, load_average_end: os.loadavg().map((l) => round(l, 2)), date: new Date().toISOString() },
  benchWallS: round((performance.now() - benchStarted) / 1000),
  contextPerCheckpoint: curves,
  growth,
  happyPath: happy,
  overhead,
  cache,
  authorRequests: flange,
  stablePrefix: { runs: prefix, median: prefixMedian, minCachedPrefixBytes: MIN_CACHED_PREFIX_BYTES },
  tokensPerPart: perPart,
  planBaseline: { runs: baseline, medianSaving, medianSavingMarkdown, medianSavingAll, medianSavingAllAnthropic, medianSavingNaive, medianSavingAllNaive, target: 0.3 },
};

const pct = (x: number, d = 1) => `${round(x * 100, d)} %`;
const met = (ok: boolean) => (ok ? 'met' : '**not met**');
const curveTable = curves.map((c) => [`### ${c.fixture} (${c.features} checkpoints)`, '', '| checkpoint | author turns | mean request bytes | max request bytes | mean prompt tokens | mean facts bytes | fragment calls | candidate reviews |', '|---|---|---|---|---|---|---|---|', ...c.rows.map((r) => `| ${r.checkpoint} | ${r.authorTurns} | ${r.meanBytes} | ${r.maxBytes} | ${r.meanPromptTokens} | ${r.meanFactsBytes} | ${r.fragmentCalls} | ${r.candidateReviews} |`), ''].join('\n')).join('\n');
const md = `# CAD generation protocol benchmark

Machine: ${result.machine.cpus} CPUs (shared with other agents), Node ${result.machine.node}, load average ${result.machine.load_average_start.join(' / ')} at start and ${result.machine.load_average_end.join(' / ')} at end, ${result.machine.date}; whole bench ${result.benchWallS} s.
Real OpenCascade kernel (replicad WASM worker), real SQLite, the scripted author/reviewer player (electron/testSupport/cadgenPlayer) over real HTTP on 127.0.0.1. Conformance probes run first and are excluded from every figure.
Bytes are HTTP request bodies as the provider received them (system prompt, facts, tool schemas, base64 renders). Prompt tokens are billed the way providers bill them (electron/testSupport/scriptedProvider/promptTokens.ts, also what the scripted provider reports and the engine charges — cross-check column below): text at ceil(bytes / 4), each PNG render by its pixels with OpenAI's tiling rule (85 + 170 per 512 px tile after fitting 2048 / 768 px; the vision slice's estimateVisionTokens), not by its base64 length; the Anthropic rule (w × h / 750 after scaling to ≤ 1568 px / 1.15 MP) is given as a second figure. Before this, the bench charged base64 at bytes / 4, which made a 1600 px line drawing ~22 000 tokens instead of 765 (old-rule figures kept below for comparison).
The 6- and 12-feature parts are bench-local fixtures built in scripts/bench/cadgen.ts in the player's format: the plate_with_holes plate, then 5 or 11 separate single-position Ø6 hole features on the top face (each needs inspect_topology). The 3-feature part is the flange eval fixture.

| measure | value | baseline / target |
|---|---|---|
| flange author requests, happy path (${flange.authorCalls} calls, ${pct(flange.toolSchemaShare)} of it tool schemas) | **${round(flange.authorRequestBytes / 1024)} KB** | target ≤ 60 KB: ${met(flange.authorRequestBytes <= flange.targets.authorRequestBytes)} |
| flange finalize_requirements_draft turn | **${flange.finalizeTurnBytes === null ? 'no finalize turn' : `${round(flange.finalizeTurnBytes / 1024, 2)} KB`}** | target ≤ 4 KB: ${met(flange.finalizeTurnBytes !== null && flange.finalizeTurnBytes <= flange.targets.finalizeTurnBytes)}; drafting turns ${flange.draftingTurns.map((t) => `${t.tool} ${t.bytes} B`).join(', ')}; largest author request ${flange.largestAuthorRequest} B |
| flange reviewer requests (${flange.reviewerCalls} calls, renders included; measured as sent) | **${round(flange.reviewerRequestBytes / 1024)} KB** | target ≤ 400 KB: ${met(flange.reviewerRequestBytes <= 400 * 1024)} (before: 1.13 MB); renders in the section below |
| prompt tokens per part, author + every review, renders by pixels (OpenAI rule; text estimated at bytes / 4, no tokenizer), median of 4 fixtures | **${perPart.medianOpenai}** (Anthropic rule: ${perPart.medianAnthropic}; per fixture: ${perPart.runs.map((r) => `${r.fixture} ${r.openai}`).join(', ')}) | target ≤ 25 000, below Multi-Agent-CAD's published 34 800: ${met(Math.max(perPart.medianOpenai, perPart.medianAnthropic) <= perPart.target)} |
| author prompt bytes repeating an earlier request's prefix (system, tools, facts in that order), median of 4 fixtures | **${pct(prefixMedian.authorShared)}**; in prefixes ≥ 1024 tokens (what OpenAI and Claude cache): ${pct(prefixMedian.authorCacheable)}; in whole 64-token units (DeepSeek's cache, no minimum): ${pct(prefixMedian.authorDeepseek)} | per fixture: ${prefix.map((p) => `${p.author.fixture} ${pct(p.author.sharedShare)} / ${pct(p.author.cacheableShare)}`).join('; ')}; reviewer text: ${pct(prefixMedian.reviewerShared)} |
| author request at checkpoint 12 vs checkpoint 1 (12-feature part), mean per turn | ${twelve[11]!.meanBytes} B vs ${twelve[0]!.meanBytes} B → **${growth.meanBytesRatio}×** | target ≤ ${growth.target}×: ${met(growth.meanBytesRatio <= growth.target)} |
| same, largest author request of the checkpoint | ${twelve[11]!.maxBytes} B vs ${twelve[0]!.maxBytes} B → ${growth.maxBytesRatio}× | target ≤ ${growth.target}× |
| calls per checkpoint on the happy path | ${happy.map((h) => `${h.fixture}: ${h.exact ? 'exactly 1 + 1' : `fragments ${h.fragmentCallsPerCheckpoint.join('/')}, reviews ${h.candidateReviewsPerCheckpoint.join('/')}`}`).join('; ')} | target: 1 fragment call + 1 candidate review per checkpoint: ${met(happy.every((h) => h.exact))} |
| orchestration overhead, model answering in ${MODEL_DELAY_MS} ms (${overhead.fixture}, ${overhead.modelCalls} calls) | **${pct(overhead.orchestrationShare, 2)}** of ${overhead.wallMs} ms | model ${overhead.modelMs} ms, kernel ${overhead.kernelMs} ms (builds, STEP re-import) and GLB/PNG encoding ${overhead.encodingMs} ms excluded; target < 5 %: ${met(overhead.orchestrationShare < overhead.target)}; everything but the model: ${pct(overhead.nonModelShare, 2)} |
| author + plan-review prompt tokens (seed §7) vs the modelled plan-based protocol, median of 4 fixtures (text tokens estimated as bytes / 4, no tokenizer) | **${pct(medianSaving)} fewer** (per fixture: ${baseline.map((b) => `${b.fixture} ${pct(b.saving)}`).join(', ')}) | target ≥ 30 % fewer on each: ${met(baseline.every((b) => b.saving >= 0.3))} |
| same, variant B: the old modelling turns also carried requirements.md + completion.md in full | ${pct(medianSavingMarkdown)} fewer | target ≥ 30 % fewer: ${met(medianSavingMarkdown >= 0.3)} |
| all prompt tokens incl. requirement, candidate and final reviews (renders billed by pixels, OpenAI rule) | ${pct(medianSavingAll)} fewer (Anthropic rule: ${pct(medianSavingAllAnthropic)}) | same baseline; no target (the seed keeps result reviews on purpose) |
| prompt tokens a caching provider serves from its cache on the happy path (automatic prefix cache ≥ 1024 tokens, simulated by the scripted provider), median of 4 fixtures | **${pct(cache.medianShare)}** (${cache.runs.map((c) => `${c.fixture}: ${c.cachedPromptTokens} of ${c.promptTokens}`).join('; ')}) | no target; only a prefix repeated verbatim from an earlier request and ≥ 1024 tokens long can be served. The stable prefix here is the phase's system text (≈ 140 tokens); tool definitions bind the current head, contract and snapshot, and whole requests are ≈ 600–1 700 tokens, so nothing reaches the minimum. DeepSeek's cache (64-token units, no minimum) would serve the share estimated in the prefix row above |
| old accounting (base64 at bytes / 4), for comparison: author + plan-review / all calls | ${pct(medianSavingNaive)} / ${pct(medianSavingAllNaive)} fewer | author prompts carry no images, so only the all-calls figure moves |

## Context per author turn against checkpoint index

Checkpoint k = the author turns while rev_(k-1) is the head (propose_next_action, which also reads the operation's contract, inspect_topology, submit_cdsl_fragment). Checkpoint 1 (the extrude) has no topology turn, and its fragment turn carries the extrude schema, the largest one. From checkpoint 2 to 12 the facts grow by about ${growth.factsBytesPerCheckpoint} B per checkpoint (accepted-revision digest and measurements), so the ≤ ${growth.target}× goal would be reached at roughly ${Math.round(1 + (twelve[0]!.meanBytes * (growth.target - 1)) / Math.max(1, growth.factsBytesPerCheckpoint))} checkpoints on this part if the growth stayed linear.

${curveTable}
## Plan-based baseline (seed §2), modelled from the same runs

The old protocol: author writes requirements, then one large modeling plan, an independent plan review, then per plan step the author reads the contract and submits the fragment with the plan in context, candidate review, final review. Modelled from each fixture's measured requests (no second run):
- **plan** = one Markdown step per action: intent, expected change, operation, selector slots and the exact CDSL fragment as pretty JSON (what the old plan review demanded);
- **+1 plan-writing author call**: prompt = the first measured requirements author prompt + the requirements text;
- **+1 plan review call**: prompt = the measured requirements-review prompt + the whole plan;
- **every modelling author turn** (checkpoints ≥ 1 and complete_task): measured request + the whole plan + the source request (the old loop re-sent source-requirements.md). Each measured turn stands for one old turn: the old author read the operation contract per plan step (seed §2) — the turn that propose_next_action is now (a proposal reads its operation's contract with it) — then inspected topology and submitted the fragment as now; no turn is added to the baseline that the measured run did not make;
- **every candidate review**: measured request + that checkpoint's plan step; requirement and final review calls as measured.
- **variant B** additionally charges every modelling author turn with the full requirements.md + completion.md (as rendered in this run's task folder), which the old author wrote as Markdown; the seed (§7) only says explicitly that source-requirements.md was re-sent, so variant A (without them) is the headline figure.
No plan revision rounds, re-plans or retries are charged to the baseline (the seed's failure case had several), so this is a lower bound on the old protocol's cost. Both sides use the same token rule: a modelled call is the measured call's billed tokens plus ceil(added text bytes / 4).

The seed's acceptance figure (§7) is **author + plan-review** prompt tokens: the measured side is every author call (the new protocol has no plan review); the baseline side is its modelled author calls plus the plan review. The all-calls columns add the requirement, candidate and final reviews on both sides.

| fixture | checkpoints | plan bytes | calls measured / modelled | author tokens measured | author + plan-review tokens baseline | saving | saving, variant B (Markdown bytes) | all tokens measured (engine-charged) | all tokens baseline | saving, all calls |
|---|---|---|---|---|---|---|---|---|---|---|
${baseline.map((b) => `| ${b.fixture} | ${b.checkpoints} | ${b.planBytes} | ${b.measuredCalls} / ${b.baselineCalls} | ${b.authorMeasuredTokens} | ${b.authorPlanBaselineTokens} | **${pct(b.saving)}** | ${pct(b.savingWithMarkdown)} (${b.markdownBytes} B) | ${b.allMeasuredTokens} (${b.engineChargedPromptTokens}) | ${b.allBaselineTokens} | ${pct(b.savingAllCalls)} |`).join('\n')}
`;
mkdirSync(path.join(repoRoot, 'bench/results'), { recursive: true });
writeFileSync(path.join(repoRoot, 'bench/results/cadgen.json'), `${JSON.stringify(result, null, 2)}\n`);
writeFileSync(path.join(repoRoot, 'bench/results/cadgen.md'), md);
process.stdout.write(md);

// Reviewer renders (issue 27 item 2): request bytes and image tokens of every review call, as their own section.
appendReviewerSection(scaling[0]!, evalRuns);

/** Image tokens of a request alone: promptTokensOf with no text bytes leaves only the renders. */
interface ImageTokens {
  openai: number;
  anthropic: number;
  images: number;
}
function imageTokensOf(request: CapturedRequest): ImageTokens {
  const images = (JSON.stringify(request.body).match(/iVBORw0KGgo/g) ?? []).length;
  return { openai: promptTokensOf(request.body, 0, 'openai'), anthropic: promptTokensOf(request.body, 0, 'anthropic'), images };
}

/** Adds the reviewer figures to bench/results/cadgen.{json,md}: flange happy path against its targets, every fixture's totals. */
function appendReviewerSection(flange: Run, runs: Run[]): void {
  const reviewer = (run: Run) => run.calls.filter((c) => c.role === 'reviewer');
  const totals = runs.map((run) => {
    const calls = reviewer(run);
    const withImages = calls.filter((c) => c.imageTokens.images > 0);
    return { fixture: run.fixture.id, calls: calls.length, bytes: calls.reduce((t, c) => t + c.bytes, 0), maxImageTokensPerReview: Math.max(0, ...withImages.map((c) => Math.max(c.imageTokens.openai, c.imageTokens.anthropic))), imagesPerReview: withImages.map((c) => c.imageTokens.images) };
  });
  const calls = reviewer(flange).map((c) => ({ state: c.state, tool: c.tool, bytes: c.bytes, images: c.imageTokens.images, imageTokensOpenai: c.imageTokens.openai, imageTokensAnthropic: c.imageTokens.anthropic }));
  const flangeBytes = calls.reduce((t, c) => t + c.bytes, 0);
  const maxImageTokens = Math.max(0, ...calls.map((c) => Math.max(c.imageTokensOpenai, c.imageTokensAnthropic)));
  const section = { flange: { calls, bytes: flangeBytes, maxImageTokensPerReview: maxImageTokens, targetBytes: 400 * 1024, targetImageTokens: 2000, beforeBytes: '1.13 MB over 5 calls (issue 27, four 1600 px RGBA PNGs per review)' }, fixtures: totals };
  const jsonPath = path.join(repoRoot, 'bench/results/cadgen.json');
  writeFileSync(jsonPath, `${JSON.stringify({ ...(JSON.parse(readFileSync(jsonPath, 'utf8')) as object), reviewerRenders: section }, null, 2)}\n`);
  const ok = (yes: boolean) => (yes ? 'met' : '**not met**');
  const mdText = `
## Reviewer requests (compact renders)

Each candidate and final review carries the shaded isometric view plus the line views that changed against the parent revision (first candidate and final review: every view), palette PNGs ≤ 1024 px sized to ≤ 2 000 image tokens by the dearer of the OpenAI tile rule and Anthropic's pixel rule (reviewRenders). Bytes are the HTTP request bodies; image tokens are estimated from each PNG's pixels (no tokenizer).

| measure | value | target |
|---|---|---|
| flange happy path, reviewer request bytes (${calls.length} calls) | **${round(flangeBytes / 1024)} KB** (before: ${section.flange.beforeBytes}) | ≤ 400 KB: ${ok(flangeBytes <= 400 * 1024)} |
| flange, image tokens of the dearest review (max of OpenAI / Anthropic rule) | **${maxImageTokens}** | ≤ 2 000: ${ok(maxImageTokens <= 2000)} |

| flange call | tool | request bytes | images | image tokens OpenAI / Anthropic |
|---|---|---|---|---|
${calls.map((c) => `| ${c.state} | ${c.tool} | ${c.bytes} | ${c.images} | ${c.imageTokensOpenai} / ${c.imageTokensAnthropic} |`).join('\n')}

| fixture | reviewer calls | reviewer bytes | images per review | dearest review, image tokens |
|---|---|---|---|---|
${totals.map((t) => `| ${t.fixture} | ${t.calls} | ${t.bytes} | ${t.imagesPerReview.join(' / ')} | ${t.maxImageTokensPerReview} |`).join('\n')}
`;
  writeFileSync(path.join(repoRoot, 'bench/results/cadgen.md'), readFileSync(path.join(repoRoot, 'bench/results/cadgen.md'), 'utf8') + mdText);
  process.stdout.write(mdText);
}
