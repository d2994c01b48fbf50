// npm run bench:vision — preprocessing, payload and token figures for 4000×3000 drawings and
// photos, first-call request size, MCP round-trip overhead, cold start and peak memory under
// image bombs. Every figure is compared with a baseline measured in the same run.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { createSharpImageProcessor, estimateVisionTokens } from '../../electron/features/vision';
import { sniffImage } from '../../electron/features/vision/domain/imageSniff';
import { createLlmGateway } from '../../electron/platform/llm/gateway';
import { startScriptedProvider } from '../../electron/testSupport/scriptedProvider';
import { startVisionHarness } from '../../electron/testSupport/visionFixtures/harness';
import { lineArtPng, photoJpeg } from '../../electron/testSupport/visionFixtures/images';
import { connect, measureBombs, measureColdStart, median, repoRoot } from './vision.process';

const RUNS = Number(process.env.BENCH_RUNS ?? 7);
const b64 = (n: number) => Math.ceil(n / 3) * 4;
const kb = (n: number) => Math.round(n / 1024);
const round = (n: number, d = 1) => Math.round(n * 10 ** d) / 10 ** d;

async function preprocessing() {
  const processor = createSharpImageProcessor({ maxEdge: 1280, format: 'png', maxInputPixels: 40_000_000 });
  const inputs: Array<[string, Uint8Array]> = [
    ['line-art PNG 4000×3000', await lineArtPng(4000, 3000)],
    ['monochrome line-art PNG 4000×3000', await lineArtPng(4000, 3000, 'monochrome')],
    ['photo JPEG 4000×3000', await photoJpeg(4000, 3000)],
    ['line-art PNG 1200×900 (no resize)', await lineArtPng(1200, 900)],
    ['photo JPEG 1000×750 (no resize)', await photoJpeg(1000, 750)],
  ];
  const jpegProcessor = createSharpImageProcessor({ maxEdge: 1280, format: 'jpeg', maxInputPixels: 40_000_000 });
  const runs: Array<[string, Uint8Array, typeof processor]> = [
    ...inputs.map(([name, bytes]): [string, Uint8Array, typeof processor] => [name, bytes, processor]),
    ['line-art PNG 4000×3000 with IMAGE_FORMAT=jpeg', inputs[0]![1], jpegProcessor],
  ];
  const rows = [];
  for (const [name, bytes, processor] of runs) {
    const sniffed = sniffImage(bytes);
    const times: number[] = [];
    let last;
    for (let i = 0; i < RUNS; i++) {
      const start = performance.now();
      last = await processor.prepare(bytes, sniffed);
      times.push(performance.now() - start);
    }
    const prepared = last!.prepared;
    rows.push({
      name,
      msMedian: round(median(times)),
      reencoded: last!.reencoded,
      bytesBefore: bytes.length,
      bytesAfter: prepared.bytes.length,
      tokensBefore: estimateVisionTokens(sniffed.width, sniffed.height),
      tokensAfter: estimateVisionTokens(prepared.width, prepared.height),
      sizeAfter: `${prepared.width}×${prepared.height} ${prepared.mimeType}`,
    });
  }
  return { rows, lineArt: inputs[0]![1], monochrome: inputs[1]![1] };
}

/** First model request of a new session for the 4000×3000 drawing: ours vs sending it untouched. */
async function firstCallBytes(lineArt: Uint8Array) {
  const measure = async (maxEdge: number) => {
    const harness = await startVisionHarness({ maxEdge, settings: { limits: { maxImageBytes: 20 * 1024 * 1024, maxInputPixels: 40_000_000, loadConcurrency: 4 } }, script: [{ text: 'ok' }] });
    try {
      const file = path.join(harness.dir, 'drawing.png');
      writeFileSync(file, lineArt);
      await harness.service.analyzeImages({ sources: [file], prompt: 'Describe the drawing.' });
      return harness.provider.requests[0]!.bodyBytes;
    } finally {
      await harness.close();
    }
  };
  return { oursBytes: await measure(1280), untouchedBytes: await measure(100_000) };
}

