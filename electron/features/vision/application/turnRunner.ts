import { AppError } from '../../../../shared/errors';
import type { LlmContentPart, LlmGateway, LlmMessage } from '../../../platform/llm/types';
import type { ImageBudget } from '../domain/imageBudget';
import { selectImages } from '../domain/imageBudget';
import { VISION_SYSTEM_PROMPT } from '../domain/prompts';
import type { SessionImage, SessionTurn, TurnKind, UsageTotals } from '../domain/session';

/** The turn being asked now (not yet in the history). */
export interface PendingTurn {
  kind: TurnKind;
  /** Full text of the user message as sent (stored verbatim in the history on success). */
  prompt: string;
  /** Images this turn adds: its user message carries them. */
  imageIndexes: number[];
  /** Images this turn uses (new or earlier ones): always sent, whatever the budget. */
  mustInclude: ReadonlySet<number>;
}

export interface TurnOutcome {
  reply: string;
  usage: UsageTotals;
  providerId: string;
  model: string;
  budgetNote?: string;
}

/** Label + image part, or a placeholder when the budget leaves the image out of this request. */
function imageParts(images: SessionImage[], indexes: number[], included: ReadonlySet<number>, bytesOf: (image: SessionImage) => Uint8Array): LlmContentPart[] {
  return indexes.flatMap((index): LlmContentPart[] => {
    const image = images[index]!;
    const label = `Image #${index} (${image.label}):`;
    if (!included.has(index)) return [{ type: 'text', text: `${label} [not re-sent this turn: session image budget]` }];
    return [
      { type: 'text', text: label },
      { type: 'image', mimeType: image.preparedMimeType, data: bytesOf(image) },
    ];
  });
}

/**
 * Builds the native multi-turn conversation. Every earlier user message carries its images
 * again (within the budget), so a follow-up is answered from pixels, not from old text.
 */
export function buildMessages(
  history: readonly SessionTurn[],
  images: SessionImage[],
  pending: PendingTurn,
  budget: ImageBudget,
  bytesOf: (image: SessionImage) => Uint8Array,
): { messages: LlmMessage[]; budgetNote?: string } {
  const selection = selectImages(images, budget, pending.mustInclude);
  const messages: LlmMessage[] = [];
  for (const turn of history) {
    messages.push({ role: 'user', content: [...imageParts(images, turn.imageIndexes, selection.included, bytesOf), { type: 'text', text: turn.prompt }] });
    messages.push({ role: 'assistant', content: [{ type: 'text', text: turn.reply }] });
  }
  messages.push({ role: 'user', content: [...imageParts(images, pending.imageIndexes, selection.included, bytesOf), { type: 'text', text: pending.prompt }] });
  return { messages, ...(selection.note ? { budgetNote: selection.note } : {}) };
}

/**
 * Asks the model one turn. Throws the gateway's LLM_* errors unchanged; nothing is written
 * here, so a failed call leaves the session exactly as it was.
 */
export async function askModel(
  gateway: LlmGateway,
  conversation: { messages: LlmMessage[]; budgetNote?: string },
  options: { maxOutputTokens: number; signal?: AbortSignal; purpose: string },
): Promise<TurnOutcome> {
  const response = await gateway.complete({
    system: VISION_SYSTEM_PROMPT,
    messages: conversation.messages,
    maxOutputTokens: options.maxOutputTokens,
    purpose: options.purpose,
    ...(options.signal ? { signal: options.signal } : {}),
  });
  const { usage } = response;
  if (response.text.trim() === '') {
    // Storing an empty answer would make every later turn build on nothing.
    throw new AppError('LLM_EMPTY_REPLY', 'The vision model returned an empty answer.', { retryable: true, data: { hint: 'Retry, or rephrase the prompt.', stopReason: response.stopReason } });
  }
  return {
    reply: response.text,
    usage: {
      calls: 1,
      promptTokens: usage.promptTokens ?? 0,
      completionTokens: usage.completionTokens ?? 0,
      contextBytes: usage.contextBytes,
      latencyMs: usage.latencyMs,
    },
    providerId: usage.providerId,
    model: usage.model,
    ...(conversation.budgetNote ? { budgetNote: conversation.budgetNote } : {}),
  };
}
