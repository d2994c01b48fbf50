import { createReadStream } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { Zip, ZipDeflate } from 'fflate';
import { AppError } from '../../../shared/errors';
import { streamingVerifier, type ManifestDigest } from '../../features/cadgen/index';

/** A file chosen for an export: its name inside the zip, where it is, and its size when it was chosen. */
export interface ExportFile {
  name: string;
  path: string;
  size: number;
  /** What the revision's manifest records for it (absent: a file no manifest lists). */
  expected?: ManifestDigest;
}

/**
 * Every file under `dir/prefix` as paths relative to `dir` (revision folders are one or two levels
 * deep). Errors: CDSL_ARTIFACT_MISSING when the folder itself is gone (a published revision whose
 * folder was deleted or moved).
 */
export async function filesUnder(dir: string, prefix = ''): Promise<string[]> {
  const entries = await readdir(path.join(dir, prefix), { withFileTypes: true }).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT' || error.code === 'ENOTDIR') {
      throw new AppError('CDSL_ARTIFACT_MISSING', `The folder ${prefix || '.'} of this task is missing; the revision can no longer be exported.`, { data: { folder: prefix } });
    }
    throw error;
  });
  const out: string[] = [];
  for (const entry of entries) {
    const rel = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) out.push(...(await filesUnder(dir, rel)));
    else if (entry.isFile()) out.push(rel);
  }
  return out;
}

/**
 * Sizes the files from `stat` and refuses before a byte is read when they add up to more than
 * `maxBytes`. Errors: CDSL_ARTIFACT_TOO_LARGE (data: size, max), CDSL_ARTIFACT_MISSING (a file
 * vanished after it was listed).
 */
export async function sizedExportFiles(files: ReadonlyArray<{ name: string; path: string; expected?: ManifestDigest }>, maxBytes: number, what: string): Promise<ExportFile[]> {
  const sized: ExportFile[] = [];
  let total = 0;
  for (const file of files) {
    const info = await stat(file.path).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') throw new AppError('CDSL_ARTIFACT_MISSING', `${file.name} disappeared while ${what} was prepared.`, { data: { name: file.name } });
      throw error;
    });
    total += info.size;
    if (total > maxBytes) throw new AppError('CDSL_ARTIFACT_TOO_LARGE', `${what} exceeds ${maxBytes} bytes`, { data: { size: total, max: maxBytes } });
    sized.push({ name: file.name, path: file.path, size: info.size, ...(file.expected ? { expected: file.expected } : {}) });
  }
  return sized;
}

/**
 * Zips `files` streaming: each file is read in chunks into the deflater, so the memory held is the
 * growing zip (at most `maxBytes`) plus one chunk, never every input at once. A file that grew past
 * its stat size meanwhile, or a zip over `maxBytes`, is CDSL_ARTIFACT_TOO_LARGE; a file whose bytes
 * are not what its manifest records is CDSL_ARTIFACT_CORRUPT (hashed while it streams, no second read).
 */
export async function zipExportFiles(files: readonly ExportFile[], maxBytes: number, what: string): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  let failure: unknown = null;
  const zip = new Zip((error, chunk) => {
    if (error) failure ??= error;
    if (failure !== null) return;
    size += chunk.length;
    if (size > maxBytes) {
      failure = new AppError('CDSL_ARTIFACT_TOO_LARGE', `${what} is over ${maxBytes} bytes once zipped`, { data: { size, max: maxBytes } });
      chunks.length = 0;
      return;
    }
    chunks.push(chunk);
  });
  for (const file of files) {
    const entry = new ZipDeflate(file.name, { level: 6 });
    zip.add(entry);
    let read = 0;
    const verifier = file.expected ? streamingVerifier(file.name, file.expected) : null;
    // One byte past the stat size is requested so that a file that grew is noticed, not cut.
    for await (const chunk of createReadStream(file.path, { start: 0, end: file.size, highWaterMark: 1 << 20 })) {
      read += (chunk as Buffer).length;
      if (read > file.size) throw new AppError('CDSL_ARTIFACT_TOO_LARGE', `${file.name} grew while ${what} was written`, { data: { name: file.name, size: file.size } });
      verifier?.update(chunk as Buffer);
      entry.push(chunk as Buffer, false);
      if (failure !== null) throw failure;
    }
    verifier?.finish();
    entry.push(new Uint8Array(0), true);
    if (failure !== null) throw failure;
  }
  zip.end();
  if (failure !== null) throw failure;
  return Buffer.concat(chunks, size);
}
