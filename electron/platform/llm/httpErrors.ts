import { AppError } from '../../../shared/errors';

const MAX_PROVIDER_MESSAGE = 300;

/** Provider error texts that mean "the prompt is too long" even when sent as a plain 400. */
const CONTEXT_TOO_LARGE = /context[_ ]length|context window|maximum context|prompt is too long|too many tokens|input is too long|exceeds? the (model'?s )?(maximum|max)/i;

/** True for HTTP statuses worth retrying: rate limits, server faults and request timeouts. */
export function isRetryableStatus(status: number): boolean {
  return status === 429 || status === 408 || status >= 500;
}

/**
 * Pulls a human-readable message out of a provider error body (OpenAI `{error:{message}}`,
 * Anthropic `{error:{type,message}}`, or plain text), then strips anything secret-looking:
 * the key itself, bearer tokens, `sk-...` style keys, data URIs; finally truncates. The request
 * body is never echoed, only what the provider said.
 */
export function sanitizeProviderMessage(bodyText: string, apiKey: string | undefined): string {
  let message = bodyText;
  try {
    const parsed = JSON.parse(bodyText) as unknown;
    const candidate = pickMessage(parsed);
    if (candidate !== undefined) message = candidate;
  } catch {
    // Not JSON: the plain text is the message.
  }
  if (apiKey) message = message.split(apiKey).join('[redacted]');
  message = message
    .replace(/Bearer\s+[A-Za-z0-9._~+/=-]+/gi, 'Bearer [redacted]')
    .replace(/\bsk-[A-Za-z0-9_-]{8,}/g, '[redacted]')
    .replace(/data:[a-z]+\/[a-z0-9.+-]+;base64,[A-Za-z0-9+/=]+/gi, 'data:[redacted]')
    .replace(/\s+/g, ' ')
    .trim();
  return message.length > MAX_PROVIDER_MESSAGE ? `${message.slice(0, MAX_PROVIDER_MESSAGE)}…` : message;
}

function pickMessage(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const record = value as Record<string, unknown>;
  const error = record['error'];
  if (typeof error === 'string') return error;
  if (typeof error === 'object' && error !== null) {
    const inner = (error as Record<string, unknown>)['message'];
    if (typeof inner === 'string') return inner;
  }
  return typeof record['message'] === 'string' ? record['message'] : undefined;
}

/**
 * Maps a non-retryable HTTP failure to its LLM_* error. Retryable statuses are handled by the
 * retry loop and never reach this function.
 */
export function errorForStatus(status: number, bodyText: string, providerId: string, apiKey: string | undefined): AppError {
  const providerMessage = sanitizeProviderMessage(bodyText, apiKey);
  const data = { providerId, status, providerMessage };
  if (status === 401 || status === 403) {
    return new AppError('LLM_AUTH', `Provider "${providerId}" refused the credentials (HTTP ${status}). Check the API key.`, { data });
  }
  if (status === 404) {
    return new AppError('LLM_NOT_FOUND', `Provider "${providerId}" does not know this model or endpoint (HTTP 404): ${providerMessage}`, { data });
  }
  if (status === 413 || CONTEXT_TOO_LARGE.test(providerMessage)) {
    return new AppError('LLM_CONTEXT_TOO_LARGE', `The request is too large for provider "${providerId}" (HTTP ${status}): ${providerMessage}`, { data });
  }
  return new AppError('LLM_BAD_REQUEST', `Provider "${providerId}" rejected the request (HTTP ${status}): ${providerMessage}`, { data });
}
