import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { AppError } from '../../../../shared/errors';
import { visionError } from '../domain/errors';
import type { VideoFrameExtractor } from '../ports/runtime';

export interface FfmpegOptions {
  /** ffmpeg executable (FFMPEG_PATH, default "ffmpeg" from PATH). */
  ffmpegPath: string;
  /** Frames are scaled to fit this edge so each stays well under the image byte cap. */
  maxEdge: number;
  /** Kill ffmpeg after this long. */
  timeoutMs: number;
}

function runFfmpeg(ffmpegPath: string, args: string[], timeoutMs: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(ffmpegPath, args, { stdio: ['ignore', 'ignore', 'pipe'], ...(signal ? { signal } : {}), timeout: timeoutMs });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      if (stderr.length < 4000) stderr += chunk.toString('utf8');
    });
    child.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT' || error.code === 'EACCES') {
        reject(visionError('VISION_FFMPEG_MISSING', `ffmpeg was not found (${path.basename(ffmpegPath)}); video analysis needs a system ffmpeg.`));
      } else if (error.name === 'AbortError') reject(new AppError('VISION_ABORTED', 'The request was cancelled.'));
      else reject(visionError('VISION_VIDEO_FAILED', 'ffmpeg could not be started.', { errno: error.code }));
    });
    child.on('close', (code, killedBy) => {
      if (code === 0) return resolve();
      const reason = killedBy ? `was stopped (${killedBy}) after ${timeoutMs} ms` : `exited with code ${code}`;
      reject(visionError('VISION_VIDEO_FAILED', `ffmpeg ${reason}.`, { detail: stderr.trim().split('\n').at(-1)?.slice(0, 200) }));
    });
  });
}

/**
 * Frame extraction with a system ffmpeg: the video is written to a private temp folder,
 * frames are sampled at `fps` (at most `maxFrames`), scaled to fit maxEdge, and read back as PNG.
 */
export function createFfmpegFrameExtractor(options: FfmpegOptions): VideoFrameExtractor {
  return {
    async extractFrames(video, { fps, maxFrames, signal }) {
      const dir = await mkdtemp(path.join(tmpdir(), 'cadsight-video-'));
      try {
        const input = path.join(dir, 'input.bin');
        await writeFile(input, video, { mode: 0o600 });
        const edge = options.maxEdge;
        const filter = `fps=${fps},scale='min(${edge},iw)':'min(${edge},ih)':force_original_aspect_ratio=decrease`;
        await runFfmpeg(options.ffmpegPath, ['-hide_banner', '-loglevel', 'error', '-nostdin', '-i', input, '-vf', filter, '-frames:v', String(maxFrames), path.join(dir, 'frame_%04d.png')], options.timeoutMs, signal);
        const names = (await readdir(dir)).filter((n) => n.startsWith('frame_')).sort();
        if (names.length === 0) throw visionError('VISION_VIDEO_FAILED', 'ffmpeg produced no frames (is the video empty?).');
        return Promise.all(names.map(async (name) => new Uint8Array(await readFile(path.join(dir, name)))));
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },
  };
}
