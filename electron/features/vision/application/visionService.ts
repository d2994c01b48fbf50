import type { LlmGateway } from '../../../platform/llm/types';
import { visionError } from '../domain/errors';
import type { ImageBudget } from '../domain/imageBudget';
import { regionToPixels, type FractionRegion } from '../domain/imageMath';
import type { SmallText } from '../domain/textLegibility';
import { FIRST_TURN_SUMMARY_INSTRUCTION, videoPromptText, zoomPromptText } from '../domain/prompts';
import { addUsage, emptyUsage, shorten, splitSummary, withoutSummaryTags, type SessionImage, type SessionListing, type SessionRecord, type UsageTotals } from '../domain/session';
import type { ImageProcessor } from '../ports/imageProcessor';
import type { ImageSourceLoader } from '../ports/imageSources';
import type { PdfRenderer } from '../ports/pdfRenderer';
import type { CallOptions, Clock, VideoFrameExtractor } from '../ports/runtime';
import { analyzeDocument } from './documentAnnotator';
import type { DocumentResult } from './documentTypes';
import type { NewSessionImage, VisionSessionRepository } from '../ports/sessionRepository';
import { prepareOriginal, takeInSources, type IntakeLimits } from './imageIntake';
import { createKeyedMutex } from './keyedMutex';
import { neutralLabel } from '../domain/sourceClassifier';
import { askModel, buildMessages, type PendingTurn } from './turnRunner';

export interface VisionSettings {
  limits: IntakeLimits;
  budget: ImageBudget;
  sessionTtlMs: number;
  maxOutputTokens: number;
  video: { fps: number; maxFrames: number; maxBytes: number };
  document: { concurrency: number; defaultMaxImages: number };
}

export interface VisionDeps {
  gateway: LlmGateway;
  repository: VisionSessionRepository;
  loader: ImageSourceLoader;
  processor: ImageProcessor;
  pdf: PdfRenderer;
  frames: VideoFrameExtractor;
  clock: Clock;
  newId: () => string;
  settings: VisionSettings;
}

/** Result of one session turn (analyze, zoom or video). */
export interface TurnResult {
  sessionId: string;
  summary: string;
  description: string;
  /** Usage of this call. */
  usage: UsageTotals;
  /** Running totals of the session. */
  sessionUsage: UsageTotals;
  /** Session indexes of the images this call sent or added (zoom_image refers to them). */
  imageIndexes: number[];
  /** Present when the session image budget left images out (states the policy). */
  budgetNote?: string;
  /** Images of this call whose text is too small to read as sent, with where to zoom. */
  smallText?: Array<SmallText & { imageIndex: number }>;
}

/**
 * The vision engine: sessions that re-send their images every turn. Each public call is one
 * turn, serialized per session and parallel across sessions; a failed model call writes nothing.
 */
export interface VisionService {
  /**
   * Analyzes images in a new session (no sessionId) or as a follow-up (new sources are added).
   * A PDF source adds one image per page of `pdfPages` ("1-3,5"; default all, at most
   * limits.maxPdfPages), each with its text layer. PDF errors: VISION_PDF_*.
   * Errors: VISION_SOURCES_REQUIRED (no sessionId and no sources), VISION_SESSION_NOT_FOUND, the ImageSourceLoader / ImageProcessor codes, LLM_*.
   */
  analyzeImages(input: { sources: string[]; prompt: string; sessionId?: string; pdfPages?: string }, options?: CallOptions): Promise<TurnResult>;
  /**
   * Crops session image `imageIndex` at full resolution and asks about it in the same session.
   * Errors: VISION_SESSION_NOT_FOUND, VISION_IMAGE_INDEX_INVALID, VISION_REGION_INVALID, LLM_*.
   */
  zoomImage(input: { sessionId: string; imageIndex: number; region: FractionRegion; prompt: string }, options?: CallOptions): Promise<TurnResult>;
  /**
   * Samples frames of a video with ffmpeg and asks about them (new or existing session).
   * Errors: VISION_FFMPEG_MISSING, VISION_VIDEO_FAILED, loader codes, LLM_*.
   */
  analyzeVideo(input: { source: string; prompt: string; sessionId?: string }, options?: CallOptions): Promise<TurnResult>;
  /**
   * Annotates every image of a markdown/HTML document (inline text or an http(s) URL).
   * A .pdf URL or path is annotated page by page (`pdfPages` picks pages). Per-image failures
   * are listed in `failed`. Errors: VISION_DOCUMENT_INVALID, loader codes, VISION_PDF_*.
   */
  analyzeDocument(input: { document: string; prompt?: string; maxImages?: number; pdfPages?: string }, options?: CallOptions): Promise<DocumentResult>;
  /**
   * Renames a session (after any running turn of it) and returns the stored summary (trimmed,
   * at most 200 characters). Errors: VISION_SESSION_NOT_FOUND.
   */
  renameSession(sessionId: string, summary: string): Promise<string>;
  /** Deletes a session (after any running turn of it). Errors: VISION_SESSION_NOT_FOUND. */
  deleteSession(sessionId: string): Promise<void>;
  /** Snapshot of all sessions (never blocks on running turns). */
  listSessions(): SessionListing[];
  /** Deletes sessions idle longer than the TTL, skipping sessions with a turn in progress. */
  sweepExpired(): { deleted: string[]; skippedBusy: string[] };
}

