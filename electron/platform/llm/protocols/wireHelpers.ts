import type { z } from 'zod';
import { AppError } from '../../../../shared/errors';
import type { LlmContentPart } from '../types';

/** `data:<mime>;base64,<bytes>` URL of an image part (OpenAI and Chat Completions take these). */
export function imageDataUrl(part: Extract<LlmContentPart, { type: 'image' }>): string {
  return `data:${part.mimeType};base64,${Buffer.from(part.data).toString('base64')}`;
}

/** Base64 of an image part's bytes (Anthropic takes media type and data separately). */
export function imageBase64(part: Extract<LlmContentPart, { type: 'image' }>): string {
  return Buffer.from(part.data).toString('base64');
}

/** LLM_BAD_RESPONSE: a 2xx reply that does not follow the protocol. */
export function badResponse(protocol: string, detail: string): AppError {
  return new AppError('LLM_BAD_RESPONSE', `The provider's ${protocol} reply is malformed: ${detail}`, { data: { protocol } });
}

/** JSON.parse + schema check of a reply body; failures become LLM_BAD_RESPONSE. */
export function parseReplyBody<S extends z.ZodType>(protocol: string, bodyText: string, schema: S): z.output<S> {
  let json: unknown;
  try {
    json = JSON.parse(bodyText);
  } catch {
    throw badResponse(protocol, 'the body is not JSON');
  }
  const result = schema.safeParse(json);
  if (!result.success) throw badResponse(protocol, result.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '));
  return result.data;
}

/** Common JSON request headers plus the provider's extra (non-secret) headers. */
export function jsonHeaders(extra: Record<string, string> | undefined): Record<string, string> {
  return { 'content-type': 'application/json', accept: 'application/json', ...extra };
}

/** Text parts of a message joined, in order. */
export function joinedText(parts: LlmContentPart[]): string {
  return parts.flatMap((p) => (p.type === 'text' ? [p.text] : [])).join('');
}
