import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import { AppError } from '../../../shared/errors';
import type { IpcEvents } from '../../../shared/ipc/channels';
import { VISION_MAX_UPLOAD_BYTES, visionChannels, type visionSessionSchema, type visionUploadSchema } from '../../../shared/ipc/contracts/vision';
import type { EventBus } from '../../platform/events/eventBus';
import type { HandlerTable } from '../../platform/ipc/router';
import { createLlmGateway, type LlmGateway, type LlmProviderConfig, type RetryOptions } from '../../platform/llm';
import {
  addressPolicy,
  createFfmpegFrameExtractor,
  createPdfjsRenderer,
  createSharpImageProcessor,
  createSourceLoader,
  createSqliteSessionRepository,
  createVisionService,
  imageLimitsFor,
  visionHints,
  type CallOptions,
  type Clock,
  type ImageProcessor,
  type ImageSourceLoader,
  type TurnResult,
} from '../../features/vision/index';
import type { PlatformRuntime } from './platformRuntime';

type Upload = z.output<typeof visionUploadSchema>;
type SessionView = z.input<typeof visionSessionSchema>;

/** Decode guard (as in cadsight-vision): 4000×3000 drawings pass, image bombs are refused before decode. */
const MAX_INPUT_PIXELS = 40_000_000;
/** Same retry policy as the MCP server: bounded attempts inside a one-minute budget. */
const DEFAULT_RETRY: RetryOptions = { maxAttempts: 3, baseDelayMs: 500, maxDelayMs: 8_000, totalBudgetMs: 60_000 };
const UPLOAD_PREFIX = 'cadsight-upload:';

export interface VisionHandlerOptions {
  events: EventBus<IpcEvents>;
  /** Tests shorten the backoff; the app uses DEFAULT_RETRY. */
  retry?: RetryOptions;
  clock?: Clock;
  /** The bundled PDF render worker (dist/node/pdfWorker.js), resolved by the composition root. */
  pdfWorkerScript: string | URL;
}

/**
 * What one turn carries through the engine. The engine takes a single gateway and loader at
 * construction, but the Images view picks the provider per turn and sends bytes, not paths; the
 * async context routes each call to its own provider and uploads while keeping ONE engine, so
 * the engine's per-session mutex still serializes turns of a session whatever provider they use.
 */
interface TurnScope {
  gateway: LlmGateway;
  provider: LlmProviderConfig;
  uploads: Map<string, Upload>;
  requestId: string | undefined;
}

/**
 * Handlers of the vision channels: the vision engine over the app's database (sessions shared
 * with `cadsight-vision`), the provider chosen in the picker or the Settings vision default,
 * and progress/session events on the bus. See shared/ipc/contracts/vision.ts for error codes.
 */
