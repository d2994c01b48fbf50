import { lstat, realpath } from 'node:fs/promises';
import path from 'node:path';
import { AppError } from '../../../../../shared/errors';
import type { DxfSaveLocator } from '../../application/dxfBackend/session';

/**
 * Where save_drawing may write, decided by whoever started the backend (never by the caller of
 * the tool: a line on the TCP port may come from any local process).
 */
export interface SavePolicy {
  /** A folder the server was told on its command line; any `*.dxf` directly inside it may be written. */
  outputDir?: string;
  /** Replace an existing file (the in-process app re-saves its own review copy). Default false. */
  allowOverwrite?: boolean;
}

const REVIEW_SUFFIX = /\.ai-review(?:-\d+)?$/i;
const MAX_NUMBERED = 999;

/** `x.dxf` and `x.ai-review-3.dxf` both have the stem `x`: review copies of a copy stay `x.ai-review…`. */
function reviewStem(file: string): string {
  return path.basename(file).replace(/\.dxf$/i, '').replace(REVIEW_SUFFIX, '');
}

function isReviewCopyName(name: string, stem: string): boolean {
  if (!name.toLowerCase().endsWith('.dxf')) return false;
  const base = name.slice(0, -4);
  return base.length > stem.length && base.slice(0, stem.length) === stem && REVIEW_SUFFIX.test(base) && base.replace(REVIEW_SUFFIX, '') === stem;
}

async function exists(file: string): Promise<boolean> {
  try {
    await lstat(file);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
}

async function realDir(dir: string, requested: string): Promise<string> {
  try {
    return await realpath(dir);
  } catch {
    throw refused(requested, 'its folder does not exist');
  }
}

function refused(requested: string, why: string): AppError {
  return new AppError('CAD_DXF_SAVE_REFUSED', `save_drawing may not write "${requested}": ${why}. It writes <name>.ai-review[-N].dxf next to the original, or into the folder given to the server with --output-dir.`, { data: { path: requested } });
}

/**
 * A DxfSaveLocator confined to the original's folder (review-copy names only) and the optional
 * output folder, checked after resolving symlinks (`dir//x.dxf`, `/./`, `/../` and links all
 * reduce to one real path). Without a requested path it picks the first free
 * `<name>.ai-review[-N].dxf`. Errors: CAD_DXF_SAVE_REFUSED (outside the confinement, not a .dxf,
 * or a symlink/non-file target), CAD_DXF_OVERWRITE_REFUSED (the file exists and overwriting is
 * off, or it is the original and the call did not say overwrite_original).
 */
export function createConfinedSaveLocator(sourcePath: string, policy: SavePolicy = {}): DxfSaveLocator {
  return {
    async locate(requested, overwriteOriginal) {
      const source = await realpath(sourcePath);
      const sourceDir = path.dirname(source);
      const stem = reviewStem(source);
      if (requested === undefined) {
        for (let n = 0; n <= MAX_NUMBERED; n += 1) {
          const candidate = path.join(sourceDir, `${stem}.ai-review${n === 0 ? '' : `-${n}`}.dxf`);
          if (candidate === source) continue;
          if (policy.allowOverwrite === true || !(await exists(candidate))) return candidate;
        }
        throw refused(`${stem}.ai-review.dxf`, `${MAX_NUMBERED} numbered review copies already exist`);
      }
      const absolute = path.resolve(sourceDir, requested);
      const name = path.basename(absolute);
      const dir = await realDir(path.dirname(absolute), requested);
      const target = path.join(dir, name);
      if (target === source) {
        // Both the server's flag and the call's own overwrite_original are needed.
        if (!overwriteOriginal || policy.allowOverwrite !== true) {
          throw new AppError('CAD_DXF_OVERWRITE_REFUSED', 'refusing to overwrite the original drawing', { data: { path: requested } });
        }
        return target;
      }
      const outputDir = policy.outputDir === undefined ? undefined : await realDir(policy.outputDir, requested);
      const inOutputDir = outputDir !== undefined && dir === outputDir && name.toLowerCase().endsWith('.dxf');
      const isReviewCopy = dir === sourceDir && isReviewCopyName(name, stem);
      if (!inOutputDir && !isReviewCopy) throw refused(requested, 'that is neither a review copy next to the original nor a .dxf in the output folder');
      let info;
      try {
        info = await lstat(target);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return target;
        throw error;
      }
      if (!info.isFile()) throw refused(requested, 'the target exists and is not a regular file');
      if (policy.allowOverwrite !== true) {
        throw new AppError('CAD_DXF_OVERWRITE_REFUSED', `refusing to overwrite the existing file "${requested}"; omit path to get a fresh <name>.ai-review-N.dxf`, { data: { path: requested } });
      }
      return target;
    },
  };
}
