import path from 'node:path';
import { AppError } from '../../../shared/errors';
import { providersFromEnv, type EnvSource } from '../../platform/llm/envProviders';
import type { LlmProviderConfig } from '../../platform/llm/types';

/** Everything cadsight-vision reads from its environment (picsense-compatible names + ours). */
export interface VisionMcpConfig {
  provider: LlmProviderConfig;
  maxImageBytes: number;
  /** IMAGE_MAX_EDGE when set: the long edge of generic gateways, and a cap on every profile. */
  imageMaxEdge?: number;
  imageFormat: 'png' | 'jpeg';
  sessionTtlMs: number;
  sessionMaxImages: number;
  sessionMaxPixels: number;
  allowedRoots: string[];
  allowPrivateUrls: boolean;
  /** SQLite file: <CADSIGHT_DATA_DIR>/cadsight.db, shared with the desktop app. */
  databaseFile: string;
  ffmpegPath: string;
  videoFps: number;
  /** Frames one analyze_video call sends: VIDEO_MAX_FRAMES capped at SESSION_MAX_IMAGES. */
  videoMaxFrames: number;
  /** Start-up notes about values that were capped (logged once; not failures). */
  notices: string[];
  downloadTimeoutMs: number;
  logLevel: 'debug' | 'info' | 'warn' | 'error';
  /** CADSIGHT_VISION_VERBOSE: every result carries usage and latency (otherwise only when a call asks). */
  verbose: boolean;
}

function bad(variable: string, expectation: string): AppError {
  return new AppError('SETTINGS_INVALID', `${variable} ${expectation}.`, { data: { variable } });
}

function numberVar(env: EnvSource, name: string, fallback: number, check: { min: number; max: number; integer?: boolean }): number {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  const ok = Number.isFinite(value) && value >= check.min && value <= check.max && (!check.integer || Number.isInteger(value));
  if (!ok) throw bad(name, `must be ${check.integer ? 'a whole number' : 'a number'} between ${check.min} and ${check.max} (got "${raw.slice(0, 40)}")`);
  return value;
}

function booleanVar(env: EnvSource, name: string): boolean {
  const raw = env[name]?.trim().toLowerCase() ?? '';
  if (['', '0', 'false', 'no', 'off'].includes(raw)) return false;
  if (['1', 'true', 'yes', 'on'].includes(raw)) return true;
  throw bad(name, 'must be 1/true/yes or 0/false/no');
}

/**
 * Reads the configuration. Errors: SETTINGS_INVALID (a malformed variable, named in the
 * message), LLM_NOT_CONFIGURED (no usable provider), STORE_DATA_DIR_INVALID.
 */
export function visionConfigFromEnv(env: EnvSource, defaults: { dataDir: string }): VisionMcpConfig {
  const { defaultProvider } = providersFromEnv(env);
  if (!defaultProvider) {
    throw new AppError('LLM_NOT_CONFIGURED', 'No vision provider configured: set DEFAULT_PROVIDER and its key, e.g. OPENAI_API_KEY (see the README).', {
      data: { variable: 'DEFAULT_PROVIDER' },
    });
  }
  const format = (env.IMAGE_FORMAT?.trim().toLowerCase() || 'png') as string;
  if (format !== 'png' && format !== 'jpeg') throw bad('IMAGE_FORMAT', 'must be png or jpeg');
  const dataDir = env.CADSIGHT_DATA_DIR?.trim() || defaults.dataDir;
  if (!path.isAbsolute(dataDir)) throw bad('CADSIGHT_DATA_DIR', 'must be an absolute path');
  const level = (env.LOG_LEVEL?.trim().toLowerCase() || 'info') as VisionMcpConfig['logLevel'];
  if (!['debug', 'info', 'warn', 'error'].includes(level)) throw bad('LOG_LEVEL', 'must be debug, info, warn or error');
  const edge = env.IMAGE_MAX_EDGE?.trim() ? numberVar(env, 'IMAGE_MAX_EDGE', 1280, { min: 256, max: 8192, integer: true }) : undefined;
  const maxImages = numberVar(env, 'SESSION_MAX_IMAGES', 8, { min: 1, max: 64, integer: true });
  // picsense's default is VIDEO_MAX_FRAMES=30. Every frame is a session image re-sent each turn,
  // so the effective count is capped at SESSION_MAX_IMAGES instead of refusing to start.
  const framesWanted = numberVar(env, 'VIDEO_MAX_FRAMES', Math.min(8, maxImages), { min: 1, max: 1000, integer: true });
  const notices = framesWanted > maxImages ? [`VIDEO_MAX_FRAMES=${framesWanted} is capped at SESSION_MAX_IMAGES=${maxImages} frames per video call.`] : [];
  return {
    provider: defaultProvider,
    maxImageBytes: Math.floor(numberVar(env, 'MAX_IMAGE_MB', 5, { min: 0.001, max: 100 }) * 1024 * 1024),
    ...(edge !== undefined ? { imageMaxEdge: edge } : {}),
    imageFormat: format,
    sessionTtlMs: numberVar(env, 'SESSION_TTL_HOURS', 24, { min: 0.001, max: 24 * 365 }) * 3_600_000,
    sessionMaxImages: maxImages,
    sessionMaxPixels: numberVar(env, 'SESSION_MAX_MEGAPIXELS', 8, { min: 0.1, max: 200 }) * 1_000_000,
    allowedRoots: (env.CADSIGHT_ALLOWED_ROOTS ?? '').split(path.delimiter).map((r) => r.trim()).filter((r) => r !== ''),
    allowPrivateUrls: booleanVar(env, 'CADSIGHT_ALLOW_PRIVATE_URLS'),
    databaseFile: path.join(dataDir, 'cadsight.db'),
    ffmpegPath: env.FFMPEG_PATH?.trim() || 'ffmpeg',
    videoFps: numberVar(env, 'VIDEO_FPS', 1, { min: 0.01, max: 30 }),
    videoMaxFrames: Math.min(framesWanted, maxImages),
    notices,
    downloadTimeoutMs: numberVar(env, 'DOWNLOAD_TIMEOUT_MS', 30_000, { min: 100, max: 600_000, integer: true }),
    logLevel: level,
    verbose: booleanVar(env, 'CADSIGHT_VISION_VERBOSE'),
  };
}
