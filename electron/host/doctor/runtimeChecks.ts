import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createCanvasDxfRenderer, DEFAULT_CJK_FONT_FILES } from '../../features/drawing/index';
import type { DoctorCheck, DoctorOutcome } from './doctorCheck';

const MIN_NODE = [20, 19] as const;

/** Node itself: CadSight needs ≥ 20.19 (require(esm), the sqlite binding's ABI). */
export function nodeCheck(version: string = process.versions.node): DoctorCheck {
  return {
    id: 'node',
    group: 'runtime',
    label: 'Node.js',
    async run(): Promise<DoctorOutcome> {
      const [major = 0, minor = 0] = version.split('.').map(Number);
      const ok = major > MIN_NODE[0] || (major === MIN_NODE[0] && minor >= MIN_NODE[1]);
      const minimum = MIN_NODE.join('.');
      return ok
        ? { status: 'pass', detail: `v${version}`, finding: { code: 'node-version', params: { version } } }
        : { status: 'fail', detail: `v${version}; CadSight needs ≥ ${minimum}`, finding: { code: 'node-too-old', params: { version, minimum } } };
    },
  };
}

/** The Electron binary (desktop app) or browser mode when it is missing — both are usable. */
export function electronCheck(resolveBinary: () => string | null = electronBinary): DoctorCheck {
  return {
    id: 'electron',
    group: 'runtime',
    label: 'Desktop app',
    async run(): Promise<DoctorOutcome> {
      const binary = resolveBinary();
      return binary
        ? { status: 'pass', detail: `Electron binary ${binary}`, finding: { code: 'electron-binary', params: { path: binary } } }
        : {
            status: 'warn',
            detail: 'no Electron binary (skipped or its download failed): npm start opens browser mode; npm run install:desktop downloads it',
            finding: { code: 'electron-missing', params: {} },
          };
    },
  };
}

function electronBinary(): string | null {
  try {
    const binary: unknown = createRequire(import.meta.url)('electron'); // the package exports the binary path
    return typeof binary === 'string' && existsSync(binary) ? binary : null;
  } catch {
    return null;
  }
}

/** ffmpeg (video frames for analyze_video): optional, so missing is a warning. */
export function ffmpegCheck(ffmpegPath: string): DoctorCheck {
  return {
    id: 'ffmpeg',
    group: 'runtime',
    label: 'ffmpeg (video)',
    async run(): Promise<DoctorOutcome> {
      const firstLine = await new Promise<string | null>((resolve) => {
        const child = spawn(ffmpegPath, ['-hide_banner', '-version'], { stdio: ['ignore', 'pipe', 'ignore'] });
        let out = '';
        const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
        child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
        child.on('error', () => resolve(null));
        child.on('close', (code) => {
          clearTimeout(timer);
          resolve(code === 0 ? (out.split('\n')[0] ?? '').trim() : null);
        });
      });
      return firstLine
        ? { status: 'pass', detail: firstLine, finding: { code: 'ffmpeg-version', params: { version: /version (\S+)/.exec(firstLine)?.[1] ?? firstLine } } }
        : {
            status: 'warn',
            detail: `"${ffmpegPath}" does not run: analyze_video is unavailable (install ffmpeg or set FFMPEG_PATH)`,
            finding: { code: 'ffmpeg-missing', params: { path: ffmpegPath } },
          };
    },
  };
}

/** A CJK font for drawing screenshots: the renderer refuses to start without one. */
export function cjkFontCheck(fontFiles: string[] = DEFAULT_CJK_FONT_FILES): DoctorCheck {
  return {
    id: 'fonts',
    group: 'runtime',
    label: 'CJK font (screenshots)',
    async run(): Promise<DoctorOutcome> {
      createCanvasDxfRenderer(fontFiles); // throws CAD_RENDER_FONT_MISSING with the install hint
      const file = fontFiles.find((candidate) => existsSync(candidate)) ?? '';
      return { status: 'pass', detail: file || 'loaded', finding: { code: 'font-loaded', params: { file } } };
    },
  };
}
