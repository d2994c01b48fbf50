import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  addressPolicy,
  createFfmpegFrameExtractor,
  createPdfjsRenderer,
  createSharpImageProcessor,
  createSourceLoader,
  createSqliteSessionRepository,
  createVisionService,
  visionMigrations,
  visionTilesMigration,
  imageLimitsFor,
  type ImageLimits,
  type ImageProcessor,
  type VisionService,
  type VisionSettings,
} from '../../features/vision';
import { openDatabase } from '../../platform/db/openDatabase';
import type { SqliteDatabase } from '../../platform/db/types';
import { createLlmGateway } from '../../platform/llm/gateway';
import type { LlmProtocol } from '../../platform/llm/types';
import { startScriptedProvider, type Script, type ScriptedProvider } from '../scriptedProvider';
import { toolPath } from '../prereqs';

/** The bundled PDF render worker (built by the vitest global setup). */
export const builtPdfWorker = path.resolve(import.meta.dirname, '../../../dist/node/pdfWorker.js');

/** A vision engine wired with real adapters against the scripted provider and a temp SQLite file. */
export interface VisionHarness {
  service: VisionService;
  provider: ScriptedProvider;
  db: SqliteDatabase;
  dir: string;
  clock: { now: () => number; advance(ms: number): void };
  /** Counts decodes (prepare calls) made through the processor. */
  prepareCalls: () => number;
  /** Re-opens the database and builds a fresh engine (a process restart). */
  restart(): VisionService;
  close(): Promise<void>;
}

export const defaultTestSettings = (): VisionSettings => ({
  limits: { maxImageBytes: 5 * 1024 * 1024, maxInputPixels: 40_000_000, loadConcurrency: 4, maxPdfBytes: 50 * 1024 * 1024, maxPdfPages: 8 },
  budget: { maxImages: 8, maxPixels: 8_000_000 },
  sessionTtlMs: 24 * 3_600_000,
  maxOutputTokens: 1024,
  video: { fps: 2, maxFrames: 4, maxBytes: 20 * 1024 * 1024 },
  document: { concurrency: 3, defaultMaxImages: 20 },
});

export interface HarnessOptions {
  protocol?: LlmProtocol;
  /** Chat Completions gateways that only answer with stream=true. */
  forceStreaming?: boolean;
  script: Script;
  settings?: Partial<VisionSettings>;
  /** Long edge of the generic profile (ignored when `limits` is given). */
  maxEdge?: number;
  limits?: ImageLimits;
  allowPrivateUrls?: boolean;
  allowedRoots?: string[];
  ffmpegPath?: string;
}

/** The limits an unknown OpenAI-compatible gateway gets (what the scripted provider is). */
export const genericLimits = (maxEdge: number): ImageLimits => imageLimitsFor({ protocol: 'chat-completions', id: 'scripted', baseUrl: 'http://127.0.0.1/v1', model: 'scripted-model' }, maxEdge);

export async function startVisionHarness(options: HarnessOptions): Promise<VisionHarness> {
  const dir = mkdtempSync(path.join(tmpdir(), 'cadsight-vision-'));
  const provider = await startScriptedProvider({ script: options.script, apiKey: 'sk-test-vision-0123456789' });
  let now = Date.UTC(2026, 0, 1);
  const clock = { now: () => now, advance: (ms: number) => void (now += ms) };
  let prepares = 0;
  const settings = { ...defaultTestSettings(), ...options.settings };
  const real = createSharpImageProcessor({ limits: options.limits ?? genericLimits(options.maxEdge ?? 1280), format: 'png', maxInputPixels: settings.limits.maxInputPixels });
  const processor: ImageProcessor = { ...real, prepare: (bytes, sniffed) => (prepares++, real.prepare(bytes, sniffed)) };
  const gateway = createLlmGateway({
    provider: { id: 'scripted', protocol: options.protocol ?? 'chat-completions', baseUrl: provider.apiBaseUrl, model: 'scripted-model', getApiKey: () => 'sk-test-vision-0123456789', ...(options.forceStreaming ? { forceStreaming: true } : {}) },
    retry: { maxAttempts: 1, baseDelayMs: 1, maxDelayMs: 1, totalBudgetMs: 5_000 },
  });
  let ids = 0;
  let db = openDatabase({ file: path.join(dir, 'cadsight.db'), migrations: [...visionMigrations, visionTilesMigration] }).db;
  const build = () =>
    createVisionService({
      gateway,
      repository: createSqliteSessionRepository(db),
      loader: createSourceLoader({
        http: { allowAddress: addressPolicy(options.allowPrivateUrls ?? false), connectTimeoutMs: 2_000, totalTimeoutMs: 5_000, maxRedirects: 3 },
        files: { allowedRoots: options.allowedRoots ?? [], cwd: dir },
        maxBytes: settings.limits.maxImageBytes,
        maxDocumentBytes: 1024 * 1024,
      }),
      processor,
      pdf: createPdfjsRenderer({ workerScript: builtPdfWorker }),
      frames: createFfmpegFrameExtractor({ ffmpegPath: options.ffmpegPath ?? toolPath('ffmpeg') ?? 'ffmpeg', maxEdge: options.maxEdge ?? 1280, timeoutMs: 30_000 }),
      clock,
      newId: () => `vs_test_${++ids}`,
      settings,
    });
  const harness: VisionHarness = {
    service: build(),
    provider,
    get db() {
      return db;
    },
    dir,
    clock,
    prepareCalls: () => prepares,
    restart() {
      db.close();
      db = openDatabase({ file: path.join(dir, 'cadsight.db'), migrations: [...visionMigrations, visionTilesMigration] }).db;
      harness.service = build();
      return harness.service;
    },
    async close() {
      db.close();
      await provider.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return harness;
}

/** Counts image parts in a captured request body, whatever the protocol. */
export function countImageParts(body: unknown): number {
  if (Array.isArray(body)) return body.reduce((n: number, item) => n + countImageParts(item), 0);
  if (body === null || typeof body !== 'object') return 0;
  const record = body as Record<string, unknown>;
  const own = record.type === 'input_image' || record.type === 'image_url' || record.type === 'image' ? 1 : 0;
  return own + Object.values(record).reduce((n: number, value) => n + countImageParts(value), 0);
}
