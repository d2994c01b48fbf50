import type { LlmProtocol } from '../types';
import { compileAnthropicStrict } from './anthropicStrict';
import { compileOpenAiStrict } from './openaiStrict';
import type { SchemaNode } from './schemaNode';

export { compileAnthropicStrict } from './anthropicStrict';
export { compileGeminiSchema } from './geminiSchema';
export { compileOpenAiStrict, openAiStrictIssues, OPENAI_STRICT_LIMITS } from './openaiStrict';
export { restoreOptionals, toStrictInstance } from './nullForOptional';
export type { SchemaNode } from './schemaNode';

/**
 * The strict dialect a protocol's `strict: true` tools use: Anthropic Messages → Anthropic strict
 * tool use (optionals stay optional); OpenAI Responses and Chat Completions → OpenAI strict
 * (optionals become required + nullable; answers go through restoreOptionals).
 */
export function compileStrictSchema(protocol: LlmProtocol, schema: SchemaNode): SchemaNode {
  return protocol === 'anthropic-messages' ? compileAnthropicStrict(schema) : compileOpenAiStrict(schema);
}

/** True when the protocol's strict dialect sends optional properties as required + nullable. */
export const strictUsesNullForOptional = (protocol: LlmProtocol): boolean => protocol !== 'anthropic-messages';
