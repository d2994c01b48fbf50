// npm run bench:review — review orchestration figures, each against a baseline measured in the same
// run: (1) rules-only review of the shipped 3-frame sample end to end vs the backend's own tool time
// for the same calls; (2) 4 frames at concurrency 1 vs 4 on a backend with AutoCAD-like latency;
// (3) LLM orchestration overhead with a scripted model answering in 2 s, and context per frame;
// (4) drawing sets of 10 and 60 corpus-like files (cadsight review <folder>): set time, peak memory
// and its growth from 10 to 60 files, vs reviewing the largest of them alone (a set must need one
// drawing's memory plus a bounded cache, whatever its size).
import { copyFileSync, mkdirSync, mkdtempSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import v8 from 'node:v8';
import vm from 'node:vm';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { readFileSync } from 'node:fs';
import { openDatabase } from '../../electron/platform/db/openDatabase';
import { createLlmGateway } from '../../electron/platform/llm/index';
import { createFolderOutput, createSqliteReviewStore, parseChecklist, reviewMigrations, startReview, type DrawingSource } from '../../electron/features/review/index';
import { dxfSetFileReviewer, openDxfReviewEndpoints } from '../../electron/host/composition/reviewFiles';
import { runReviewSet } from '../../electron/host/composition/reviewSet';
import { createFakeBackend, threeFrameDrawing } from '../../electron/features/review/application/testkit/fakeDrawing';
import { startScriptedProvider } from '../../electron/testSupport/scriptedProvider';
import { MAX_EVIDENCE_CHARS } from '../../electron/features/review/application/llmPrompt';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const sample = path.join(repoRoot, 'resources/samples/cadsight_sample_gb_a3_3frames.dxf');
const checklist = parseChecklist(readFileSync(path.join(repoRoot, 'resources/checklist/review_checklist.json'), 'utf8'), 'default');
const RUNS = Number(process.env.BENCH_REVIEW_RUNS ?? 3);
const CAD_LATENCY_MS = Number(process.env.BENCH_CAD_LATENCY_MS ?? 250);
const MODEL_LATENCY_MS = 2000;
const round = (n: number, d = 1) => Math.round(n * 10 ** d) / 10 ** d;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const work = mkdtempSync(path.join(os.tmpdir(), 'bench-review-'));
let runCounter = 0;

function deps(extra: Record<string, unknown> = {}) {
  const db = openDatabase({ file: path.join(work, `db-${++runCounter}.db`), migrations: reviewMigrations }).db;
  return { db, deps: { store: createSqliteReviewStore(db, () => new Date()), now: () => new Date(), newRunId: () => `bench-${runCounter}`, generatorVersion: 'bench', ...extra } };
}

/** Wraps a source to time every tool call (the backend's share of the wall time). */
function timed(source: DrawingSource, sink: { ms: number }, latencyMs = 0): DrawingSource {
  return {
    ...source,
    async callTool(name, args) {
      const started = performance.now();
      if (latencyMs > 0) await new Promise((resolve) => setTimeout(resolve, latencyMs));
      try {
        return await source.callTool(name, args);
      } finally {
        sink.ms += performance.now() - started;
      }
    },
  };
}

async function rulesOnlySample() {
  const walls: number[] = [];
  const toolShares: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now();
    const { source } = await openDxfReviewEndpoints(sample);
    const opened = performance.now() - started;
    const tools = { ms: 0 };
    const { db, deps: d } = deps();
    await startReview(d, { source: timed(source, tools), output: createFolderOutput(path.join(work, `out-${runCounter}`)), concurrency: 1 }, checklist, { llm: false, locale: 'zh-CN', frames: null });
    db.close();
    walls.push(performance.now() - started);
    toolShares.push(opened + tools.ms);
  }
  const wall = median(walls);
  const backend = median(toolShares);
  return { wallMs: round(wall), backendMs: round(backend), orchestrationMs: round(wall - backend), orchestrationShare: round((wall - backend) / wall, 3), targetMs: 5000 };
}

