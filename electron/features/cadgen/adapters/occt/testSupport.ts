// Shared by the OCCT test files only (never imported by product code).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Repository root, resolved from this file (tests run from source). */
export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../..');
/** The bundled worker the vitest global setup builds before any test runs. */
export const builtWorker = path.join(repoRoot, 'dist/node/occtWorker.js');

export function example(name: string): { document: unknown; claims: unknown } {
  const dir = path.join(repoRoot, 'resources/examples/cdsl');
  return { document: JSON.parse(readFileSync(path.join(dir, `${name}.json`), 'utf8')), claims: JSON.parse(readFileSync(path.join(dir, `${name}.claims.json`), 'utf8')) };
}

export const EXAMPLES = ['flange', 'plate_hole_grid', 'l_bracket', 'shelled_box', 'tube', 'revolved_bushing', 'patterned_bar', 'chamfered_block'] as const;
