import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { AppError } from '../../../shared/errors';

/** Folder name under the OS configuration folder. */
const APP_FOLDER = 'CadSight';

export interface ResolveDataDirInput {
  env: Readonly<Record<string, string | undefined>>;
  platform: NodeJS.Platform;
  homedir: string;
  /** Electron's app.getPath('userData') when running in the desktop app. */
  electronUserData?: string;
}

/** The resolved data folder and why it was chosen (shown in app info and logs). */
export interface ResolvedDataDir {
  dir: string;
  source: 'env' | 'electron' | 'os-default';
}

/**
 * Picks the data folder: CADSIGHT_DATA_DIR (must be absolute), else Electron's userData, else
 * the OS convention (Linux $XDG_CONFIG_HOME or ~/.config, Windows %APPDATA%, macOS
 * ~/Library/Application Support) + "CadSight". Pure: creates nothing (see prepareDataDir).
 * Errors: STORE_DATA_DIR_INVALID when CADSIGHT_DATA_DIR is set but not absolute.
 */
export function resolveDataDir(input: ResolveDataDirInput): ResolvedDataDir {
  const paths = input.platform === 'win32' ? path.win32 : path.posix;
  const override = input.env.CADSIGHT_DATA_DIR;
  if (override !== undefined && override !== '') {
    if (!paths.isAbsolute(override)) {
      throw new AppError('STORE_DATA_DIR_INVALID', 'CADSIGHT_DATA_DIR must be an absolute path.', { data: { env: 'CADSIGHT_DATA_DIR' } });
    }
    return { dir: paths.normalize(override), source: 'env' };
  }
  if (input.electronUserData) return { dir: input.electronUserData, source: 'electron' };
  return { dir: paths.join(osConfigDir(input, paths), APP_FOLDER), source: 'os-default' };
}

function osConfigDir(input: ResolveDataDirInput, paths: path.PlatformPath): string {
  if (input.platform === 'win32') {
    const appData = input.env.APPDATA;
    return appData && paths.isAbsolute(appData) ? appData : paths.join(input.homedir, 'AppData', 'Roaming');
  }
  if (input.platform === 'darwin') return paths.join(input.homedir, 'Library', 'Application Support');
  // XDG says relative values are invalid and must be ignored.
  const xdg = input.env.XDG_CONFIG_HOME;
  return xdg && paths.isAbsolute(xdg) ? xdg : paths.join(input.homedir, '.config');
}

/** The fixed file layout inside the data folder. */
export interface DataDirLayout {
  root: string;
  /** SQLite database. */
  database: string;
  /** Content-addressed artifact store root. */
  artifacts: string;
  /** User settings (JSON, written atomically). */
  settings: string;
  /** Encrypted API keys (safeStorage blobs; never in SQLite). */
  secrets: string;
  /** JSON-lines logs. */
  logs: string;
}

/** The layout of `root` without touching the disk. */
export function dataDirLayout(root: string): DataDirLayout {
  return {
    root,
    database: path.join(root, 'cadsight.db'),
    artifacts: path.join(root, 'artifacts'),
    settings: path.join(root, 'settings.json'),
    secrets: path.join(root, 'secrets.bin'),
    logs: path.join(root, 'logs'),
  };
}

/**
 * Creates the data folder (mode 0700: it holds the user's drawings and encrypted keys) and its
 * sub-folders. Existing folders keep their permissions: they may be a user's deliberate choice.
 * Errors: STORE_DATA_DIR_UNWRITABLE when a folder cannot be created.
 */
export function prepareDataDir(root: string): DataDirLayout {
  const layout = dataDirLayout(root);
  try {
    for (const dir of [layout.root, layout.artifacts, layout.logs]) mkdirSync(dir, { recursive: true, mode: 0o700 });
  } catch (error) {
    throw new AppError('STORE_DATA_DIR_UNWRITABLE', `Cannot create the data folder ${root}.`, {
      data: { dir: root, errno: (error as NodeJS.ErrnoException).code ?? 'unknown' },
      cause: error,
    });
  }
  return layout;
}