function fourFrames() {
  const drawing = threeFrameDrawing();
  drawing.frames.push({ id: 'F4', bbox: { minX: 1350, minY: 0, maxX: 1770, maxY: 297 }, sheet: 'A3', titleBlock: { ...drawing.frames[0]!.titleBlock } });
  return drawing;
}

async function concurrency() {
  const walls: Record<number, number> = {};
  const framePhases: Record<number, number> = {};
  for (const lanes of [1, 4]) {
    const samples: number[] = [];
    const phases: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const backend = createFakeBackend(fourFrames());
      backend.onCall = (name) => (name === 'get_screenshot' ? new Promise((resolve) => setTimeout(resolve, CAD_LATENCY_MS)) : undefined);
      let phaseStart = 0;
      let phaseEnd = 0;
      const onProgress = (e: { phase: string; done: number; total: number }) => {
        if (e.phase !== 'frames') return;
        if (e.done === 0) phaseStart = performance.now();
        if (e.done === e.total) phaseEnd = performance.now();
      };
      const { db, deps: d } = deps({ onProgress });
      const started = performance.now();
      await startReview(d, { source: backend.source, output: createFolderOutput(path.join(work, `out-${runCounter}`)), concurrency: lanes }, checklist, { llm: false, locale: 'en', frames: null });
      samples.push(performance.now() - started);
      phases.push(phaseEnd - phaseStart);
      db.close();
    }
    walls[lanes] = median(samples);
    framePhases[lanes] = median(phases);
  }
  return {
    frames: 4,
    screenshotLatencyMs: CAD_LATENCY_MS,
    serialMs: round(walls[1]!),
    parallel4Ms: round(walls[4]!),
    speedup: round(walls[1]! / walls[4]!, 2),
    framePhaseSerialMs: round(framePhases[1]!),
    framePhaseParallel4Ms: round(framePhases[4]!),
    framePhaseSpeedup: round(framePhases[1]! / framePhases[4]!, 2),
    target: 3,
  };
}

async function llmOverhead() {
  const provider = await startScriptedProvider({
    script: (request) => {
      const frameId = /frameId \\"([^\\"]+)\\"/.exec(JSON.stringify(request.body))?.[1] ?? '';
      return { delayMs: MODEL_LATENCY_MS, toolCall: { name: 'submit_findings', arguments: { frameId, findings: [] } } };
    },
  });
  try {
    const gateway = createLlmGateway({ provider: { id: 'scripted', protocol: 'chat-completions', baseUrl: provider.apiBaseUrl, model: 'scripted-model', getApiKey: () => undefined }, retry: { maxAttempts: 1, baseDelayMs: 0, maxDelayMs: 0, totalBudgetMs: 60_000 } });
    const { source } = await openDxfReviewEndpoints(sample);
    const tools = { ms: 0 };
    const { db, deps: d } = deps({ llm: { gateway, model: 'scripted-model', maxToolCalls: 8, maxReasks: 2 } });
    const started = performance.now();
    const result = await startReview(d, { source: timed(source, tools), output: createFolderOutput(path.join(work, `out-${runCounter}`)), concurrency: 1 }, checklist, { llm: true, locale: 'zh-CN', frames: null });
    const wall = performance.now() - started;
    const usage = d.store.getRun(result.runId)!.usage;
    db.close();
    const requestBytes = provider.requests.map((r) => r.bodyBytes);
    return {
      frames: 3,
      modelLatencyMs: MODEL_LATENCY_MS,
      wallMs: round(wall),
      modelMs: round(usage.llmLatencyMs),
      backendMs: round(tools.ms),
      overheadShare: round((wall - usage.llmLatencyMs - tools.ms) / wall, 4),
      target: 0.05,
      // Per frame: the run also accounts the one short tool-call probe before the frames (~1 KB).
      contextBytesPerFrame: round(usage.contextBytes / 3, 0),
      maxRequestBytes: Math.max(...requestBytes),
      estimatedTextTokensPerFrame: round(usage.contextBytes / 3 / 4, 0),
      evidenceBudgetChars: MAX_EVIDENCE_CHARS,
    };
  } finally {
    await provider.close();
  }
}

