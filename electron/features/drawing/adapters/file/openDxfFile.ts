import { readFile, stat } from 'node:fs/promises';
import { AppError } from '../../../../../shared/errors';
import { BINARY_DXF_SENTINEL, buildDocument, readBinaryTags, readTextTags, type DxfDocument } from '../../domain';
import { chooseEncoding, decodeMbcsEscape, type TextEncodingChoice } from './codePages';

/** An opened drawing plus how its bytes were decoded (needed to write it back). */
export interface OpenedDxf {
  document: DxfDocument;
  path: string;
  encoding: TextEncodingChoice;
  binary: boolean;
}

/** Header sniffing looks only at the start of the file: $ACADVER/$DWGCODEPAGE are the first variables. */
const SNIFF_BYTES = 64 * 1024;

/** Size caps applied before any decoding (a 1 GiB value would crash V8 while being decoded). */
export interface DxfSizeLimits {
  /** Largest file accepted, in bytes. */
  maxFileBytes: number;
  /** Longest single value (ASCII line, or NUL-free run in a binary file), in bytes. */
  maxValueBytes: number;
}

/** 256 MiB files (the largest real drawings are ~100 MB), 16 MiB values (the DXF reference caps strings at 2,049 characters). */
export const DEFAULT_DXF_LIMITS: DxfSizeLimits = { maxFileBytes: 256 * 1024 * 1024, maxValueBytes: 16 * 1024 * 1024 };

/**
 * Reads and parses a DXF file (ASCII any version, or binary).
 * Errors: CAD_DXF_NOT_FOUND (missing/unreadable file), CAD_DXF_TOO_LARGE (file or one value over
 * the limits, checked before reading/decoding), CAD_DWG_UNSUPPORTED (a DWG file), CAD_DXF_INVALID
 * (no DXF structure at all). Recoverable damage is reported in document.problems.
 */
export async function openDxfFile(path: string, limits: DxfSizeLimits = DEFAULT_DXF_LIMITS): Promise<OpenedDxf> {
  let bytes: Buffer;
  try {
    const size = (await stat(path)).size;
    if (size > limits.maxFileBytes) throw tooLarge(path, `is ${size} bytes, over the ${limits.maxFileBytes}-byte limit`, { bytes: size, maxFileBytes: limits.maxFileBytes });
    bytes = await readFile(path);
  } catch (cause) {
    if (cause instanceof AppError) throw cause;
    throw new AppError('CAD_DXF_NOT_FOUND', `cannot read DXF file ${path}`, { cause, data: { path } });
  }
  return parseDxfBytes(bytes, path, limits);
}

function tooLarge(path: string, what: string, data: Record<string, unknown>): AppError {
  return new AppError('CAD_DXF_TOO_LARGE', `${path} ${what}; raise the limit only for a file you trust`, { data: { path, ...data } });
}

/** Length of the longest run of bytes without `separator`, and where it starts (native indexOf scan). */
function longestRun(bytes: Uint8Array, separator: number): { length: number; at: number } {
  let longest = { length: 0, at: 0 };
  let from = 0;
  while (from <= bytes.length) {
    let next = bytes.indexOf(separator, from);
    if (next < 0) next = bytes.length;
    if (next - from > longest.length) longest = { length: next - from, at: from };
    from = next + 1;
  }
  return longest;
}

/** Parses DXF bytes already in memory (same errors as openDxfFile). */
export function parseDxfBytes(bytes: Uint8Array, path: string, limits: DxfSizeLimits = DEFAULT_DXF_LIMITS): OpenedDxf {
  if (bytes.byteLength > limits.maxFileBytes) throw tooLarge(path, `is ${bytes.byteLength} bytes, over the ${limits.maxFileBytes}-byte limit`, { bytes: bytes.byteLength, maxFileBytes: limits.maxFileBytes });
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.byteLength, SNIFF_BYTES)).toString('latin1');
  if (/^AC1\d{3}[\0-\x1f]/.test(head) || /^AC\d\.\d\d/.test(head)) {
    throw new AppError('CAD_DWG_UNSUPPORTED', `${path} is a DWG file (version ${head.slice(0, 6)}). Open it in AutoCAD with the cad_mcp_frame plugin and connect CadSight to AutoCAD, or save it as DXF and open the DXF here.`, { data: { path, version: head.slice(0, 6) } });
  }
  const binary = head.startsWith(BINARY_DXF_SENTINEL);
  const run = longestRun(bytes, binary ? 0 : 0x0a);
  if (run.length > limits.maxValueBytes) throw tooLarge(path, `has a ${run.length}-byte value at byte ${run.at}, over the ${limits.maxValueBytes}-byte limit for one value`, { valueBytes: run.length, at: run.at, maxValueBytes: limits.maxValueBytes });
  const version = sniffHeaderString(head, '$ACADVER') ?? 'AC1009';
  const encoding = chooseEncoding(version, sniffHeaderString(head, '$DWGCODEPAGE'));
  const decoder = new TextDecoder(encoding.encoding);
  const read = binary ? readBinaryTags(bytes, (b) => decoder.decode(b)) : readTextTags(decoder.decode(bytes));
  if (read.tags.codes.length === 0 || !read.tags.values.some((v, i) => read.tags.codes[i] === 0 && v.trim() === 'SECTION')) {
    throw new AppError('CAD_DXF_INVALID', `${path} is not a DXF file: ${read.problems[0]?.message ?? 'no SECTION found'}`, { data: { path, problems: read.problems.slice(0, 5) } });
  }
  const document = buildDocument(read, { codePage: encoding.codePage, decodeMbcs: decodeMbcsEscape });
  if (encoding.warning) document.problems.push({ kind: 'code_page_fallback', message: encoding.warning });
  return { document, path, encoding, binary };
}

/** Value of a string header variable in ASCII or binary form (the value follows the name). */
function sniffHeaderString(head: string, name: string): string | undefined {
  const at = head.indexOf(name);
  if (at < 0) return undefined;
  const ascii = /^\r?\n\s*\d+\s*\r?\n([^\r\n]*)/.exec(head.slice(at + name.length, at + name.length + 80));
  if (ascii?.[1] !== undefined) return ascii[1].trim();
  // binary: NUL, group code (1 or 2 bytes), NUL-terminated value
  const binary = /^\0[\0-\x0f]{1,2}([ -~]+)\0/.exec(head.slice(at + name.length, at + name.length + 80));
  return binary?.[1];
}

/**
 * Limits from the environment of a composition root: CADSIGHT_DXF_MAX_MB (file size in MiB) and
 * CADSIGHT_DXF_MAX_VALUE_MB (one value). Unset or invalid values keep the defaults.
 */
export function dxfLimitsFromEnv(env: Record<string, string | undefined>): DxfSizeLimits {
  const mib = (name: string, fallback: number): number => {
    const value = Number(env[name]);
    return Number.isFinite(value) && value > 0 ? Math.round(value * 1024 * 1024) : fallback;
  };
  return { maxFileBytes: mib('CADSIGHT_DXF_MAX_MB', DEFAULT_DXF_LIMITS.maxFileBytes), maxValueBytes: mib('CADSIGHT_DXF_MAX_VALUE_MB', DEFAULT_DXF_LIMITS.maxValueBytes) };
}