/** Bytes of this turn's new images (prepared and tiles) by sha256: not in the store until commit. */
function freshBytes(images: NewSessionImage[]): Map<string, Uint8Array> {
  const fresh = new Map<string, Uint8Array>();
  for (const image of images) {
    fresh.set(image.preparedSha256, image.preparedBytes);
    for (const [i, tile] of (image.tiles ?? []).entries()) fresh.set(tile.sha256, image.tileBytes![i]!);
  }
  return fresh;
}

/** The smallText of the images a turn added, by session index ({} when none has any). */
function smallTextOf(images: NewSessionImage[]): Pick<TurnResult, 'smallText'> {
  const found = images.flatMap((image) => (image.smallText ? [{ imageIndex: image.index, ...image.smallText }] : []));
  return found.length > 0 ? { smallText: found } : {};
}

export function createVisionService(deps: VisionDeps): VisionService {
  const mutex = createKeyedMutex();
  const { settings, repository } = deps;
  const intake = { loader: deps.loader, processor: deps.processor, pdf: deps.pdf, limits: settings.limits };

  function requireSession(id: string): SessionRecord {
    const session = repository.get(id);
    // A session past its TTL is gone even if the sweeper has not run yet.
    if (!session || session.lastAccessAt < deps.clock.now() - settings.sessionTtlMs) throw visionError('VISION_SESSION_NOT_FOUND', `Session "${id.slice(0, 80)}" does not exist or has expired.`, { sessionId: id.slice(0, 80) });
    return session;
  }

  /** Runs one turn against `session` (undefined = create) and commits it only on success. */
  async function runTurn(sessionId: string, session: SessionRecord | undefined, newImages: NewSessionImage[], pending: PendingTurn, options: CallOptions): Promise<TurnResult> {
    const images: SessionImage[] = [...(session?.images ?? []), ...newImages];
    const fresh = freshBytes(newImages);
    const bytesOf = (sha256: string) => fresh.get(sha256) ?? repository.imageBytes(sha256);
    const prompt = session ? pending.prompt : `${pending.prompt}\n\n${FIRST_TURN_SUMMARY_INSTRUCTION}`;
    const conversation = buildMessages(session?.turns ?? [], images, { ...pending, prompt }, settings.budget, bytesOf);
    const outcome = await askModel(deps.gateway, conversation, { maxOutputTokens: settings.maxOutputTokens, purpose: `vision.${pending.kind}`, ...(options.signal ? { signal: options.signal } : {}) });
    const now = deps.clock.now();
    const split = session ? { description: withoutSummaryTags(outcome.reply), summary: session.summary } : splitSummary(outcome.reply);
    const sessionUsage = addUsage(session?.usage ?? emptyUsage(), outcome.usage);
    repository.commitTurn({
      sessionId,
      ...(session ? {} : { create: { summary: split.summary, createdAt: now, providerId: outcome.providerId, model: outcome.model } }),
      newImages,
      // The history keeps the question as asked and the answer as returned: no injected
      // summary instruction or SUMMARY line for later turns to imitate.
      turn: { seq: session?.turns.length ?? 0, kind: pending.kind, prompt: pending.prompt, imageIndexes: pending.imageIndexes, reply: split.description, createdAt: now, usage: outcome.usage },
      lastAccessAt: now,
      usage: sessionUsage,
    });
    return {
      sessionId,
      summary: split.summary,
      description: split.description,
      usage: outcome.usage,
      sessionUsage,
      imageIndexes: [...pending.mustInclude].sort((a, b) => a - b),
      ...(outcome.budgetNote ? { budgetNote: outcome.budgetNote } : {}),
      ...smallTextOf(newImages),
    };
  }

  /** Serializes work on an existing session; new sessions need no lock (nobody knows the id yet). */
  function withSession<T>(sessionId: string | undefined, task: (id: string, session: SessionRecord | undefined) => Promise<T>): Promise<T> {
    if (sessionId === undefined) return task(deps.newId(), undefined);
    return mutex.run(sessionId, () => task(sessionId, requireSession(sessionId)));
  }

  return {
    analyzeImages(input, options = {}) {
      if (input.sessionId === undefined && input.sources.length === 0) {
        return Promise.reject(visionError('VISION_SOURCES_REQUIRED', 'A new session needs at least one image source (image_sources is only optional with session_id).'));
      }
      return withSession(input.sessionId, async (id, session) => {
        const taken = await takeInSources(intake, input.sources, session?.images ?? [], { ...options, ...(input.pdfPages !== undefined ? { pdfPages: input.pdfPages } : {}) });
        const pending: PendingTurn = { kind: 'analyze', prompt: input.prompt, imageIndexes: taken.newImages.map((i) => i.index), mustInclude: new Set(taken.indexes) };
        return runTurn(id, session, taken.newImages, pending, options);
      });
    },

    zoomImage(input, options = {}) {
      return withSession(input.sessionId, async (id, session) => {
        const target = session!.images[input.imageIndex];
        if (!target) {
          throw visionError('VISION_IMAGE_INDEX_INVALID', `Session has ${session!.images.length} image(s); index ${input.imageIndex} does not exist.`, { imageCount: session!.images.length });
        }
        const rect = regionToPixels(input.region, target.originalWidth, target.originalHeight);
        const crop = await deps.processor.crop(repository.imageBytes(target.originalSha256), rect);
        const index = session!.images.length;
        const r = input.region;
        const label = `zoom of #${target.index} (x=${r.x}, y=${r.y}, w=${r.width}, h=${r.height})`;
        const image: NewSessionImage = {
          index, origin: 'zoom', label,
          originalSha256: crop.sha256, originalMimeType: crop.mimeType, originalWidth: crop.width, originalHeight: crop.height,
          preparedSha256: crop.sha256, preparedMimeType: crop.mimeType, preparedWidth: crop.width, preparedHeight: crop.height,
          originalBytes: crop.bytes, preparedBytes: crop.bytes,
        };
        const pending: PendingTurn = { kind: 'zoom', prompt: zoomPromptText(target.index, neutralLabel(target.label), input.prompt), imageIndexes: [index], mustInclude: new Set([index, target.index]) };
        return runTurn(id, session, [image], pending, options);
      });
    },

    analyzeVideo(input, options = {}) {
      return withSession(input.sessionId, async (id, session) => {
        const video = await deps.loader.load(input.source, { maxBytes: settings.video.maxBytes, ...(options.signal ? { signal: options.signal } : {}) });
        const frames = await deps.frames.extractFrames(video.bytes, { fps: settings.video.fps, maxFrames: settings.video.maxFrames, ...(options.signal ? { signal: options.signal } : {}) });
        const start = session?.images.length ?? 0;
        const newImages: NewSessionImage[] = [];
        for (const [i, frame] of frames.entries()) {
          newImages.push(await prepareOriginal(intake, frame, `${video.label} @ ${(i / settings.video.fps).toFixed(1)}s`, 'video-frame', start + i));
          options.onProgress?.(i + 1, frames.length, `prepared frame ${i + 1}`);
        }
        const indexes = newImages.map((i) => i.index);
        const pending: PendingTurn = { kind: 'video', prompt: videoPromptText(frames.length, settings.video.fps, input.prompt), imageIndexes: indexes, mustInclude: new Set(indexes) };
        return runTurn(id, session, newImages, pending, options);
      });
    },

    analyzeDocument: (input, options = {}) =>
      analyzeDocument(
        { gateway: deps.gateway, intake, concurrency: settings.document.concurrency, defaultMaxImages: settings.document.defaultMaxImages, maxOutputTokens: settings.maxOutputTokens },
        input,
        options,
      ),

    renameSession: (sessionId, summary) =>
      withSession(sessionId, async (id) => {
        const clean = shorten(summary.replace(/\s+/g, ' ').trim(), 200);
        repository.rename(id, clean);
        return clean;
      }),

    deleteSession: (sessionId) => withSession(sessionId, async (id) => repository.delete(id)),

    // Same rule as requireSession: an expired session is not listed even before the sweeper runs.
    listSessions: () => repository.list().filter((session) => session.lastAccessAt >= deps.clock.now() - settings.sessionTtlMs),

    sweepExpired() {
      const cutoff = deps.clock.now() - settings.sessionTtlMs;
      const deleted: string[] = [];
      const skippedBusy: string[] = [];
      for (const id of repository.expiredIds(cutoff)) {
        if (mutex.isBusy(id)) skippedBusy.push(id);
        else {
          repository.delete(id);
          deleted.push(id);
        }
      }
      return { deleted, skippedBusy };
    },
  };
}
