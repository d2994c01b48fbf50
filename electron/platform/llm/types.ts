/**
 * LLM gateway port: the one way every slice (vision, review, cadgen) talks to a model.
 * Implementations speak OpenAI Responses, Chat Completions and Anthropic Messages over HTTP.
 *
 * Error codes thrown (as AppError): LLM_AUTH (401/403), LLM_BAD_REQUEST (other 4xx),
 * LLM_NOT_FOUND (404 model/endpoint), LLM_CONTEXT_TOO_LARGE (413 / context errors),
 * LLM_TRANSPORT_UNAVAILABLE (429/5xx/network/timeout after the retry budget is spent),
 * LLM_NO_TOOL_CALL (a forced tool call came back without one), LLM_BAD_TOOL_ARGUMENTS
 * (arguments are not valid JSON; the raw string is kept in data), LLM_NOT_CONFIGURED
 * (no provider/key), LLM_ABORTED (the caller's AbortSignal fired), LLM_BAD_RESPONSE (the
 * provider answered 2xx with a body that does not follow its protocol).
 */

import type { ProviderQuirks } from '../../../shared/llmPresets';

export type { ProviderQuirks };

/** Wire protocol a provider speaks. */
export type LlmProtocol = 'openai-responses' | 'chat-completions' | 'anthropic-messages';

/** A resolved provider: everything needed to make a call. The key is resolved at call time. */
export interface LlmProviderConfig {
  /** Stable id from settings, e.g. "openai", "qwen", "my-vllm". */
  id: string;
  protocol: LlmProtocol;
  /** Base URL including the version path, e.g. https://api.openai.com/v1 */
  baseUrl: string;
  model: string;
  /** Returns the API key or undefined (local gateways such as Ollama need none). Never logged. */
  getApiKey: () => string | undefined;
  /**
   * Ask for an SSE stream (Chat Completions and Anthropic Messages; ignored by OpenAI
   * Responses). Some Chat Completions gateways only answer with stream=true; for Anthropic it
   * yields the model's exact tool-argument bytes instead of a re-serialized object.
   */
  forceStreaming?: boolean;
  /** Per-attempt timeout in ms (default 120000). */
  timeoutMs?: number;
  /** Longest image edge this provider accepts well (vision preprocessing reads it). */
  maxImageEdge?: number;
  /** Extra HTTP headers (non-secret). */
  headers?: Record<string, string>;
  /** Documented departures from the protocol (from the preset); absent = the reference behaviour. */
  quirks?: ProviderQuirks;
}

/** One part of a message. Images are raw bytes plus their sniffed MIME type. */
export type LlmContentPart =
  /**
   * `cacheBreakpoint` marks the end of a prefix worth caching (Anthropic cache_control; other
   * protocols cache stable prefixes automatically and ignore it). At most 4 per request.
   */
  | { type: 'text'; text: string; cacheBreakpoint?: boolean }
  | { type: 'image'; mimeType: string; data: Uint8Array; cacheBreakpoint?: boolean }
  /** A tool call the assistant made (only in assistant messages). */
  | { type: 'tool_call'; id: string; name: string; arguments: string }
  /**
   * Reasoning the model returned beside a tool call (only in assistant messages; see
   * LlmResponse.reasoning). Sent back only to providers whose thinking models require it on
   * tool-call turns; never shown or stored as an answer.
   */
  | { type: 'reasoning'; text: string }
  /** The result of a tool call (only in user messages); content is text. */
  | { type: 'tool_result'; toolCallId: string; content: string; isError?: boolean };

export interface LlmMessage {
  role: 'user' | 'assistant';
  content: LlmContentPart[];
}

/** A tool offered to the model. `parameters` is a JSON Schema object. */
export interface LlmToolDefinition {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
  /**
   * Ask the provider to enforce `parameters` while sampling (OpenAI `strict: true`, Anthropic
   * strict tool use). `parameters` must already be in the protocol's strict dialect (compile it
   * with compileStrictSchema); a provider refusing the schema answers 400 (LLM_BAD_REQUEST).
   */
  strict?: boolean;
}

