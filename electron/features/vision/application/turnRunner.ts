import { AppError } from '../../../../shared/errors';
import type { LlmContentPart, LlmGateway, LlmMessage } from '../../../platform/llm/types';
import type { ImageBudget } from '../domain/imageBudget';
import { selectImages } from '../domain/imageBudget';
import { tileLabel } from '../domain/imageLimits';
import { VISION_SYSTEM_PROMPT } from '../domain/prompts';
import { neutralLabel } from '../domain/sourceClassifier';
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

/** Reads the bytes a part needs by sha256 (fresh images of this turn first, then the store). */
export type BytesBySha = (sha256: string) => Uint8Array;

/**
 * The parts that carry one image to the model: the image itself, or — for a tiled strip — a
 * line saying how it was cut, then each tile with its own label, in reading order.
 */
export function imageContent(image: SessionImage, label: string, bytesOf: BytesBySha): LlmContentPart[] {
  const textLayer: LlmContentPart[] = image.text ? [{ type: 'text', text: `Text layer of ${label.replace(/ \(.*$/, '')} (extracted from the PDF, may be incomplete):\n${image.text}` }] : [];
  return [...pixelContent(image, label, bytesOf), ...textLayer];
}

function pixelContent(image: SessionImage, label: string, bytesOf: BytesBySha): LlmContentPart[] {
  if (!image.tiles) return [{ type: 'text', text: `${label}:` }, { type: 'image', mimeType: image.preparedMimeType, data: bytesOf(image.preparedSha256) }];
  const original = { width: image.originalWidth, height: image.originalHeight };
  const n = image.tiles.length;
  return [
    { type: 'text', text: `${label}: ${original.width}×${original.height} px, too long to shrink legibly, sent as ${n} overlapping tiles in reading order:` },
    ...image.tiles.flatMap((tile, i): LlmContentPart[] => [
      { type: 'text', text: `${label.replace(/ \(.*$/, '')} ${tileLabel(i, n, tile.source, original)}:` },
      { type: 'image', mimeType: tile.mimeType, data: bytesOf(tile.sha256) },
    ]),
  ];
}

/**
 * Label + image parts, or a placeholder when the image is left out of this request: by the
 * budget, or because it is a zoom crop of an earlier turn that this turn does not ask about
 * (a crop answered its own question; re-sending it every turn would multiply its cost).
 */
function imageParts(images: SessionImage[], indexes: number[], included: ReadonlySet<number>, current: ReadonlySet<number>, bytesOf: BytesBySha): LlmContentPart[] {
  return indexes.flatMap((index): LlmContentPart[] => {
    const image = images[index]!;
    const label = `Image #${index} (${neutralLabel(image.label)})`;
    if (image.origin === 'zoom' && !current.has(index)) return [{ type: 'text', text: `${label}: [zoom crop shown in that turn only]` }];
    if (!included.has(index)) return [{ type: 'text', text: `${label}: [not re-sent this turn: session image budget]` }];
    return imageContent(image, label, bytesOf);
  });
}

/**
 * Marks the prefixes a provider should cache: the last image part (everything up to it — system,
 * the session's images and the turns between them — is repeated unchanged by the next turn) and
 * the end of the request (the next turn starts with all of it).
 */
function markCachePrefixes(messages: LlmMessage[]): void {
  const parts = messages.flatMap((message) => message.content);
  const lastImage = parts.findLastIndex((part) => part.type === 'image');
  const marks = new Set([lastImage, parts.length - 1].filter((i) => i >= 0));
  for (const i of marks) {
    const part = parts[i]!;
    if (part.type === 'text' || part.type === 'image') part.cacheBreakpoint = true;
  }
}

/**
 * Builds the native multi-turn conversation. Every earlier user message carries its images
 * again (within the budget; zoom crops only when asked about again), so a follow-up is answered
 * from pixels, not from old text. The request is a stable prefix — system, then each turn's
 * images and text in the order they happened — so providers' prompt caches serve all but the
 * newest turn (cache breakpoints mark it for Anthropic).
 */
export function buildMessages(
  history: readonly SessionTurn[],
  images: SessionImage[],
  pending: PendingTurn,
  budget: ImageBudget,
  bytesOf: BytesBySha,
): { messages: LlmMessage[]; budgetNote?: string } {
  const selection = selectImages(images, budget, pending.mustInclude);
  const messages: LlmMessage[] = [];
  for (const turn of history) {
    messages.push({ role: 'user', content: [...imageParts(images, turn.imageIndexes, selection.included, pending.mustInclude, bytesOf), { type: 'text', text: turn.prompt }] });
    messages.push({ role: 'assistant', content: [{ type: 'text', text: turn.reply }] });
  }
  messages.push({ role: 'user', content: [...imageParts(images, pending.imageIndexes, selection.included, pending.mustInclude, bytesOf), { type: 'text', text: pending.prompt }] });
  markCachePrefixes(messages);
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
      cachedPromptTokens: usage.cachedPromptTokens ?? 0,
    },
    providerId: usage.providerId,
    model: usage.model,
    ...(conversation.budgetNote ? { budgetNote: conversation.budgetNote } : {}),
  };
}
