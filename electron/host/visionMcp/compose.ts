import { randomUUID } from 'node:crypto';
import { openDatabase } from '../../platform/db/openDatabase';
import { prepareDataDir } from '../../platform/dataDir/resolveDataDir';
import { createLlmGateway } from '../../platform/llm/gateway';
import { createNodeHttpFetch } from '../../platform/llm/nodeHttpFetch';
import type { Logger } from '../../platform/log/types';
import {
  addressPolicy,
  createFfmpegFrameExtractor,
  createPdfjsRenderer,
  createSharpImageProcessor,
  createSourceLoader,
  createSqliteSessionRepository,
  createVisionService,
  imageLimitsFor,
  type VisionService,
} from '../../features/vision';
import { allMigrations } from '../composition/migrations';
import type { VisionMcpConfig } from './config';

/** Decode guard: 4000×3000 drawings pass with room; image bombs are refused before decode. */
const MAX_INPUT_PIXELS = 40_000_000;
/** Long edge for OpenAI-compatible gateways of unknown models (picsense's and our old default). */
const DEFAULT_GENERIC_EDGE = 1280;

export interface VisionRuntime {
  service: VisionService;
  close(): void;
}

/**
 * Wires the vision engine for the MCP server: the shared SQLite database (sessions visible to
 * the desktop app), the platform LLM gateway, the real network/file loader, sharp and ffmpeg.
 */
export function composeVisionRuntime(config: VisionMcpConfig, log: Logger): VisionRuntime {
  prepareDataDir(config.databaseFile.replace(/[\\/][^\\/]+$/, ''));
  // The full app list: the desktop app opens the same file, and user_version counts all slices.
  const opened = openDatabase({ file: config.databaseFile, migrations: allMigrations, log, preallocateWal: true });
  for (const notice of opened.notices) log.warn(notice.message, { code: notice.code });
  // One kept-alive connection to the provider instead of the global fetch: a fifth of its CPU per call.
  const http = createNodeHttpFetch();
  const gateway = createLlmGateway({ provider: config.provider, retry: { maxAttempts: 3, baseDelayMs: 500, maxDelayMs: 8_000, totalBudgetMs: 60_000 }, log, fetch: http.fetch });
  // Images follow what the configured provider really looks at; IMAGE_MAX_EDGE, when set, caps it.
  const limits = imageLimitsFor(config.provider, config.imageMaxEdge ?? DEFAULT_GENERIC_EDGE, config.imageMaxEdge);
  const service = createVisionService({
    gateway,
    repository: createSqliteSessionRepository(opened.db),
    loader: createSourceLoader({
      http: { allowAddress: addressPolicy(config.allowPrivateUrls), connectTimeoutMs: 10_000, totalTimeoutMs: config.downloadTimeoutMs, maxRedirects: 3 },
      files: { allowedRoots: config.allowedRoots, cwd: process.cwd() },
      maxBytes: config.maxImageBytes,
      maxDocumentBytes: 5 * 1024 * 1024,
    }),
    processor: createSharpImageProcessor({ limits, format: config.imageFormat, maxInputPixels: MAX_INPUT_PIXELS }),
    pdf: createPdfjsRenderer({ workerScript: new URL('./pdfWorker.js', import.meta.url) }),
    frames: createFfmpegFrameExtractor({ ffmpegPath: config.ffmpegPath, maxEdge: Math.min(limits.maxLongEdge, 2048), timeoutMs: 120_000 }),
    clock: { now: () => Date.now() },
    newId: () => `vs_${randomUUID().replaceAll('-', '')}`,
    settings: {
      limits: { maxImageBytes: config.maxImageBytes, maxInputPixels: MAX_INPUT_PIXELS, loadConcurrency: 4, maxPdfBytes: 50 * 1024 * 1024, maxPdfPages: config.sessionMaxImages },
      budget: { maxImages: config.sessionMaxImages, maxPixels: config.sessionMaxPixels },
      sessionTtlMs: config.sessionTtlMs,
      maxOutputTokens: 4096,
      video: { fps: config.videoFps, maxFrames: config.videoMaxFrames, maxBytes: 100 * 1024 * 1024 },
      document: { concurrency: 3, defaultMaxImages: 20 },
    },
  });
  return {
    service,
    close: () => {
      http.close();
      opened.db.close();
    },
  };
}

/**
 * The runtime composed on the first tool call instead of at start: initialize and tools/list
 * need no database, and opening it (migrations, the WAL's preallocation) was a tenth of the
 * cold start. A failure to compose (e.g. the database cannot be opened) fails that call with
 * its typed error (a rejection for the async calls) and is tried again on the next one;
 * `onComposed` runs once, on success.
 */
export function composeOnFirstUse(compose: () => VisionRuntime, onComposed: (runtime: VisionRuntime) => void): VisionRuntime {
  let runtime: VisionRuntime | undefined;
  const get = (): VisionService => {
    if (!runtime) {
      runtime = compose();
      onComposed(runtime);
    }
    return runtime.service;
  };
  const service: VisionService = {
    analyzeImages: async (input, options) => get().analyzeImages(input, options),
    zoomImage: async (input, options) => get().zoomImage(input, options),
    analyzeVideo: async (input, options) => get().analyzeVideo(input, options),
    analyzeDocument: async (input, options) => get().analyzeDocument(input, options),
    renameSession: async (sessionId, summary) => get().renameSession(sessionId, summary),
    deleteSession: async (sessionId) => get().deleteSession(sessionId),
    listSessions: () => get().listSessions(),
    sweepExpired: () => get().sweepExpired(),
  };
  return { service, close: () => runtime?.close() };
}
