import { readFileSync } from 'node:fs';
import type { z } from 'zod';
import { AppError } from '../../../shared/errors';
import { moveAside } from './fileSafety';

/** Outcome of loading a small JSON state file (settings, encrypted key list). */
export type JsonFileLoad<T> = { kind: 'missing' } | { kind: 'ok'; value: T } | { kind: 'moved-aside'; movedTo: string };

export interface LoadJsonFileOptions<T> {
  file: string;
  schema: z.ZodType<T>;
  now: Date;
  /**
   * Runs on parsed-but-invalid JSON before it is moved aside; throw here to refuse instead
   * (e.g. a file written by a newer CadSight must be kept in place, not discarded).
   */
  refuseBeforeMoveAside?: (raw: unknown) => void;
}

/**
 * Reads and validates a JSON file. A file that is not JSON or does not match the schema is moved
 * aside to `<file>.corrupt-<timestamp>` (never deleted) so the caller can start fresh and report it.
 * Errors: STORE_IO when the file exists but cannot be read.
 */
export function loadJsonFile<T>(options: LoadJsonFileOptions<T>): JsonFileLoad<T> {
  let text: string;
  try {
    text = readFileSync(options.file, 'utf8');
  } catch (error) {
    const errno = (error as NodeJS.ErrnoException).code ?? 'unknown';
    if (errno === 'ENOENT') return { kind: 'missing' };
    throw new AppError('STORE_IO', `Could not read ${options.file} (${errno}).`, { data: { errno }, cause: error });
  }
  const raw = parseJson(text);
  const parsed = options.schema.safeParse(raw);
  if (parsed.success) return { kind: 'ok', value: parsed.data };
  if (raw !== undefined) options.refuseBeforeMoveAside?.(raw);
  return { kind: 'moved-aside', movedTo: moveAside(options.file, options.now).movedTo };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
