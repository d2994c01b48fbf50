import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Finds `relative` (e.g. "resources/checklist/review_checklist.json") by walking up from the
 * module at `moduleUrl`. That covers the source tree, the dist/node and dist/electron bundles,
 * and the packaged app, where the module sits in app.asar and electron-builder's
 * extraResources put resources/ beside it. Null when this installation lacks the file.
 */
export function findBundledResource(moduleUrl: string | URL, relative: string): string | null {
  let dir = path.dirname(fileURLToPath(moduleUrl));
  for (let depth = 0; depth < 6; depth += 1) {
    const candidate = path.join(dir, relative);
    if (existsSync(candidate)) return candidate;
    const parent = path.dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  return null;
}
