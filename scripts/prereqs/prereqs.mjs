// The one list of what the tests need beyond npm packages, how to find each piece, and how to
// install it. Used by `npm test` (scripts/test-prereqs.mjs), `.ci/run` (through npm test) and
// the tests themselves (electron/testSupport/prereqs.ts reads the resolved paths).
import { execFileSync, spawnSync } from 'node:child_process';
import { statSync } from 'node:fs';
import path from 'node:path';

/** Where Debian/Ubuntu and Fedora put a Noto CJK collection: the drawing renderer's
 * DEFAULT_CJK_FONT_FILES (a test keeps the two equal; the renderer cannot be imported before the
 * build that this check precedes). */
export const CJK_FONT_FILES = [
  '/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc',
  '/usr/share/fonts/noto-cjk/NotoSansCJK-Regular.ttc',
  '/usr/share/fonts/google-noto-cjk/NotoSansCJK-Regular.ttc',
  '/usr/share/fonts/opentype/noto/NotoSerifCJK-Regular.ttc',
];

/** The project-local Python environment used when ezdxf cannot come from the system. */
export const VENV_DIR = '.cache/pyenv';
/** Resolved paths, written by scripts/test-prereqs.mjs and read by the tests. */
export const RESOLVED_FILE = '.cache/test-prereqs.json';

const isFile = (p) => { try { return statSync(p).isFile(); } catch { return false; } };
const runs = (cmd, args) => spawnSync(cmd, args, { stdio: 'ignore', timeout: 20_000 }).status === 0;
function onPath(name, env) {
  for (const dir of (env.PATH ?? '').split(path.delimiter)) {
    const candidate = path.join(dir, name);
    if (dir && isFile(candidate)) return candidate;
  }
  return undefined;
}
function playwrightChromium() {
  try {
    const exe = execFileSync(process.execPath, ['-e', "process.stdout.write(require('playwright-core').chromium.executablePath())"], { encoding: 'utf8', timeout: 20_000 });
    return isFile(exe) ? exe : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Each prerequisite: `find` returns the resolved path or undefined; `required` pieces stop the
 * run when missing; `optionalOutsideCi` pieces (independent validators) may be skipped by the
 * tests that need them when CI is not set. `apt` is the Debian package; `userInstall` what a
 * non-root user with internet can do; `manual` the commands printed when nothing worked.
 */
export const PREREQS = [
  {
    id: 'chromium',
    what: 'Chromium for the end-to-end journeys (Playwright drives it against browser mode)',
    required: true,
    find: (env) => [env.CADSIGHT_CHROMIUM, '/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome-stable', '/Applications/Chromium.app/Contents/MacOS/Chromium', '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome'].find((p) => p && isFile(p)) ?? playwrightChromium(),
    apt: 'chromium',
    userInstall: { label: "Playwright's own Chromium download", command: [process.execPath, ['node_modules/playwright-core/cli.js', 'install', 'chromium']] },
    manual: ['Debian/Ubuntu: sudo apt-get install chromium', 'macOS: brew install --cask chromium', 'any system: npx playwright-core install chromium', 'or point CADSIGHT_CHROMIUM at a Chromium/Chrome binary'],
  },
  {
    id: 'python',
    what: 'Python with ezdxf, the independent validator of the DXF files CadSight writes',
    required: true,
    optionalOutsideCi: true,
    find: (env) => [env.CADSIGHT_PYTHON, '/usr/bin/python3', path.resolve(VENV_DIR, 'bin/python'), path.resolve(VENV_DIR, 'Scripts/python.exe')].find((p) => p && isFile(p) && runs(p, ['-c', 'import ezdxf; ezdxf.new()'])),
    apt: 'python3-ezdxf',
    userInstall: { label: `pip install ezdxf into a project-local virtualenv (${VENV_DIR})`, command: ['sh', ['-c', `python3 -m venv ${VENV_DIR} && ${VENV_DIR}/bin/pip install --quiet ezdxf`]] },
    manual: ['Debian/Ubuntu: sudo apt-get install python3-ezdxf', `any system with Python 3: python3 -m venv ${VENV_DIR} && ${VENV_DIR}/bin/pip install ezdxf`, 'or point CADSIGHT_PYTHON at a python that can import ezdxf'],
  },
  {
    id: 'ffmpeg',
    what: 'ffmpeg for video frames (analyze_video)',
    required: true,
    find: (env) => [env.CADSIGHT_FFMPEG, '/usr/bin/ffmpeg', onPath(process.platform === 'win32' ? 'ffmpeg.exe' : 'ffmpeg', env)].find((p) => p && isFile(p)),
    apt: 'ffmpeg',
    manual: ['Debian/Ubuntu: sudo apt-get install ffmpeg', 'macOS: brew install ffmpeg', 'Windows: winget install ffmpeg', 'or point CADSIGHT_FFMPEG at an ffmpeg binary'],
  },
  {
    id: 'poppler',
    what: 'poppler-utils (pdfinfo, pdfimages, pdftotext), the independent reader of the part-drawing PDFs',
    required: true,
    optionalOutsideCi: true,
    find: (env) => ['/usr/bin/pdfinfo', onPath(process.platform === 'win32' ? 'pdfinfo.exe' : 'pdfinfo', env)].find((p) => p && isFile(p)),
    apt: 'poppler-utils',
    manual: ['Debian/Ubuntu: sudo apt-get install poppler-utils', 'macOS: brew install poppler', 'Windows: winget install poppler'],
  },
  {
    id: 'cjkFont',
    what: 'a Noto CJK font, so drawing screenshots show Chinese text',
    required: true,
    find: () => CJK_FONT_FILES.find(isFile),
    apt: 'fonts-noto-cjk',
    manual: ['Debian/Ubuntu: sudo apt-get install fonts-noto-cjk', 'Fedora: sudo dnf install google-noto-sans-cjk-fonts'],
  },
];

/**
 * What to do about the missing pieces (pure, so it is tested without a machine to break):
 * `apt` when root with apt-get, `user` installs for the rest, and the pieces left `missing`
 * (fatal) or `skippable` (optional outside CI: their tests skip with a printed reason).
 */
export function planSetup(missing, { ci, root, hasApt }) {
  const apt = root && hasApt ? missing.filter((p) => p.apt) : [];
  const rest = missing.filter((p) => !apt.includes(p));
  return { apt: apt.map((p) => p.apt), user: rest.filter((p) => p.userInstall), after: (stillMissing) => ({
    fatal: stillMissing.filter((p) => p.required && (ci || !p.optionalOutsideCi)),
    skippable: stillMissing.filter((p) => !ci && p.optionalOutsideCi),
  }) };
}
