// npm run bench:cdsl — CDSL geometry runtime on OpenCascade (worker thread): kernel start,
// build+verify time per operation, full rebuild per example, export times, GLB size, memory.
// Baselines are measured in the same run: a bare worker thread start for the kernel start, the
// simplest operation (a box extrude) for per-operation times, the first build for memory.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import {
  buildDocument,
  createCdslCatalog,
  createFsPublisher,
  createOcctRuntime,
  encodeGlb,
  OCCT_OPERATION_IDS,
  parseClaims,
  renderPng,
  type CadRuntime,
  type CdslDocument,
} from '../../electron/features/cadgen/index';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const workerScript = path.join(repoRoot, 'dist/node/occtWorker.js');
const RUNS = Number(process.env.BENCH_CDSL_RUNS ?? 5);
const MEMORY_BUILDS = Number(process.env.BENCH_CDSL_MEMORY_BUILDS ?? 100);
const EXAMPLES = ['flange', 'plate_hole_grid', 'l_bracket', 'shelled_box', 'tube', 'revolved_bushing', 'patterned_bar', 'chamfered_block'];
const round = (n: number, d = 1) => Math.round(n * 10 ** d) / 10 ** d;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;
const catalog = createCdslCatalog(OCCT_OPERATION_IDS);
const example = (name: string) => {
  const read = (file: string) => JSON.parse(readFileSync(path.join(repoRoot, 'resources/examples/cdsl', file), 'utf8')) as unknown;
  return { document: catalog.validateDocument(read(`${name}.json`)), claims: parseClaims(catalog, read(`${name}.claims.json`)) };
};
const NO_OUTPUTS = { step: false, meshes: false, projections: false };

async function bareWorkerStartMs(): Promise<number> {
  const started = performance.now();
  const worker = new Worker("require('node:worker_threads').parentPort.postMessage('ready')", { eval: true });
  await new Promise((resolve) => worker.once('message', resolve));
  const elapsed = performance.now() - started;
  await worker.terminate();
  return elapsed;
}

async function kernelStart(): Promise<{ wall_ms: number; in_worker_ms: number; bare_worker_ms: number }> {
  const walls: number[] = [];
  const inside: number[] = [];
  const bare: number[] = [];
  for (let i = 0; i < 3; i += 1) {
    bare.push(await bareWorkerStartMs());
    const runtime = createOcctRuntime({ workerScript });
    const started = performance.now();
    inside.push(await runtime.warmUp());
    walls.push(performance.now() - started);
    await runtime.dispose();
  }
  return { wall_ms: round(median(walls)), in_worker_ms: round(median(inside)), bare_worker_ms: round(median(bare)) };
}

/** Median duration (preflight + execute + validity check + snapshot) of each feature of each example, plus claim evaluation. */
async function perOperation(runtime: CadRuntime): Promise<{ atomic_id: string; source: string; median_ms: number }[]> {
  const samples = new Map<string, { source: string; values: number[] }>();
  for (const name of EXAMPLES) {
    const { document, claims } = example(name);
    for (let run = 0; run < RUNS; run += 1) {
      const outcome = await runtime.build(document, NO_OUTPUTS);
      const verifyStart = performance.now();
      await buildDocument({ catalog, runtime: { ...runtime, build: async () => outcome } }, { document, claims, stage: 'final' });
      const verifyMs = (performance.now() - verifyStart) / document.features.length;
      for (const feature of outcome.features) {
        const key = `${feature.atomic_id}@${name}`;
        const entry = samples.get(key) ?? { source: `${name} ${feature.id}`, values: [] };
        entry.values.push((feature.duration_ms ?? 0) + verifyMs);
        samples.set(key, entry);
      }
    }
  }
  const best = new Map<string, { source: string; median_ms: number }>();
  for (const [key, entry] of samples) {
    const atomicId = key.split('@')[0] as string;
    const value = median(entry.values);
    if (!best.has(atomicId) || value < (best.get(atomicId)?.median_ms ?? Infinity)) best.set(atomicId, { source: entry.source, median_ms: round(value) });
  }
  return [...best.entries()].map(([atomic_id, v]) => ({ atomic_id, ...v })).sort((a, b) => a.median_ms - b.median_ms);
}

