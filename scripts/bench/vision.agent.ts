// What an agent receives and pays for (issue #29): tools/list size, the second turn on a 4K
// drawing (bytes and the share a provider's prompt cache can serve), and each hostile PDF's
// answer, time and the server's peak memory.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { ScriptedProvider } from '../../electron/testSupport/scriptedProvider';
import { fillsBombPdf, flateBombPdf, imageBombPdf } from '../../electron/testSupport/visionFixtures/hostilePdf';
import { startVisionHarness } from '../../electron/testSupport/visionFixtures/harness';
import { connect, peakRssMb } from './vision.process';

/** Bytes of the tools/list reply as the client receives it. */
export async function toolsListBytes(provider: ScriptedProvider, dir: string): Promise<number> {
  const { client } = await connect(provider, dir);
  try {
    return Buffer.byteLength(JSON.stringify(await client.listTools()));
  } finally {
    await client.close();
  }
}

/** Length of the common prefix of two strings. */
function commonPrefix(a: string, b: string): number {
  let i = 0;
  while (i < a.length && i < b.length && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}

/**
 * A first turn and a follow-up on the same drawing: the follow-up's request bytes, and the part
 * of it that repeats the first request byte for byte from the start (what automatic prefix
 * caching — OpenAI, DeepSeek, Qwen — and Anthropic's cache_control on the image prefix serve).
 */
export async function followUpTurn(drawing: Uint8Array) {
  const harness = await startVisionHarness({ maxEdge: 1280, settings: { limits: { maxImageBytes: 20 * 1024 * 1024, maxInputPixels: 40_000_000, loadConcurrency: 4, maxPdfBytes: 50 * 1024 * 1024, maxPdfPages: 8 } }, script: [{ text: 'A flange drawing.\nSUMMARY: Flange' }, { text: 'Ø40 H7.' }] });
  try {
    const file = path.join(harness.dir, 'drawing.png');
    writeFileSync(file, drawing);
    const first = await harness.service.analyzeImages({ sources: [file], prompt: 'Describe the drawing.' });
    await harness.service.analyzeImages({ sources: [], prompt: 'What is the bore tolerance?', sessionId: first.sessionId });
    const [a, b] = harness.provider.requests.map((r) => JSON.stringify(r.body));
    const secondBytes = harness.provider.requests[1]!.bodyBytes;
    return { firstBytes: harness.provider.requests[0]!.bodyBytes, secondBytes, cacheablePrefixBytes: commonPrefix(a!, b!), cacheableShare: Math.round((commonPrefix(a!, b!) / b!.length) * 1000) / 1000 };
  } finally {
    await harness.close();
  }
}

/** Each hostile PDF against a fresh server: its answer, the time to it, and the server's peak RSS. */
export async function hostilePdfs(provider: ScriptedProvider, dir: string) {
  const cases: Array<[string, () => Promise<Uint8Array>]> = [
    ['20000×20000 image (1-bit)', imageBombPdf],
    ['Flate bomb (1.2 GB inflated)', flateBombPdf],
    ['3 million fills on one page', fillsBombPdf],
  ];
  const rows = [];
  for (const [name, make] of cases) {
    const file = path.join(dir, 'hostile.pdf');
    writeFileSync(file, await make());
    const { client, transport } = await connect(provider, dir);
    try {
      await client.listTools();
      const started = performance.now();
      const result = (await client.callTool({ name: 'analyze_images', arguments: { image_sources: [file], prompt: 'x' } }, undefined, { timeout: 120_000 })) as { isError?: boolean; content: Array<{ text?: string }> };
      const seconds = Math.round((performance.now() - started) / 100) / 10;
      const code = result.isError ? (JSON.parse(result.content[0]!.text!) as { error: { code: string; message: string } }).error : { code: 'ANSWERED', message: '' };
      rows.push({ name, code: code.code, message: code.message, seconds, peakRssMb: Math.round(peakRssMb(transport.pid!)) });
    } finally {
      await client.close();
    }
  }
  return rows;
}
