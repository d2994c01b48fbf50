import type { DxfProblem, TagReadResult } from './tags';

/** The 22-byte sentinel that starts every binary DXF file. */
export const BINARY_DXF_SENTINEL = 'AutoCAD Binary DXF\r\n\x1a\x00';

/** Decodes the bytes of one string value with the drawing's code page. */
export type StringDecoder = (bytes: Uint8Array) => string;

type ValueKind = 'string' | 'double' | 'int16' | 'int32' | 'int64' | 'bool' | 'binary';

function inRange(code: number, from: number, to: number): boolean {
  return code >= from && code <= to;
}

/** Value encoding per group code, as the DXF reference defines it for binary files. */
function valueKind(code: number): ValueKind {
  if (inRange(code, 310, 319) || code === 1004) return 'binary';
  if (inRange(code, 290, 299)) return 'bool';
  if (inRange(code, 60, 79) || inRange(code, 170, 179) || inRange(code, 270, 289) || inRange(code, 370, 389) || inRange(code, 400, 409) || inRange(code, 1060, 1070)) return 'int16';
  if (inRange(code, 90, 99) || inRange(code, 420, 429) || inRange(code, 440, 459) || code === 1071) return 'int32';
  if (inRange(code, 160, 169)) return 'int64';
  if (inRange(code, 10, 59) || inRange(code, 110, 149) || inRange(code, 210, 239) || inRange(code, 460, 469) || inRange(code, 1010, 1059)) return 'double';
  return 'string';
}

function hex(bytes: Uint8Array): string {
  let out = '';
  for (const b of bytes) out += b.toString(16).toUpperCase().padStart(2, '0');
  return out;
}

/**
 * Reads a binary DXF into the same tag stream the ASCII reader produces (numbers rendered as
 * ASCII DXF would write them), so every later layer is shared. R12 files use 1-byte group codes
 * (255 escapes a 2-byte code); R13+ use 2-byte codes. A value running past the end of the data
 * stops reading with a problem instead of reading out of bounds.
 */
export function readBinaryTags(bytes: Uint8Array, decode: StringDecoder): TagReadResult {
  const codes: number[] = [];
  const values: string[] = [];
  const problems: DxfProblem[] = [];
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const start = BINARY_DXF_SENTINEL.length;
  // R13+ writes "0x00 0x00 SECTION"; R12 writes "0x00 SECTION".
  const twoByteCodes = bytes[start + 1] === 0;
  let index = start;
  const need = (n: number): boolean => index + n <= bytes.length;
  let sawEof = false;
  while (index < bytes.length) {
    let code: number;
    if (twoByteCodes) {
      if (!need(2)) break;
      code = view.getInt16(index, true);
      index += 2;
    } else {
      const first = bytes[index] ?? 0;
      if (first === 255) {
        if (!need(3)) break;
        code = view.getInt16(index + 1, true);
        index += 3;
      } else {
        code = first;
        index += 1;
      }
    }
    const kind = valueKind(code);
    let value: string;
    if (kind === 'string') {
      const end = bytes.indexOf(0, index);
      if (end < 0) {
        problems.push({ kind: 'truncated', message: `binary string for group code ${code} at byte ${index} is not terminated` });
        break;
      }
      value = decode(bytes.subarray(index, end));
      index = end + 1;
    } else if (kind === 'binary') {
      const length = bytes[index] ?? 0;
      if (!need(1 + length)) break;
      value = hex(bytes.subarray(index + 1, index + 1 + length));
      index += 1 + length;
    } else {
      const size = kind === 'double' || kind === 'int64' ? 8 : kind === 'int32' ? 4 : kind === 'int16' ? 2 : 1;
      if (!need(size)) break;
      if (kind === 'double') value = String(view.getFloat64(index, true));
      else if (kind === 'int64') value = String(view.getBigInt64(index, true));
      else if (kind === 'int32') value = String(view.getInt32(index, true));
      else if (kind === 'int16') value = String(view.getInt16(index, true));
      else value = String(bytes[index]);
      index += size;
    }
    codes.push(code);
    values.push(value);
    if (code === 0 && value === 'EOF') {
      sawEof = true;
      break;
    }
  }
  if (!sawEof && !problems.some((p) => p.kind === 'truncated')) problems.push({ kind: 'missing_eof', message: 'binary DXF ends without 0/EOF' });
  return { tags: { codes, values }, problems };
}
