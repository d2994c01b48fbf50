/**
 * Redaction of everything that must never reach a log line: API keys registered at runtime,
 * credential-bearing header/field values, `sk-...` style keys, bearer tokens, data: URI payloads
 * and the query strings of signed URLs.
 */
export interface Redactor {
  /**
   * Adds a secret (e.g. an API key just read from the secret store) whose every occurrence is
   * replaced from now on. Values shorter than MIN_SECRET_LENGTH are ignored: they cannot be
   * real keys and would erase ordinary words.
   */
  registerSecret(value: string): void;
  /** A deep copy of `value` with every secret replaced; cycles and binary data are summarised. */
  redact(value: unknown): unknown;
  /** `redact` for one string. */
  redactText(text: string): string;
}

export const REDACTED = '[REDACTED]';
export const MIN_SECRET_LENGTH = 8;
const MAX_DEPTH = 12;

// Field names whose value is a credential no matter what it looks like: compared lower-cased with
// '-' and '_' removed, by suffix, so "x-api-key", "x-goog-api-key", "api_key", "apiKey",
// "refresh_token" and "clientSecret" all match while "promptTokens" or "keySource" do not.
const SECRET_FIELD_SUFFIX = /(apikey|token|secret|password|passwd|authorization|cookie|credential|credentials|privatekey|signature)$/;
// Query parameters that make a URL a bearer credential (S3/GCS/Azure SAS signatures, tokens).
const SIGNED_QUERY_PARAMS = new Set([
  'xamzsignature', 'xamzcredential', 'xamzsecuritytoken', 'xgoogsignature', 'xgoogcredential', 'signature', 'sig',
  'token', 'accesstoken', 'key', 'apikey', 'code', 'secret', 'auth', 'authorization', 'password',
]);

const BEARER = /\b(Bearer|Basic|Token)\s+[A-Za-z0-9._~+/=-]{8,}/gi;
const SK_KEY = /\bsk-[A-Za-z0-9_-]{16,}/g;
const DATA_URI = /data:([a-z0-9.+-]+\/[a-z0-9.+-]+)?((?:;[a-z0-9.+-]+=[a-z0-9.+-]+)*);base64,([A-Za-z0-9+/_-]*=*)/gi;
const URL_WITH_QUERY = /\b(https?|wss?):\/\/[^\s?#"'<>]+\?([^\s#"'<>]*)/gi;
const URL_USERINFO = /\b((?:https?|wss?|ftp):\/\/[^\s:/?#@"'<>]*):[^\s/?#@"'<>]+@/gi;

const normalizeName = (name: string): string => name.toLowerCase().replace(/[-_]/g, '');

/** Creates a redactor with its own secret registry (one per app runtime; never global). */
export function createRedactor(): Redactor {
  const secrets = new Set<string>();
  // Longest first, so a secret that contains another is removed whole.
  let ordered: string[] = [];

  const redactText = (text: string): string => {
    let out = text;
    for (const secret of ordered) if (out.includes(secret)) out = out.split(secret).join(REDACTED);
    out = out.replace(DATA_URI, (_m, mime: string | undefined, _params: string, payload: string) => `data:${mime ?? 'application/octet-stream'};base64,[${base64ByteLength(payload)} bytes]`);
    out = out.replace(BEARER, (_m, scheme: string) => `${scheme} ${REDACTED}`);
    out = out.replace(SK_KEY, REDACTED);
    out = out.replace(URL_USERINFO, (_m, head: string) => `${head}:${REDACTED}@`);
    out = out.replace(URL_WITH_QUERY, (match: string, _scheme: string, query: string) => (isSignedQuery(query) ? `${match.slice(0, match.length - query.length)}${REDACTED}` : match));
    // A replacement can in theory splice a secret back together across a boundary; the
    // whole string goes then, since a log line is worth less than a leaked key.
    return ordered.some((secret) => out.includes(secret)) ? REDACTED : out;
  };

  const walk = (value: unknown, depth: number, seen: WeakSet<object>): unknown => {
    if (typeof value === 'string') return redactText(value);
    if (value === null || typeof value !== 'object') return typeof value === 'function' ? '[Function]' : typeof value === 'bigint' ? value.toString() : value;
    if (ArrayBuffer.isView(value) || value instanceof ArrayBuffer) return `[${value.byteLength} bytes]`;
    if (seen.has(value)) return '[Circular]';
    if (depth >= MAX_DEPTH) return '[Truncated]';
    seen.add(value);
    try {
      if (value instanceof Error) return walkError(value, depth, seen);
      if (Array.isArray(value)) return value.map((item) => walk(item, depth + 1, seen));
      if (value instanceof Map) return walk(Object.fromEntries(value), depth, seen);
      if (value instanceof Set) return walk([...value], depth, seen);
      if (value instanceof Date) return value.toISOString();
      const out: Record<string, unknown> = {};
      for (const [key, field] of Object.entries(value)) {
        const safeKey = redactText(key);
        const safeValue = SECRET_FIELD_SUFFIX.test(normalizeName(key)) && field !== null && field !== undefined && field !== '' ? REDACTED : walk(field, depth + 1, seen);
        // defineProperty: a field named "__proto__" must stay data, not replace the prototype.
        Object.defineProperty(out, safeKey, { value: safeValue, enumerable: true, writable: true, configurable: true });
      }
      return out;
    } finally {
      seen.delete(value);
    }
  };

  const walkError = (error: Error, depth: number, seen: WeakSet<object>): unknown => {
    const fields: Record<string, unknown> = { name: error.name, message: error.message };
    for (const key of ['code', 'data', 'stack'] as const) if (key in error) fields[key] = (error as unknown as Record<string, unknown>)[key];
    if (error.cause !== undefined) fields.cause = error.cause;
    return walk(fields, depth + 1, seen);
  };

  return {
    registerSecret(value) {
      // A "secret" inside the marker itself could never be removed from the output.
      if (value.length < MIN_SECRET_LENGTH || REDACTED.includes(value) || secrets.has(value)) return;
      secrets.add(value);
      ordered = [...secrets].sort((a, b) => b.length - a.length);
    },
    redact: (value) => walk(value, 0, new WeakSet()),
    redactText,
  };
}

function isSignedQuery(query: string): boolean {
  return query.split('&').some((pair) => SIGNED_QUERY_PARAMS.has(normalizeName(safeDecode(pair.split('=')[0] ?? ''))));
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

function base64ByteLength(payload: string): number {
  const body = payload.replace(/=+$/, '');
  return Math.floor((body.length * 3) / 4);
}