async function boxExtrudeMs(runtime: CadRuntime): Promise<number> {
  const box: CdslDocument = catalog.validateDocument({
    cdsl_version: '3.0', units: 'mm', name: 'box',
    features: [{ id: 'F1', atomic_id: 'extrude', sketch: { workplane: { origin: [0, 0, 0], normal: [0, 0, 1], x_dir: [1, 0, 0] }, profile: { outer: { type: 'rectangle', center: [0, 0], width_mm: 10, height_mm: 10 } } }, params: { extent: { kind: 'one_sided', distance_mm: 10, reverse: false }, body: 'new_body' } }],
  });
  const values: number[] = [];
  for (let i = 0; i < RUNS; i += 1) values.push((await runtime.build(box, NO_OUTPUTS)).features[0]?.duration_ms ?? 0);
  return round(median(values));
}

async function rebuilds(runtime: CadRuntime): Promise<{ example: string; features: number; median_ms: number }[]> {
  const rows = [];
  for (const name of EXAMPLES) {
    const { document, claims } = example(name);
    const values: number[] = [];
    for (let i = 0; i < 3; i += 1) {
      const started = performance.now();
      const report = await buildDocument({ catalog, runtime }, { document, claims, stage: 'final' });
      if (!report.features.every((f) => f.status === 'built')) throw new Error(`${name} did not build`);
      values.push(performance.now() - started);
    }
    rows.push({ example: name, features: document.features.length, median_ms: round(median(values)) });
  }
  return rows;
}

