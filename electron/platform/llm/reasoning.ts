/**
 * Reasoning a model writes into its answer text: `<think>`, `<thinking>` and `<reasoning>`
 * blocks (DeepSeek-R1, Qwen3/QwQ, GLM and most open models behind OpenAI-compatible gateways).
 * An unclosed block runs to the end of the text (the answer was cut inside it); a closing tag
 * with no opening one (chat templates that open the block themselves) drops everything before it.
 */
const BLOCK = /<(think|thinking|reasoning)>[\s\S]*?(?:<\/\1>|$)/gi;
const ORPHAN_CLOSE = /^[\s\S]*<\/(?:think|thinking|reasoning)>/i;

/** The answer without reasoning blocks, trimmed. Text without such tags is returned unchanged (trimmed). */
export function withoutReasoning(text: string): string {
  if (!/<\/?(?:think|thinking|reasoning)>/i.test(text)) return text;
  return text.replace(BLOCK, '').replace(ORPHAN_CLOSE, '').replace(/\n{3,}/g, '\n\n').trim();
}