/** Peak RSS and heap while `work` runs, sampled every 20 ms. */
async function peakMemory<T>(work: () => Promise<T>): Promise<{ value: T; peakRssMb: number; peakHeapMb: number; ms: number }> {
  let rss = process.memoryUsage().rss;
  let heap = process.memoryUsage().heapUsed;
  const timer = setInterval(() => {
    const m = process.memoryUsage();
    rss = Math.max(rss, m.rss);
    heap = Math.max(heap, m.heapUsed);
  }, 20);
  const started = performance.now();
  try {
    const value = await work();
    return { value, peakRssMb: round(rss / 2 ** 20), peakHeapMb: round(heap / 2 ** 20), ms: Math.round(performance.now() - started) };
  } finally {
    clearInterval(timer);
  }
}

// Retained memory needs a real collection: expose gc for this process (the peak figures do not use it).
v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;
/** Heap in use after a full collection: what is still referenced, not what awaits collection. */
const liveHeapMb = (): number => {
  gc();
  return round(process.memoryUsage().heapUsed / 2 ** 20);
};

/** Set sizes measured; the growth ratio compares the largest with the smallest (same drawings, repeated). */
const SET_SIZES = [10, 60];
const SET_SOURCES = [sample, ...['mech_flange_3frames_modelspace_DERIVED.dxf', 'frame_iso_en_a3_titleblock.dxf', 'mech_flange_layouts.dxf', 'gh209_1_symbol_border_R2010.dxf', 'cn_arch_gh109_1_R2000_GBK_DERIVED.dxf'].map((f) => path.join(repoRoot, 'electron/testSupport/fixtures/dxf', f))];

async function drawingSet() {
  const { db, deps: base } = deps();
  let setRun = 0;
  const reviewFile = dxfSetFileReviewer({ ...base, newRunId: () => `bench-set-${++setRun}` }, { checklist, locale: 'zh-CN', concurrency: 1 });
  const largest = [...SET_SOURCES].sort((a, b) => statSync(b).size - statSync(a).size)[0]!;
  // The largest drawing alone first: the baseline for "one drawing plus a bounded cache".
  const one = await peakMemory(() => reviewFile(largest, path.join(work, 'one')));
  const sets = [];
  for (const size of SET_SIZES) {
    const folder = path.join(work, `set-${size}`);
    mkdirSync(folder);
    for (let i = 0; i < size; i++) copyFileSync(SET_SOURCES[i % SET_SOURCES.length]!, path.join(folder, `sheet-${String(i + 1).padStart(2, '0')}.dxf`));
    const options = { folder, out: path.join(work, `set-${size}-out`), jobs: 2, locale: 'zh-CN' as const };
    const liveBefore = liveHeapMb();
    const set = await peakMemory(() => runReviewSet(options, { reviewFile, now: () => new Date(), onProgress: () => undefined }));
    // The set report is still held here (as any caller holds it); everything else must be gone.
    const retainedMb = round(liveHeapMb() - liveBefore);
    const resumed = await peakMemory(() => runReviewSet(options, { reviewFile, now: () => new Date(), onProgress: () => undefined }));
    sets.push({
      files: size,
      jobs: options.jobs,
      setMs: set.ms,
      perFileMs: round(set.ms / size),
      peakRssMb: set.peakRssMb,
      peakHeapMb: set.peakHeapMb,
      retainedHeapMb: retainedMb,
      resumedMs: resumed.ms,
      findings: set.value.findings.length,
      crossSheet: set.value.crossSheet.length,
      failedFiles: set.value.files.filter((f) => f.error !== null).length,
    });
  }
  db.close();
  const small = sets[0]!;
  const big = sets[sets.length - 1]!;
  return {
    oneDrawingMs: one.ms,
    oneDrawingPeakRssMb: one.peakRssMb,
    oneDrawingPeakHeapMb: one.peakHeapMb,
    sets,
    /** Peak RSS of the largest set over the smallest: ~1 when memory does not grow with the set. */
    rssGrowth: round(big.peakRssMb / small.peakRssMb, 2),
    heapGrowth: round(big.peakHeapMb / small.peakHeapMb, 2),
    /** Heap still referenced after the largest set over after the smallest (after a full collection each). */
    retainedSmallMb: small.retainedHeapMb,
    retainedBigMb: big.retainedHeapMb,
    filesGrowth: round(big.files / small.files, 1),
  };
}

