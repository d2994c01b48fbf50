import { randomUUID } from 'node:crypto';
import { openDatabase } from '../../platform/db/openDatabase';
import { prepareDataDir } from '../../platform/dataDir/resolveDataDir';
import { createLlmGateway } from '../../platform/llm/gateway';
import type { Logger } from '../../platform/log/types';
import {
  addressPolicy,
  createFfmpegFrameExtractor,
  createSharpImageProcessor,
  createSourceLoader,
  createSqliteSessionRepository,
  createVisionService,
  type VisionService,
} from '../../features/vision';
import { allMigrations } from '../composition/migrations';
import type { VisionMcpConfig } from './config';

/** Decode guard: 4000×3000 drawings pass with room; image bombs are refused before decode. */
const MAX_INPUT_PIXELS = 40_000_000;

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
  const opened = openDatabase({ file: config.databaseFile, migrations: allMigrations, log });
  for (const notice of opened.notices) log.warn(notice.message, { code: notice.code });
  const gateway = createLlmGateway({ provider: config.provider, retry: { maxAttempts: 3, baseDelayMs: 500, maxDelayMs: 8_000, totalBudgetMs: 60_000 }, log });
  const service = createVisionService({
    gateway,
    repository: createSqliteSessionRepository(opened.db),
    loader: createSourceLoader({
      http: { allowAddress: addressPolicy(config.allowPrivateUrls), connectTimeoutMs: 10_000, totalTimeoutMs: config.downloadTimeoutMs, maxRedirects: 3 },
      files: { allowedRoots: config.allowedRoots, cwd: process.cwd() },
      maxBytes: config.maxImageBytes,
      maxDocumentBytes: 5 * 1024 * 1024,
    }),
    processor: createSharpImageProcessor({ maxEdge: config.imageMaxEdge, format: config.imageFormat, maxInputPixels: MAX_INPUT_PIXELS }),
    frames: createFfmpegFrameExtractor({ ffmpegPath: config.ffmpegPath, maxEdge: config.imageMaxEdge, timeoutMs: 120_000 }),
    clock: { now: () => Date.now() },
    newId: () => `vs_${randomUUID().replaceAll('-', '')}`,
    settings: {
      limits: { maxImageBytes: config.maxImageBytes, maxInputPixels: MAX_INPUT_PIXELS, loadConcurrency: 4 },
      budget: { maxImages: config.sessionMaxImages, maxPixels: config.sessionMaxPixels },
      sessionTtlMs: config.sessionTtlMs,
      maxOutputTokens: 4096,
      video: { fps: config.videoFps, maxFrames: config.videoMaxFrames, maxBytes: 100 * 1024 * 1024 },
      document: { concurrency: 3, defaultMaxImages: 20 },
    },
  });
  return { service, close: () => opened.db.close() };
}
