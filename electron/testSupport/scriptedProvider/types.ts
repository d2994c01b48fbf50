import type { ChatDialectId } from './dialects';

/** Token counts a step reports; defaults: text ~4 bytes/token, PNG images by pixels with the endpoint's provider rule (promptTokens.ts). */
export interface ScriptUsage {
  promptTokens?: number;
  completionTokens?: number;
  /**
   * Prompt tokens reported as read from the provider's cache: Chat Completions
   * prompt_tokens_details.cached_tokens (or DeepSeek's prompt_cache_hit_tokens with
   * `cacheField: 'deepseek'`), Responses input_tokens_details.cached_tokens, Anthropic
   * cache_read_input_tokens (its input_tokens then counts only the rest).
   */
  cachedPromptTokens?: number;
  /**
   * Prompt tokens reported as written to the cache: Anthropic cache_creation_input_tokens, Qwen
   * prompt_tokens_details.cache_creation_input_tokens (Chat Completions).
   */
  cacheWritePromptTokens?: number;
  /** Chat Completions cache field: OpenAI's (default), DeepSeek's hit/miss counts, or Kimi moonshot-v1's top-level cached_tokens. */
  cacheField?: 'openai' | 'deepseek' | 'moonshot';
}

/** A reply the scripted provider gives, in whichever protocol the request used. */
export type ScriptReply =
  | { text: string }
  | {
      /** `arguments` as a string is sent byte-for-byte; an object is JSON.stringify'd. */
      toolCall: { name: string; arguments: string | Record<string, unknown>; id?: string };
      /** Optional text sent before the tool call. */
      text?: string;
    }
  | { error: { status: number; body?: unknown; retryAfter?: string | number } }
  | { dropConnection: true };

/** One scripted step: a reply, optionally after a delay, with optional usage numbers. */
export type ScriptStep = ScriptReply & {
  /** Wait this long before answering (for timeout tests). */
  delayMs?: number;
  usage?: ScriptUsage;
  /**
   * Reasoning sent beside the answer the way providers do (non-streamed replies): Chat
   * Completions message.reasoning_content, an Anthropic thinking block, a Responses reasoning item.
   */
  reasoning?: string;
  /** Streamed replies: characters per chunk of text and tool arguments (default 5). */
  chunkSize?: number;
  /** Streamed replies: drop the connection after this many events (a stream cut mid-reply). */
  cutAfterEvents?: number;
};

/** A request as the server saw it. Credentials are never stored, only whether one was sent. */
export interface CapturedRequest {
  method: string;
  path: string;
  /** Lower-cased headers without `authorization` and `x-api-key`. */
  headers: Record<string, string>;
  /** Which credential header was present, if any. */
  auth: 'bearer' | 'x-api-key' | null;
  /** True when a key was required (option `apiKey`) and the one sent matched it. */
  authMatched: boolean;
  /** Parsed JSON body (undefined for GET or a non-JSON body). */
  body: unknown;
  /** Body size in bytes as received. */
  bodyBytes: number;
}

/** Steps consumed in order (across endpoints), or a function choosing the step per request. */
export type Script = ScriptStep[] | ((request: CapturedRequest, index: number) => ScriptStep | Promise<ScriptStep>);

export interface ScriptedProviderOptions {
  script: Script;
  /** When set, requests must carry this key (Bearer or x-api-key) or get a 401. */
  apiKey?: string;
  /** Model id listed by GET /v1/models and echoed in replies (default "scripted-model"). */
  model?: string;
  /**
   * Enforce OpenAI's strict-schema rules: a Chat Completions or Responses request offering a
   * `strict: true` tool whose schema is outside the Structured Outputs subset gets OpenAI's 400
   * "Invalid schema for function" (the script is not consulted).
   */
  enforceOpenAiStrict?: boolean;
  /** Port on 127.0.0.1 (default 0 = ephemeral); a journey restarts a provider that "came back" on its old port. */
  port?: number;
  /**
   * Chat Completions as a given provider documents it (dialects.ts): its tool_choice and
   * reasoning_content rules are enforced with a 400 in its words, replies use its reasoning and
   * cache fields. Default: plain OpenAI-compatible, nothing enforced.
   */
  dialect?: ChatDialectId;
  /**
   * Report cached prompt tokens from a simulated prefix cache (promptCache.ts) for steps that give
   * none: true, or the smallest cacheable prefix in tokens (default 1024).
   */
  promptCache?: boolean | { minTokens: number };
}

export interface ScriptedProvider {
  /** http://127.0.0.1:<port> (ephemeral unless `port` was given). */
  baseUrl: string;
  port: number;
  /** `${baseUrl}/v1` — what a provider config's baseUrl should be. */
  apiBaseUrl: string;
  /** Every request received, in order. */
  requests: CapturedRequest[];
  close(): Promise<void>;
}
