/**
 * The diagnostic copy of a model's raw tool arguments that the audit keeps (seed §4.1): redacted
 * and bounded. Credentials go through the injected redactor (the app's, which knows the keys in
 * use); absolute file paths (they name the user's machine) are replaced here; the result is cut to
 * MAX_ARGUMENT_RECORD_BYTES of UTF-8. Pure given the redactor.
 */
export const MAX_ARGUMENT_RECORD_BYTES = 4096;
export const PATH_MARK = '[PATH]';

/** What the record needs of a redactor (the platform's Redactor fits). */
export interface ArgumentRedactor {
  redact(value: unknown): unknown;
  redactText(text: string): string;
}

export interface ArgumentRecord {
  /** Redacted raw arguments (JSON re-serialized when they parsed, else the redacted text), at most MAX_ARGUMENT_RECORD_BYTES. */
  text: string;
  /** True when the redacted text was cut to the bound. */
  truncated: boolean;
  /** True when the raw text was not JSON (a format error: kept as text). */
  unparsed: boolean;
}

// POSIX absolute paths under a system or home root, Windows drive and UNC paths, file: URLs.
// Relative names and JSON pointers ("/claims/0/expected") are not paths of the machine and stay.
const ABSOLUTE_PATH = /(?:file:\/\/\/?[^\s"'<>]*|(?<![\w.~-])\/(?:home|Users|root|tmp|var|etc|opt|usr|mnt|media|srv|private|Volumes|run|proc|dev|snap|work|workspace|data|Library|Applications|System)(?:\/[^\s"'<>]*)?|\b[A-Za-z]:[\\/][^\s"'<>]*|\\\\[^\s\\"'<>]+\\[^\s"'<>]*)/g;

// Credential fields in text that is not JSON (a format error), where the redactor's field-name rule cannot see keys.
const SECRET_FIELD_IN_TEXT = /("?[\w-]*(?:api[_-]?key|apikey|token|secret|password|passwd|authorization|credential)"?\s*[:=]\s*"?)([^"\s,}]+)/gi;

/** Replaces absolute paths in a text. */
export function redactPaths(text: string): string {
  return text.replace(ABSOLUTE_PATH, PATH_MARK);
}

function walkPaths(value: unknown): unknown {
  if (typeof value === 'string') return redactPaths(value);
  if (Array.isArray(value)) return value.map(walkPaths);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, field] of Object.entries(value)) Object.defineProperty(out, redactPaths(key), { value: walkPaths(field), enumerable: true, writable: true, configurable: true });
    return out;
  }
  return value;
}

/** Cuts `text` to at most `maxBytes` of UTF-8 without splitting a character, marking the cut. */
export function boundUtf8(text: string, maxBytes: number): { text: string; truncated: boolean } {
  const encoder = new TextEncoder();
  if (encoder.encode(text).byteLength <= maxBytes) return { text, truncated: false };
  const mark = '…[truncated]';
  const budget = maxBytes - encoder.encode(mark).byteLength;
  let used = 0;
  let end = 0;
  for (const char of text) {
    const size = encoder.encode(char).byteLength;
    if (used + size > budget) break;
    used += size;
    end += char.length;
  }
  return { text: `${text.slice(0, end)}${mark}`, truncated: true };
}

/** The redacted, bounded record of one raw argument string (or a reply's text when it made no call). */
export function argumentRecord(raw: string, redactor: ArgumentRedactor, maxBytes = MAX_ARGUMENT_RECORD_BYTES): ArgumentRecord {
  let parsed: unknown;
  let unparsed = false;
  try {
    parsed = JSON.parse(raw);
  } catch {
    unparsed = true;
  }
  const text = unparsed ? redactPaths(redactor.redactText(raw).replace(SECRET_FIELD_IN_TEXT, '$1[REDACTED]')) : JSON.stringify(walkPaths(redactor.redact(parsed)));
  const bounded = boundUtf8(text, maxBytes);
  return { text: bounded.text, truncated: bounded.truncated, unparsed };
}