const result = {
  machine: { cpus: os.cpus().length, node: process.version },
  runs: RUNS,
  rulesOnlySample: await rulesOnlySample(),
  concurrency: await concurrency(),
  llm: await llmOverhead(),
  set: await drawingSet(),
};

const r = result;
const md = `# Review benchmark

Machine: ${r.machine.cpus} CPUs, Node ${r.machine.node}; medians of ${r.runs} runs.

| measure | value | baseline / target |
|---|---|---|
| rules-only review of the 3-frame sample (open + review + report) | ${r.rulesOnlySample.wallMs} ms | target ≤ ${r.rulesOnlySample.targetMs} ms |
| orchestration share of that wall time | ${round(r.rulesOnlySample.orchestrationShare * 100)} % (${r.rulesOnlySample.orchestrationMs} ms) | backend open + tool calls ${r.rulesOnlySample.backendMs} ms |
| 4 frames, screenshot latency ${r.concurrency.screenshotLatencyMs} ms: frame phase at concurrency 4 vs 1 | ${r.concurrency.framePhaseParallel4Ms} ms vs ${r.concurrency.framePhaseSerialMs} ms → **${r.concurrency.framePhaseSpeedup}×** | target ≥ ${r.concurrency.target}× |
| same, whole run incl. planning, drawing-wide reads and report | ${r.concurrency.parallel4Ms} ms vs ${r.concurrency.serialMs} ms → ${r.concurrency.speedup}× | (fixed part does not parallelise) |
| LLM orchestration overhead on the sample, model answering in ${r.llm.modelLatencyMs} ms, 3 frames | ${round(r.llm.overheadShare * 100, 2)} % of ${r.llm.wallMs} ms | model ${r.llm.modelMs} ms + backend ${r.llm.backendMs} ms excluded; target < ${r.llm.target * 100} % |
${r.set.sets.map((x) => `| drawing set: ${x.files} files (\`cadsight review <folder> --jobs ${x.jobs}\`), rules only | ${x.setMs} ms (${x.perFileMs} ms/file), ${x.findings} findings, ${x.crossSheet} cross-sheet, ${x.failedFiles} failed files; peak RSS ${x.peakRssMb} MB, heap ${x.peakHeapMb} MB; heap still held afterwards ${x.retainedHeapMb} MB | resumed run ${x.resumedMs} ms (nothing to redo) |`).join('\n')}
| drawing set memory growth, ${r.set.sets[r.set.sets.length - 1]!.files} vs ${r.set.sets[0]!.files} files (${r.set.filesGrowth}× the files) | peak RSS ×${r.set.rssGrowth}, peak heap ×${r.set.heapGrowth}; heap held after the set ${r.set.retainedSmallMb} → ${r.set.retainedBigMb} MB | largest drawing alone: RSS ${r.set.oneDrawingPeakRssMb} MB, heap ${r.set.oneDrawingPeakHeapMb} MB (${r.set.oneDrawingMs} ms) |
| context per frame (request bytes incl. the 1280 px PNG screenshot) | ${r.llm.contextBytesPerFrame} B (max request ${r.llm.maxRequestBytes} B), ~${r.llm.estimatedTextTokensPerFrame} tokens if all were text | evidence text capped at ${r.llm.evidenceBudgetChars} chars/frame (~15k tokens) + ≤ 10 images of ≤ 1280 px |
`;
mkdirSync(path.join(repoRoot, 'bench/results'), { recursive: true });
writeFileSync(path.join(repoRoot, 'bench/results/review.json'), `${JSON.stringify(result, null, 2)}\n`);
writeFileSync(path.join(repoRoot, 'bench/results/review.md'), md);
process.stdout.write(md);