export function createVisionHandlers(platform: PlatformRuntime, options: VisionHandlerOptions): HandlerTable<typeof visionChannels> {
  const { settings } = platform;
  const { events } = options;
  const clock = options.clock ?? { now: () => Date.now() };
  const scopes = new AsyncLocalStorage<TurnScope>();
  const limits = settings.effective().settings.limits;
  const sessionTtlMs = limits.sessionTtlHours * 3_600_000;
  const repository = createSqliteSessionRepository(platform.db);

  const currentScope = (): TurnScope => {
    const scope = scopes.getStore();
    if (!scope) throw new AppError('INTERNAL_ERROR', 'A vision model call ran outside a turn.');
    return scope;
  };
  const routedGateway: LlmGateway = {
    complete(request) {
      const scope = currentScope();
      emitProgress(scope, 'ask', 0, 1, scope.provider.model);
      return scope.gateway.complete(request);
    },
    callTool: (request) => currentScope().gateway.callTool(request),
  };

  // The provider is picked per turn, so are its image limits: one processor per limits profile.
  const processors = new Map<string, ImageProcessor>();
  const processorFor = (provider: LlmProviderConfig): ImageProcessor => {
    const imageLimits = imageLimitsFor(provider, provider.maxImageEdge ?? limits.maxImageEdge);
    const key = JSON.stringify(imageLimits);
    let processor = processors.get(key);
    if (!processor) processors.set(key, (processor = createSharpImageProcessor({ limits: imageLimits, format: 'png', maxInputPixels: MAX_INPUT_PIXELS })));
    return processor;
  };
  const routedProcessor: ImageProcessor = {
    prepare: (bytes, sniffed, knownSha256) => processorFor(currentScope().provider).prepare(bytes, sniffed, knownSha256),
    crop: (bytes, rect) => processorFor(currentScope().provider).crop(bytes, rect),
    sha256: (bytes) => processorFor(currentScope().provider).sha256(bytes),
  };

  const service = createVisionService({
    gateway: routedGateway,
    repository,
    loader: uploadLoader(
      createSourceLoader({
        http: { allowAddress: addressPolicy(false), connectTimeoutMs: 10_000, totalTimeoutMs: 30_000, maxRedirects: 3 },
        files: { allowedRoots: settings.effective().settings.allowedRoots, cwd: platform.layout.root },
        maxBytes: VISION_MAX_UPLOAD_BYTES,
        maxDocumentBytes: 5 * 1024 * 1024,
      }),
      () => scopes.getStore()?.uploads,
    ),
    processor: routedProcessor,
    pdf: createPdfjsRenderer({ workerScript: options.pdfWorkerScript }),
    frames: createFfmpegFrameExtractor({ ffmpegPath: 'ffmpeg', maxEdge: limits.maxImageEdge, timeoutMs: 120_000 }),
    clock,
    newId: () => `vs_${randomUUID().replaceAll('-', '')}`,
    settings: {
      limits: { maxImageBytes: VISION_MAX_UPLOAD_BYTES, maxInputPixels: MAX_INPUT_PIXELS, loadConcurrency: 4, maxPdfBytes: 50 * 1024 * 1024, maxPdfPages: 8 },
      budget: { maxImages: 8, maxPixels: 8_000_000 },
      sessionTtlMs,
      maxOutputTokens: 4096,
      video: { fps: 1, maxFrames: 8, maxBytes: 100 * 1024 * 1024 },
      document: { concurrency: 3, defaultMaxImages: 20 },
    },
  });

  function emitProgress(scope: TurnScope, phase: 'prepare' | 'ask', done: number, total: number, message: string): void {
    if (scope.requestId === undefined) return;
    events.emit('progress', { taskId: `vision:${scope.requestId}`, phase, done, total, message });
  }

  /** Resolves the provider first, so a missing key fails before any image is decoded. */
  async function runTurn(
    input: { providerId?: string | undefined; model?: string | undefined; requestId?: string | undefined; uploads?: Upload[] },
    call: (sources: string[], callOptions: CallOptions) => Promise<TurnResult>,
  ) {
    const provider = settings.resolveProvider(input.providerId === undefined ? { role: 'vision' } : { providerId: input.providerId, ...(input.model ? { model: input.model } : {}) });
    const uploads = new Map((input.uploads ?? []).map((upload, index) => [`${UPLOAD_PREFIX}${index}`, upload]));
    const scope: TurnScope = {
      provider,
      gateway: createLlmGateway({ provider, retry: options.retry ?? DEFAULT_RETRY, log: platform.log.child({ slice: 'vision' }) }),
      uploads,
      requestId: input.requestId,
    };
    const result = await scopes.run(scope, () => call([...uploads.keys()], { onProgress: (done, total, message) => emitProgress(scope, 'prepare', done, total, message) }));
    events.emit('visionSessionChanged', { sessionId: result.sessionId });
    return { ...result, providerId: provider.id, model: provider.model };
  }

  function liveSession(sessionId: string) {
    const session = repository.get(sessionId);
    // Same rule as the engine: a session past its TTL is gone even before the sweeper ran.
    if (!session || session.lastAccessAt < clock.now() - sessionTtlMs) {
      throw new AppError('VISION_SESSION_NOT_FOUND', `Session "${sessionId.slice(0, 80)}" does not exist or has expired.`, {
        data: { hint: visionHints.VISION_SESSION_NOT_FOUND, sessionId: sessionId.slice(0, 80) },
      });
    }
    return session;
  }

  return {
    visionListSessions() {
      service.sweepExpired();
      return service.listSessions();
    },
    visionGetSession({ sessionId }): SessionView {
      const session = liveSession(sessionId);
      return {
        ...session,
        images: session.images.map((image) => ({ index: image.index, origin: image.origin, label: image.label, width: image.originalWidth, height: image.originalHeight })),
      };
    },
    visionAnalyze: (input) =>
      runTurn({ ...input, uploads: input.images }, (sources, callOptions) =>
        service.analyzeImages({ sources, prompt: input.prompt, ...(input.sessionId ? { sessionId: input.sessionId } : {}) }, callOptions),
      ),
    visionZoom: (input) =>
      runTurn(input, (_sources, callOptions) =>
        service.zoomImage({ sessionId: input.sessionId, imageIndex: input.imageIndex, region: input.region, prompt: input.prompt }, callOptions),
      ),
    async visionRenameSession({ sessionId, summary }) {
      const stored = await service.renameSession(sessionId, summary);
      events.emit('visionSessionChanged', { sessionId });
      return { sessionId, summary: stored };
    },
    async visionDeleteSession({ sessionId }) {
      await service.deleteSession(sessionId);
      events.emit('visionSessionChanged', { sessionId });
      return { sessionId };
    },
    visionGetImage({ sessionId, imageIndex, full }) {
      const session = liveSession(sessionId);
      const image = session.images[imageIndex];
      if (!image) {
        throw new AppError('VISION_IMAGE_INDEX_INVALID', `Session has ${session.images.length} image(s); index ${imageIndex} does not exist.`, {
          data: { hint: visionHints.VISION_IMAGE_INDEX_INVALID, imageCount: session.images.length },
        });
      }
      const chosen = full
        ? { sha256: image.originalSha256, mimeType: image.originalMimeType, width: image.originalWidth, height: image.originalHeight }
        : { sha256: image.preparedSha256, mimeType: image.preparedMimeType, width: image.preparedWidth, height: image.preparedHeight };
      const bytes = repository.imageBytes(chosen.sha256);
      return { mimeType: chosen.mimeType, dataBase64: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64'), width: chosen.width, height: chosen.height };
    },
  };
}

/**
 * Serves this turn's uploads to the engine: the bytes are decoded by the engine's own loader
 * (strict base64, byte cap checked before decoding) and labelled with the file name.
 */
function uploadLoader(inner: ImageSourceLoader, uploads: () => Map<string, Upload> | undefined): ImageSourceLoader {
  return {
    async load(source, loadOptions) {
      const upload = uploads()?.get(source);
      if (!upload) return inner.load(source, loadOptions);
      const loaded = await inner.load(`data:application/octet-stream;base64,${upload.dataBase64}`, loadOptions);
      return { bytes: loaded.bytes, label: fileLabel(upload.name) };
    },
    fetchDocument: (url, signal) => inner.fetchDocument(url, signal),
  };
}

/** The file name without any path or control characters, at most 120 characters. */
function fileLabel(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? name;
  const clean = base.replace(/\p{Cc}/gu, '').trim() || 'image';
  return clean.length <= 120 ? clean : `${clean.slice(0, 119)}…`;
}
