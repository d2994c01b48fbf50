/**
 * Structural check of a dropped file, from its bytes alone (no decoder in the view): the format
 * by magic number, and whether the file reaches its format's end marker. Catches the usual bad
 * drops — a truncated download or copy, a renamed non-image — before they are sent.
 */
export type UploadProblem = 'notImage' | 'truncated';

const startsWith = (bytes: Uint8Array, magic: number[], at = 0) => magic.every((b, i) => bytes[at + i] === b);

/** True when `marker` occurs within the last `window` bytes (trailing padding after the end is common). */
function endsNear(bytes: Uint8Array, marker: number[], window: number): boolean {
  for (let i = bytes.length - marker.length; i >= Math.max(0, bytes.length - window); i--) if (startsWith(bytes, marker, i)) return true;
  return false;
}

const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const PNG_IEND = [0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82];
const ascii = (text: string) => [...text].map((c) => c.charCodeAt(0));

export function uploadProblem(bytes: Uint8Array): UploadProblem | null {
  if (startsWith(bytes, PNG)) return endsNear(bytes, PNG_IEND, 64) ? null : 'truncated';
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return endsNear(bytes, [0xff, 0xd9], 4096) ? null : 'truncated';
  if (startsWith(bytes, ascii('GIF8'))) return endsNear(bytes, [0x3b], 64) ? null : 'truncated';
  if (startsWith(bytes, ascii('RIFF')) && startsWith(bytes, ascii('WEBP'), 8)) {
    const declared = (bytes[4]! | (bytes[5]! << 8) | (bytes[6]! << 16) | (bytes[7]! << 24)) >>> 0;
    return bytes.length >= declared + 8 ? null : 'truncated';
  }
  if (new TextDecoder('latin1').decode(bytes.subarray(0, 1024)).includes('%PDF-')) return endsNear(bytes, ascii('%%EOF'), 2048) ? null : 'truncated';
  return 'notImage';
}

/** Bytes of a base64 payload (as FileReader's data URL gives it). */
export function base64Bytes(base64: string): Uint8Array {
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}
