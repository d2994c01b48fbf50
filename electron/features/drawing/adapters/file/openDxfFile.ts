import { readFile } from 'node:fs/promises';
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

/**
 * Reads and parses a DXF file (ASCII any version, or binary).
 * Errors: CAD_DXF_NOT_FOUND (missing/unreadable file), CAD_DWG_UNSUPPORTED (a DWG file),
 * CAD_DXF_INVALID (no DXF structure at all). Recoverable damage is reported in document.problems.
 */
export async function openDxfFile(path: string): Promise<OpenedDxf> {
  let bytes: Buffer;
  try {
    bytes = await readFile(path);
  } catch (cause) {
    throw new AppError('CAD_DXF_NOT_FOUND', `cannot read DXF file ${path}`, { cause, data: { path } });
  }
  return parseDxfBytes(bytes, path);
}

/** Parses DXF bytes already in memory (same errors as openDxfFile). */
export function parseDxfBytes(bytes: Uint8Array, path: string): OpenedDxf {
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.byteLength, SNIFF_BYTES)).toString('latin1');
  if (/^AC1\d{3}[\0-\x1f]/.test(head) || /^AC\d\.\d\d/.test(head)) {
    throw new AppError('CAD_DWG_UNSUPPORTED', `${path} is a DWG file (version ${head.slice(0, 6)}). Open it in AutoCAD with the cad_mcp_frame plugin and connect CadSight to AutoCAD, or save it as DXF and open the DXF here.`, { data: { path, version: head.slice(0, 6) } });
  }
  const binary = head.startsWith(BINARY_DXF_SENTINEL);
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
