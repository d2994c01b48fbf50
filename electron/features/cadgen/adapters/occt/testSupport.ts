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

/** Document builders for kernel tests: features are numbered F1.. in order. */
export const XY = (z: number): { origin: number[]; normal: number[]; x_dir: number[] } => ({ origin: [0, 0, z], normal: [0, 0, 1], x_dir: [1, 0, 0] });
export const rect = (w: number, h: number, c: number[] = [0, 0]): Record<string, unknown> => ({ type: 'rectangle', center: c, width_mm: w, height_mm: h });
export const circle = (d: number, c: number[] = [0, 0]): Record<string, unknown> => ({ type: 'circle', center: c, diameter_mm: d });
export const extrudeAt = (z: number, outer: unknown, d: number, body: 'join' | 'new_body', reverse = false): Record<string, unknown> => ({
  atomic_id: 'extrude',
  sketch: { workplane: XY(z), profile: { outer } },
  params: { extent: { kind: 'one_sided', distance_mm: d, reverse }, body },
});
export const rawDocument = (name: string, features: Record<string, unknown>[]): unknown => ({ cdsl_version: '3.0', units: 'mm', name, features: features.map((f, i) => ({ id: `F${i + 1}`, ...f })) });
