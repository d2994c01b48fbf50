import type { LlmProviderConfig, LlmRequest, LlmResponse } from '../types';
import type { SseEvent } from '../sse';

/** A tool call as decoded from the wire, before the gateway parses its arguments. */
export interface WireToolCall {
  id: string;
  name: string;
  /** The arguments text exactly as the provider sent it. */
  rawArguments: string;
}

/** What a protocol adapter extracts from one successful reply. */
export interface ProviderReply {
  text: string;
  toolCalls: WireToolCall[];
  stopReason: LlmResponse['stopReason'];
  promptTokens?: number;
  completionTokens?: number;
  /** Prompt tokens served from the provider's prompt cache (part of promptTokens). */
  cachedPromptTokens?: number;
  /** Prompt tokens written to the provider's prompt cache (part of promptTokens). */
  cacheWritePromptTokens?: number;
  /** Reasoning returned in its own field (never part of `text`). */
  reasoning?: string;
}

/** An HTTP request ready to send: path relative to the provider's base URL, JSON body. */
export interface WireRequest {
  path: string;
  headers: Record<string, string>;
  body: Record<string, unknown>;
  /** True when the reply is an SSE stream (parseStream applies instead of parseBody). */
  stream: boolean;
}

/**
 * One wire protocol. Adapters are pure translators: no I/O, no retries. Malformed replies throw
 * AppError LLM_BAD_RESPONSE; an unsendable request (e.g. non-JSON tool arguments where the
 * protocol needs an object) throws LLM_BAD_REQUEST.
 */
export interface ProtocolAdapter {
  buildRequest(request: LlmRequest, provider: LlmProviderConfig, apiKey: string | undefined): WireRequest;
  /** Parses a complete JSON reply body; the text is kept so raw tool arguments can be sliced out. */
  parseBody(bodyText: string): ProviderReply;
  /** Accumulates an SSE reply into the same shape (only for adapters that stream). */
  parseStream?(events: AsyncIterable<SseEvent>): Promise<ProviderReply>;
}
