/** Time source (injected so TTL and ordering tests control it). */
export interface Clock {
  now(): number;
}

/**
 * Extracts still frames from a video with a system ffmpeg. Frames are PNG bytes in time order.
 * Error codes: VISION_FFMPEG_MISSING (no ffmpeg executable), VISION_VIDEO_FAILED (ffmpeg
 * could not decode the input or produced no frames).
 */
export interface VideoFrameExtractor {
  extractFrames(video: Uint8Array, options: { fps: number; maxFrames: number; signal?: AbortSignal }): Promise<Uint8Array[]>;
}

/** Progress of multi-image work: done of total, with a short message. */
export type ProgressReporter = (done: number, total: number, message: string) => void;

/** Options every vision operation accepts. */
export interface CallOptions {
  signal?: AbortSignal;
  onProgress?: ProgressReporter;
}
