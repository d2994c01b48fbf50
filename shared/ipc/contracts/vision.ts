import { z } from 'zod';

/**
 * Vision channels of the Images view: multi-round image sessions stored in the app database
 * (the same SQLite file `cadsight-vision` writes, so sessions agents created show up here).
 * Error codes of the turn channels: LLM_NOT_CONFIGURED (no provider chosen / no key — the UI
 * links to Settings), SETTINGS_NOT_FOUND (picked provider or model no longer exists),
 * VISION_SESSION_NOT_FOUND, VISION_IMAGE_TOO_LARGE, VISION_UNSUPPORTED_FORMAT,
 * VISION_IMAGE_CORRUPT, VISION_SOURCE_INVALID, VISION_IMAGE_INDEX_INVALID, VISION_REGION_INVALID,
 * LLM_* from the gateway, STORE_BUSY / STORE_CONFLICT (retryable).
 */

/** Largest image the view uploads (bytes). The engine's byte cap in the app uses this value. */
export const VISION_MAX_UPLOAD_BYTES = 16 * 1024 * 1024;
/** Most images one turn may add. */
export const VISION_MAX_UPLOAD_IMAGES = 8;
/** Largest total of one turn's images (bytes): keeps a call under the browser-mode message cap. */
export const VISION_MAX_UPLOAD_TOTAL_BYTES = 40 * 1024 * 1024;

/** Base64 characters needed for `bytes` bytes (with padding). */
export function base64Length(bytes: number): number {
  return Math.ceil(bytes / 3) * 4;
}

// The schema cap sits a little above the byte cap so an image just over it reaches the
// engine and gets its typed VISION_IMAGE_TOO_LARGE; far larger strings are refused unread.
const MAX_UPLOAD_BASE64 = base64Length(VISION_MAX_UPLOAD_BYTES) + 1024;

export const visionUsageSchema = z
  .object({
    calls: z.number().int().nonnegative(),
    /** Provider-reported tokens; 0 when the provider did not report them. */
    promptTokens: z.number().int().nonnegative(),
    completionTokens: z.number().int().nonnegative(),
    /** Serialized request bytes actually sent (images included). */
    contextBytes: z.number().int().nonnegative(),
    latencyMs: z.number().nonnegative(),
    /** Prompt tokens the provider served from its prompt cache (absent for sessions stored before it was counted). */
    cachedPromptTokens: z.number().int().nonnegative().optional(),
  })
  .strict();

/** A row of the session list: a snapshot without image bytes. */
export const visionSessionListingSchema = z
  .object({
    id: z.string(),
    summary: z.string(),
    /** Short, secret-free labels of the session's source images (file names, shortened URLs). */
    sources: z.array(z.string()),
    createdAt: z.number(),
    lastAccessAt: z.number(),
    iterations: z.number().int().nonnegative(),
    imageCount: z.number().int().nonnegative(),
    usage: visionUsageSchema,
  })
  .strict();

export const visionImageOriginSchema = z.enum(['source', 'zoom', 'video-frame', 'pdf-page']);

/** One image of a session. `index` is what visionZoom and visionGetImage take. */
export const visionSessionImageSchema = z
  .object({
    index: z.number().int().nonnegative(),
    origin: visionImageOriginSchema,
    label: z.string(),
    /** Size of the (orientation-corrected) original; zoom regions are fractions of it. */
    width: z.number().int().positive(),
    height: z.number().int().positive(),
  })
  .strict();

/** One completed exchange. `prompt` and `reply` are exactly what was sent and received. */
export const visionTurnSchema = z
  .object({
    seq: z.number().int().nonnegative(),
    kind: z.enum(['analyze', 'zoom', 'video']),
    prompt: z.string(),
    /** Images this turn added (shown with its question). */
    imageIndexes: z.array(z.number().int().nonnegative()),
    reply: z.string(),
    createdAt: z.number(),
    usage: visionUsageSchema,
  })
  .strict();

export const visionSessionSchema = z
  .object({
    id: z.string(),
    summary: z.string(),
    createdAt: z.number(),
    lastAccessAt: z.number(),
    /** Provider and model of the first turn. */
    providerId: z.string(),
    model: z.string(),
    images: z.array(visionSessionImageSchema),
    turns: z.array(visionTurnSchema),
    usage: visionUsageSchema,
  })
  .strict();

/** An image the user dropped, pasted or picked: its bytes as base64. */
export const visionUploadSchema = z
  .object({
    /** File name shown as the image label (no path). */
    name: z.string().min(1).max(255),
    /** What the browser reported; informative only — the type is sniffed from the bytes. */
    mimeType: z.string().max(100).optional(),
    dataBase64: z.string().min(1).max(MAX_UPLOAD_BASE64),
  })
  .strict();