async function exports(runtime: CadRuntime) {
  const { document, claims } = example('flange');
  const dir = mkdtempSync(path.join(os.tmpdir(), 'cdsl-bench-'));
  try {
    const started = performance.now();
    const report = await buildDocument({ catalog, runtime, publisher: createFsPublisher(() => new Date()), encoders: { glb: encodeGlb, png: renderPng } }, { document, claims, outDir: path.join(dir, 'out'), stage: 'final' });
    const total = performance.now() - started;
    const glb = report.artifacts?.files.find((f) => f.name === 'model.glb')?.bytes ?? 0;
    const t = report.timings_ms;
    return { step_ms: round(t.step ?? 0), meshes_ms: round(t.meshes ?? 0), projections_ms: round(t.projections ?? 0), glb_png_publish_ms: round(t.artifacts ?? 0), total_ms: round(total), glb_bytes: glb };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function memory(runtime: CadRuntime) {
  const { document } = example('flange');
  const first = await runtime.build(document, NO_OUTPUTS);
  let last = first;
  for (let i = 1; i < MEMORY_BUILDS; i += 1) last = await runtime.build(document, NO_OUTPUTS);
  return { builds: MEMORY_BUILDS, baseline_heap_bytes: first.memory.wasm_heap_bytes, final_heap_bytes: last.memory.wasm_heap_bytes, ratio: round(last.memory.wasm_heap_bytes / first.memory.wasm_heap_bytes, 3), live_objects_after: last.memory.live_objects, released_per_build: last.memory.released_objects };
}

const start = await kernelStart();
// One worker for the whole run (recycling disabled) so the memory figure shows the raw heap trend.
const runtime = createOcctRuntime({ workerScript, operationTimeoutMs: 120_000, recycleHeapBytes: Number.MAX_SAFE_INTEGER });
await runtime.warmUp();
const baselineOpMs = await boxExtrudeMs(runtime);
const operations = await perOperation(runtime);
const examples = await rebuilds(runtime);
const exported = await exports(runtime);
const mem = await memory(runtime);
await runtime.dispose();
const peakRssMb = round(process.resourceUsage().maxRSS / 1024);
const tenFeature = examples.find((e) => e.features >= 10);

const result = {
  machine: { cpus: os.cpus().length, node: process.version, load_average: os.loadavg().map((l) => round(l, 2)), date: new Date().toISOString() },
  kernel_start: { ...start, ratio_to_bare_worker: round(start.wall_ms / start.bare_worker_ms, 2) },
  per_operation: { baseline_box_extrude_ms: baselineOpMs, runs: RUNS, operations: operations.map((o) => ({ ...o, ratio_to_box_extrude: round(o.median_ms / baselineOpMs, 2) })) },
  rebuilds: examples,
  exports: exported,
  memory: { ...mem, peak_rss_mb: peakRssMb },
  targets: {
    warm_start_le_1s: start.in_worker_ms <= 1000,
    per_op_le_300ms: operations.every((o) => o.median_ms <= 300),
    ten_feature_rebuild_le_3s: tenFeature ? tenFeature.median_ms <= 3000 : null,
    flange_glb_le_500kb: exported.glb_bytes <= 500 * 1024,
    memory_within_10pct: mem.ratio <= 1.1,
  },
};

const md = [
  '# CDSL geometry runtime benchmark',
  '',
  `${result.machine.cpus} CPUs (shared), Node ${result.machine.node}, load average ${result.machine.load_average.join(' / ')}, ${result.machine.date}. OpenCascade (replicad WASM) in a worker thread.`,
  '',
  '## Kernel start',
  '',
  `Kernel load inside the worker **${start.in_worker_ms} ms** (median of 3); worker spawn + kernel ${start.wall_ms} ms; bare worker thread baseline ${start.bare_worker_ms} ms (ratio ${result.kernel_start.ratio_to_bare_worker}).`,
  '',
  `## Build + verify per operation (median of ${RUNS}; baseline box extrude ${baselineOpMs} ms)`,
  '',
  '| operation | measured in | median ms | × box extrude |',
  '|---|---|---:|---:|',
  ...result.per_operation.operations.map((o) => `| ${o.atomic_id} | ${o.source} | ${o.median_ms} | ${o.ratio_to_box_extrude} |`),
  '',
  '## Full rebuild + claims per example (median of 3)',
  '',
  '| example | features | median ms |',
  '|---|---:|---:|',
  ...examples.map((e) => `| ${e.example} | ${e.features} | ${e.median_ms} |`),
  '',
  '## Exports (flange)',
  '',
  `STEP ${exported.step_ms} ms, per-face meshes ${exported.meshes_ms} ms, 4 HLR projections ${exported.projections_ms} ms, GLB + 4 PNG + publish ${exported.glb_png_publish_ms} ms; build + exports total ${exported.total_ms} ms. GLB **${round(exported.glb_bytes / 1024)} KB**.`,
  '',
  '## Memory',
  '',
  `WASM heap after 1 build ${round(mem.baseline_heap_bytes / 2 ** 20)} MB, after ${mem.builds} builds ${round(mem.final_heap_bytes / 2 ** 20)} MB (ratio ${mem.ratio}); live kernel objects after a build ${mem.live_objects_after} (${mem.released_per_build} released per build). Peak process RSS ${peakRssMb} MB. (The runtime recycles a worker past 512 MiB of WASM heap by default; disabled here to show the trend.)`,
  '',
  '## Targets',
  '',
  ...Object.entries(result.targets).map(([k, v]) => `- ${k}: ${v === null ? 'n/a' : v ? 'met' : 'NOT met'}`),
  '',
].join('\n');

mkdirSync(path.join(repoRoot, 'bench/results'), { recursive: true });
writeFileSync(path.join(repoRoot, 'bench/results/cdsl.json'), `${JSON.stringify(result, null, 2)}\n`);
writeFileSync(path.join(repoRoot, 'bench/results/cdsl.md'), md);
process.stdout.write(md);