export interface LlmRequest {
  system?: string;
  messages: LlmMessage[];
  maxOutputTokens?: number;
  temperature?: number;
  /** Tools the model may call. */
  tools?: LlmToolDefinition[];
  /**
   * 'auto': the model may answer in text or call tools; { name }: exactly one call of that
   * tool is forced (structured output). Default 'auto' when tools are given.
   */
  toolChoice?: 'auto' | { name: string };
  /**
   * 'json_object': the provider's JSON mode (Chat Completions response_format, Responses
   * text.format); the reply text is one JSON object. Not offered by Anthropic Messages.
   */
  responseFormat?: 'json_object';
  signal?: AbortSignal;
  /** Label for logs/usage (e.g. "vision.turn", "review.frame"). */
  purpose?: string;
  /**
   * Retry time budget shared by all calls of one run (create it with createRetryBudget from
   * electron/platform/llm). Without it each call gets a fresh budget of retry.totalBudgetMs.
   */
  retryBudget?: RetryBudget;
}

/**
 * Time left for retries in one run. Backoff waits (including Retry-After) are only taken when
 * they fit in what remains; once it is spent, calls fail with LLM_TRANSPORT_UNAVAILABLE after
 * their first failed attempt instead of waiting.
 */
export interface RetryBudget {
  /** Milliseconds still available (never negative). */
  remainingMs(): number;
}

/** A tool call as returned: the raw arguments string exactly as the provider sent it. */
export interface LlmToolCall {
  id: string;
  name: string;
  /** Raw arguments string: callers validate canonically from this (zod/ajv). */
  rawArguments: string;
  /** JSON.parse(rawArguments); undefined if it is not valid JSON. */
  parsed: unknown;
}

/** Usage accounting of one logical call (including its retries). */
export interface LlmUsage {
  providerId: string;
  model: string;
  /** Provider-reported token counts when present. */
  promptTokens?: number;
  completionTokens?: number;
  /**
   * Prompt tokens the provider served from its prompt cache (included in promptTokens): Chat
   * Completions prompt_tokens_details.cached_tokens or DeepSeek prompt_cache_hit_tokens,
   * Responses input_tokens_details.cached_tokens, Anthropic cache_read_input_tokens.
   */
  cachedPromptTokens?: number;
  /**
   * Prompt tokens written to the cache by this call (included in promptTokens): Anthropic
   * cache_creation_input_tokens, Qwen prompt_tokens_details.cache_creation_input_tokens.
   */
  cacheWritePromptTokens?: number;
  /** Bytes of the serialized request body actually sent (last attempt). Always present. */
  contextBytes: number;
  latencyMs: number;
  /** Number of retried attempts (0 = first attempt succeeded). */
  retries: number;
}

export interface LlmResponse {
  /** The answer, without reasoning (separate reasoning fields and <think> blocks are never in it). */
  text: string;
  /**
   * Reasoning a thinking model returned in its own field (Chat Completions reasoning_content or
   * Ollama's reasoning, Anthropic thinking blocks). Not an answer: callers keep it only to send
   * it back with the tool calls of the same turn (see assistantTurn).
   */
  reasoning?: string;
  toolCalls: LlmToolCall[];
  stopReason: 'end' | 'tool_call' | 'max_tokens' | 'other';
  usage: LlmUsage;
}

/** Result of a forced single tool call. */
export interface LlmStructuredResult {
  /** The provider's id of the call (to record it in a tool loop's history). */
  callId: string;
  /** Reasoning returned beside the call in its own field (see LlmResponse.reasoning). */
  reasoning?: string;
  rawArguments: string;
  value: unknown;
  usage: LlmUsage;
}

/** The gateway port. */
export interface LlmGateway {
  /** One model call (text and/or tool calls). */
  complete(request: LlmRequest): Promise<LlmResponse>;
  /**
   * Forces exactly one call of `tool` and returns its raw arguments string plus the parsed
   * value. Throws LLM_NO_TOOL_CALL / LLM_BAD_TOOL_ARGUMENTS; never extracts JSON from text.
   */
  callTool(request: Omit<LlmRequest, 'tools' | 'toolChoice'> & { tool: LlmToolDefinition }): Promise<LlmStructuredResult>;
}