/** Which model answers: the picker's choice, or (both absent) the Settings vision default. */
const providerChoice = {
  providerId: z.string().min(1).max(64).optional(),
  model: z.string().min(1).max(200).optional(),
};

/** Client-chosen id that tags this call's `progress` events (taskId `vision:<requestId>`). */
const requestId = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/).optional();

const prompt = z.string().trim().min(1).max(20_000);

/** What one turn returns. */
export const visionTurnResultSchema = z
  .object({
    sessionId: z.string(),
    summary: z.string(),
    /** The answer (the first turn's SUMMARY line removed). */
    description: z.string(),
    /** Usage of this call (latency, tokens, bytes). */
    usage: visionUsageSchema,
    /** Running totals of the session. */
    sessionUsage: visionUsageSchema,
    /** Session indexes of the images this call sent or added. */
    imageIndexes: z.array(z.number().int().nonnegative()),
    /** Present when the session image budget left older images out (states the policy). */
    budgetNote: z.string().optional(),
    providerId: z.string(),
    model: z.string(),
  })
  .strict();

export const visionRegionSchema = z
  .object({ x: z.number().min(0).max(1), y: z.number().min(0).max(1), width: z.number().gt(0).max(1), height: z.number().gt(0).max(1) })
  .strict();

export const visionChannels = {
  /** Every stored session, most recently used first (expired ones are swept first). */
  visionListSessions: { input: z.object({}).strict(), output: z.array(visionSessionListingSchema) },
  /** One session with its images (metadata) and turns. Errors: VISION_SESSION_NOT_FOUND. */
  visionGetSession: { input: z.object({ sessionId: z.string().min(1).max(200) }).strict(), output: visionSessionSchema },
  /**
   * Asks about images: a new session (no sessionId; at least one image) or a follow-up that
   * re-sends the session's images plus any new ones. Errors: see the table comment.
   */
  visionAnalyze: {
    input: z
      .object({
        sessionId: z.string().min(1).max(200).optional(),
        images: z.array(visionUploadSchema).max(VISION_MAX_UPLOAD_IMAGES).default([]),
        prompt,
        requestId,
        ...providerChoice,
      })
      .strict(),
    output: visionTurnResultSchema,
  },
  /**
   * Follow-up about a region of session image `imageIndex` (fractions of the original), cropped
   * at full resolution. Errors: VISION_SESSION_NOT_FOUND, VISION_IMAGE_INDEX_INVALID,
   * VISION_REGION_INVALID, LLM_*.
   */
  visionZoom: {
    input: z
      .object({ sessionId: z.string().min(1).max(200), imageIndex: z.number().int().nonnegative(), region: visionRegionSchema, prompt, requestId, ...providerChoice })
      .strict(),
    output: visionTurnResultSchema,
  },
  /**
   * The bytes of a session image as sent to the model (at most the provider's edge limit), for
   * thumbnails and the zoom canvas. Errors: VISION_SESSION_NOT_FOUND, VISION_IMAGE_INDEX_INVALID.
   */
  visionGetImage: {
    /** `full`: the original at full resolution (the lightbox) instead of the bytes the model saw. */
    input: z.object({ sessionId: z.string().min(1).max(200), imageIndex: z.number().int().nonnegative(), full: z.boolean().optional() }).strict(),
    output: z.object({ mimeType: z.string(), dataBase64: z.string(), width: z.number().int().positive(), height: z.number().int().positive() }).strict(),
  },
  /**
   * Renames a session: its summary, the title in the list and in list_sessions. Waits for a
   * running turn of the session. Errors: VISION_SESSION_NOT_FOUND.
   */
  visionRenameSession: {
    input: z.object({ sessionId: z.string().min(1).max(200), summary: z.string().trim().min(1).max(200) }).strict(),
    output: z.object({ sessionId: z.string(), summary: z.string() }).strict(),
  },
  /**
   * Deletes a session with its turns and the images no other session uses. Waits for a running
   * turn of the session. Errors: VISION_SESSION_NOT_FOUND.
   */
  visionDeleteSession: {
    input: z.object({ sessionId: z.string().min(1).max(200) }).strict(),
    output: z.object({ sessionId: z.string() }).strict(),
  },
} as const;

export const visionEvents = {
  /** A turn was committed to this session (refresh the list and the open conversation). */
  visionSessionChanged: z.object({ sessionId: z.string() }).strict(),
} as const;