/** Median latency of direct gateway calls vs analyze_images through the MCP server. */
async function roundTrip(delayMs: number, calls: number) {
  const provider = await startScriptedProvider({ script: () => ({ text: 'ok', delayMs }) });
  const dir = mkdtempSync(path.join(tmpdir(), 'cadsight-bench-'));
  try {
    const image = await lineArtPng(640, 480);
    const file = path.join(dir, 'img.png');
    writeFileSync(file, image);
    const gateway = createLlmGateway({
      provider: { id: 'chat', protocol: 'chat-completions', baseUrl: provider.apiBaseUrl, model: 'scripted-model', getApiKey: () => 'sk-bench-0123456789' },
      retry: { maxAttempts: 1, baseDelayMs: 1, maxDelayMs: 1, totalBudgetMs: 10_000 },
    });
    const direct: number[] = [];
    for (let i = 0; i < calls; i++) {
      const start = performance.now();
      await gateway.complete({ messages: [{ role: 'user', content: [{ type: 'image', mimeType: 'image/png', data: image }, { type: 'text', text: 'Describe.' }] }], maxOutputTokens: 256 });
      direct.push(performance.now() - start);
    }
    const { client } = await connect(provider, dir);
    const viaMcp: number[] = [];
    try {
      for (let i = 0; i < calls; i++) {
        const start = performance.now();
        const result = await client.callTool({ name: 'analyze_images', arguments: { image_sources: [file], prompt: 'Describe.' } });
        if (result.isError) throw new Error(`bench call failed: ${JSON.stringify(result.content)}`);
        viaMcp.push(performance.now() - start);
      }
    } finally {
      await client.close();
    }
    const d = median(direct);
    const m = median(viaMcp);
    return { providerDelayMs: delayMs, directMs: round(d), mcpMs: round(m), overheadMs: round(m - d), overheadRatio: round((m - d) / d, 3) };
  } finally {
    await provider.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main() {
  const loadBefore = loadavg()[0]!;
  const pre = await preprocessing();
  const first = await firstCallBytes(pre.lineArt);
  const firstMono = await firstCallBytes(pre.monochrome);
  const trips = [await roundTrip(0, 20), await roundTrip(250, 10), await roundTrip(2000, 5)];
  const provider = await startScriptedProvider({ script: () => ({ text: 'ok' }) });
  const dir = mkdtempSync(path.join(tmpdir(), 'cadsight-bench-'));
  const cold = await measureColdStart(provider, dir, 5);
  const bombs = await measureBombs(provider, dir);
  await provider.close();
  rmSync(dir, { recursive: true, force: true });

  const lineArt = pre.rows[0]!;
  const resized = pre.rows.filter((r) => r.reencoded).map((r) => r.msMedian);
  const results = {
    machine: { cpus: cpus().length, node: process.version, runs: RUNS, at: new Date().toISOString(), loadAverage1m: { before: round(loadBefore, 2), after: round(loadavg()[0]!, 2) } },
    preprocessing: pre.rows,
    firstCall: { colour: { ...first, ratio: round(first.oursBytes / first.untouchedBytes, 3) }, monochrome: { ...firstMono, ratio: round(firstMono.oursBytes / firstMono.untouchedBytes, 3) } },
    roundTrip: trips,
    coldStart: { ...cold, ratioToBareMcpServer: round(cold.coldStartMs / cold.bareMcpServerMs, 2) },
    bombs,
    targets: {
      firstCallColourLineArtKb: { value: kb(first.oursBytes), target: 460, pass: kb(first.oursBytes) <= 460 },
      firstCallMonochromeLineArtKb: { value: kb(firstMono.oursBytes), target: 460, pass: kb(firstMono.oursBytes) <= 460 },
      preprocessingMedianMs: { value: Math.max(...resized), target: 350, pass: Math.max(...resized) <= 350 },
      reencodesWithoutResize: { value: pre.rows.filter((r) => r.name.includes('no resize') && r.reencoded).length, target: 0, pass: pre.rows.filter((r) => r.name.includes('no resize') && r.reencoded).length === 0 },
      coldStartMs: { value: round(cold.coldStartMs), target: 350, pass: cold.coldStartMs <= 350 },
      overheadRatioAt250msProvider: { value: trips[1]!.overheadRatio, target: 0.1, pass: trips[1]!.overheadRatio <= 0.1 },
      overheadRatioAt2sProvider: { value: trips[2]!.overheadRatio, target: 0.1, pass: trips[2]!.overheadRatio <= 0.1 },
      bombPeakRssMb: { value: round(bombs.bombPeakMb), target: 300, pass: bombs.bombPeakMb <= 300 },
    },
  };
  const md = [
    '# Vision benchmark',
    '',
    `${results.machine.cpus} CPUs, Node ${results.machine.node}, median of ${RUNS} runs, ${results.machine.at}; 1-minute load average ${results.machine.loadAverage1m.before} before / ${results.machine.loadAverage1m.after} after (the machine is shared).`,
    '',
    '| Image | ms (median) | re-encoded | bytes before → after | base64 before → after | est. tokens before → after | sent as |',
    '|---|---:|---|---:|---:|---:|---|',
    ...pre.rows.map((r) => `| ${r.name} | ${r.msMedian} | ${r.reencoded ? 'yes' : 'no'} | ${kb(r.bytesBefore)} KB → ${kb(r.bytesAfter)} KB | ${kb(b64(r.bytesBefore))} KB → ${kb(b64(r.bytesAfter))} KB | ${r.tokensBefore} → ${r.tokensAfter} | ${r.sizeAfter} |`),
    '',
    `First-call request for the 4000×3000 colour line-art PNG (${kb(lineArt.bytesBefore)} KB file): **${kb(first.oursBytes)} KB** vs ${kb(first.untouchedBytes)} KB when sent untouched (ratio ${results.firstCall.colour.ratio}).`,
    `First-call request for the 4000×3000 monochrome line-art PNG (${kb(pre.rows[1]!.bytesBefore)} KB file): **${kb(firstMono.oursBytes)} KB** vs ${kb(firstMono.untouchedBytes)} KB when sent untouched (ratio ${results.firstCall.monochrome.ratio}).`,
    '',
    '| Scripted provider delay | direct gateway call (ms) | analyze_images via MCP (ms) | overhead (ms) | overhead ratio |',
    '|---:|---:|---:|---:|---:|',
    ...trips.map((t) => `| ${t.providerDelayMs} ms | ${t.directMs} | ${t.mcpMs} | ${t.overheadMs} | ${t.overheadRatio} |`),
    '',
    `Cold start to tools/list answer: **${round(cold.coldStartMs)} ms**; in the same run a bare one-tool SDK server took ${round(cold.bareMcpServerMs)} ms (ratio ${results.coldStart.ratioToBareMcpServer}) and \`node -e\` ${round(cold.nodeBaselineMs)} ms.`,
    '',
    `Peak RSS of the server: ${round(bombs.idlePeakMb)} MB after tools/list, **${round(bombs.bombPeakMb)} MB** after refusing image bombs (${bombs.refused.join('; ')}).`,
    '',
    '| Target | value | target | pass |',
    '|---|---:|---:|---|',
    ...Object.entries(results.targets).map(([name, t]) => `| ${name} | ${t.value} | ${t.target} | ${t.pass ? 'yes' : 'NO'} |`),
    '',
  ].join('\n');
  const out = path.join(repoRoot, 'bench/results');
  mkdirSync(out, { recursive: true });
  writeFileSync(path.join(out, 'vision.json'), `${JSON.stringify(results, null, 2)}\n`);
  writeFileSync(path.join(out, 'vision.md'), md);
  process.stdout.write(`${md}\n`);
}

await main();
