/**
 * Structured logger port (JSON lines). Implementations redact API keys, Authorization headers,
 * data URIs and signed-URL query strings before anything is written.
 */
export interface Logger {
  debug(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
  /** A logger that adds `fields` to every line (e.g. { slice: 'vision' }). */
  child(fields: Record<string, unknown>): Logger;
}
