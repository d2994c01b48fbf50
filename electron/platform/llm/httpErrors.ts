import { AppError } from '../../../shared/errors';
import type { LlmProtocol } from './types';

const MAX_PROVIDER_MESSAGE = 300;
/** An error body is read up to this many bytes: enough for any protocol's error object, never a whole foreign page. */
export const MAX_ERROR_BODY_BYTES = 64 * 1024;
const PROVIDER_CODE = /^[A-Za-z0-9_.:-]{1,64}$/;

/** Provider error texts that mean "the prompt is too long" even when sent as a plain 400. */
const CONTEXT_TOO_LARGE = /context[_ ]length|context window|maximum context|prompt is too long|too many tokens|input is too long|exceeds? the (model'?s )?(maximum|max)/i;

/** True for HTTP statuses worth retrying: rate limits, server faults and request timeouts. */
export function isRetryableStatus(status: number): boolean {
  return status === 429 || status === 408 || status >= 500;
}

/** What CadSight keeps of a provider's error reply: never the body itself. */
export interface ProviderErrorDetail {
  /** The protocol's error code or type (`invalid_request_error`, `1211`), when it has a safe form. */
  code?: string;
  /** The protocol's error message, sanitised and at most 300 characters. */
  message?: string;
}

/**
 * Reads at most `maxBytes` of an error reply's body and cancels the rest, so a misdirected base
 * URL (another local service, a large page) costs a bounded read.
 */
export async function readErrorBody(response: Response, maxBytes = MAX_ERROR_BODY_BYTES): Promise<string> {
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < maxBytes) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.byteLength;
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  return Buffer.concat(chunks).subarray(0, maxBytes).toString('utf8');
}

/**
 * Takes the code and message out of an error body only where the provider's protocol puts them:
 * `{error: {message, code|type}}` (OpenAI Responses, Chat Completions and the gateways that copy
 * it), `{object: "error", message, type}` (vLLM), `{error: "text"}` (Ollama, Chat Completions
 * only) and `{type: "error", error: {type, message}}` (Anthropic Messages). Any other body — plain
 * text, HTML, another service's JSON — yields nothing: it is never reflected to the caller.
 */
export function providerErrorDetail(bodyText: string, protocol: LlmProtocol, apiKey: string | undefined): ProviderErrorDetail {
  let parsed: unknown;
  try {
    parsed = JSON.parse(bodyText) as unknown;
  } catch {
    return {};
  }
  const picked = pickError(parsed, protocol);
  const detail: ProviderErrorDetail = {};
  if (picked.code !== undefined && PROVIDER_CODE.test(picked.code)) detail.code = picked.code;
  if (picked.message !== undefined) {
    const message = sanitizeProviderMessage(picked.message, apiKey);
    if (message !== '') detail.message = message;
  }
  return detail;
}

/** Strips anything secret-looking (the key, bearer tokens, `sk-` keys, data URIs) and control characters, then truncates. */
export function sanitizeProviderMessage(text: string, apiKey: string | undefined): string {
  let message = text;
  if (apiKey) message = message.split(apiKey).join('[redacted]');
  message = message
    .replace(/Bearer\s+[A-Za-z0-9._~+/=-]+/gi, 'Bearer [redacted]')
    .replace(/\bsk-[A-Za-z0-9_-]{8,}/g, '[redacted]')
    .replace(/data:[a-z]+\/[a-z0-9.+-]+;base64,[A-Za-z0-9+/=]+/gi, 'data:[redacted]')
    .replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return message.length > MAX_PROVIDER_MESSAGE ? `${message.slice(0, MAX_PROVIDER_MESSAGE)}…` : message;
}

const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : typeof value === 'number' && Number.isInteger(value) ? String(value) : undefined);
const record = (value: unknown): Record<string, unknown> | undefined => (typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined);

function pickError(value: unknown, protocol: LlmProtocol): { code?: string; message?: string } {
  const body = record(value);
  if (body === undefined) return {};
  const error = record(body['error']);
  const fields = (source: Record<string, unknown>, codeKeys: readonly string[]) => {
    const code = codeKeys.map((key) => text(source[key])).find((candidate) => candidate !== undefined);
    const message = typeof source['message'] === 'string' ? source['message'] : undefined;
    return { ...(code !== undefined ? { code } : {}), ...(message !== undefined ? { message } : {}) };
  };
  if (protocol === 'anthropic-messages') return error ? fields(error, ['type']) : {};
  if (error) return fields(error, ['code', 'type']);
  if (protocol === 'chat-completions' && typeof body['error'] === 'string') return { message: body['error'] };
  if (protocol === 'chat-completions' && body['object'] === 'error') return fields(body, ['type', 'code']);
  return {};
}

/**
 * Maps a non-retryable HTTP failure to its LLM_* error with data {providerId, status,
 * providerCode?, providerMessage?}. Retryable statuses are handled by the retry loop and never
 * reach this function.
 */
export function errorForStatus(status: number, bodyText: string, provider: { id: string; protocol: LlmProtocol }, apiKey: string | undefined): AppError {
  const providerId = provider.id;
  const detail = providerErrorDetail(bodyText, provider.protocol, apiKey);
  const data = { providerId, status, ...(detail.code !== undefined ? { providerCode: detail.code } : {}), ...(detail.message !== undefined ? { providerMessage: detail.message } : {}) };
  const said = detail.message !== undefined ? `: ${detail.message}` : '.';
  if (status === 401 || status === 403) {
    return new AppError('LLM_AUTH', `Provider "${providerId}" refused the credentials (HTTP ${status}). Check the API key.`, { data });
  }
  if (status === 404) {
    return new AppError('LLM_NOT_FOUND', `Provider "${providerId}" does not know this model or endpoint (HTTP 404)${said}`, { data });
  }
  if (status === 413 || CONTEXT_TOO_LARGE.test(detail.message ?? '')) {
    return new AppError('LLM_CONTEXT_TOO_LARGE', `The request is too large for provider "${providerId}" (HTTP ${status})${said}`, { data });
  }
  return new AppError('LLM_BAD_REQUEST', `Provider "${providerId}" rejected the request (HTTP ${status})${said}`, { data });
}
