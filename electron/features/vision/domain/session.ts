/** Usage totals of a session (sums over its successful model calls). */
export interface UsageTotals {
  calls: number;
  promptTokens: number;
  completionTokens: number;
  contextBytes: number;
  latencyMs: number;
  /** Prompt tokens the provider served from its cache (absent in sessions stored before it was counted). */
  cachedPromptTokens?: number;
}

export const emptyUsage = (): UsageTotals => ({ calls: 0, promptTokens: 0, completionTokens: 0, contextBytes: 0, latencyMs: 0, cachedPromptTokens: 0 });

/** How an image entered the session. */
export type ImageOrigin = 'source' | 'zoom' | 'video-frame' | 'pdf-page';

/** One image of a session. Bytes live in the repository, addressed by sha256. */
export interface SessionImage {
  /** 0-based position in the session, in the order images were added (zoom_image uses it). */
  index: number;
  origin: ImageOrigin;
  /** Short secret-free label (see shortenSource); for crops "zoom of #i (...)". */
  label: string;
  /** sha256 of the original bytes: the per-session decode cache key. */
  originalSha256: string;
  originalMimeType: string;
  originalWidth: number;
  originalHeight: number;
  /** sha256 of the bytes sent to the model (equal to originalSha256 when untouched). */
  preparedSha256: string;
  preparedMimeType: string;
  preparedWidth: number;
  preparedHeight: number;
  /**
   * Present when the image was too long to shrink legibly: the model gets these tiles (in
   * reading order) instead of the prepared image, which is then only the overview for the UI.
   */
  tiles?: SessionTile[];
  /** Text layer of a PDF page (sent as text after the page image). */
  text?: string;
}

/** One tile of a tiled image: its bytes' sha256 and its rectangle in the oriented original. */
export interface SessionTile {
  sha256: string;
  mimeType: string;
  width: number;
  height: number;
  source: { left: number; top: number; width: number; height: number };
}

export type TurnKind = 'analyze' | 'zoom' | 'video';

/** One completed user/assistant exchange. Failed calls never become turns. */
export interface SessionTurn {
  seq: number;
  kind: TurnKind;
  prompt: string;
  /** Images added by this turn (their user message carries them). */
  imageIndexes: number[];
  reply: string;
  createdAt: number;
  usage: UsageTotals;
}

/** A whole session as stored. */
export interface SessionRecord {
  id: string;
  summary: string;
  createdAt: number;
  lastAccessAt: number;
  providerId: string;
  model: string;
  images: SessionImage[];
  turns: SessionTurn[];
  usage: UsageTotals;
}

/** A row of list_sessions: a snapshot, never the bytes. */
export interface SessionListing {
  id: string;
  summary: string;
  sources: string[];
  createdAt: number;
  lastAccessAt: number;
  iterations: number;
  imageCount: number;
  usage: UsageTotals;
}

export function addUsage(total: UsageTotals, call: Omit<UsageTotals, 'calls'> & { calls?: number }): UsageTotals {
  return {
    calls: total.calls + (call.calls ?? 1),
    promptTokens: total.promptTokens + call.promptTokens,
    completionTokens: total.completionTokens + call.completionTokens,
    contextBytes: total.contextBytes + call.contextBytes,
    latencyMs: total.latencyMs + call.latencyMs,
    cachedPromptTokens: (total.cachedPromptTokens ?? 0) + (call.cachedPromptTokens ?? 0),
  };
}

const SUMMARY_LINE = /^[ \t]*(?:[*_#>-]+[ \t]*)*summary(?:[*_]+)?[ \t]*[:：][ \t]*(.+?)[ \t*_]*$/gim;
/** picsense asks for (and agents' prompts copy) a summary in `<summary>…</summary>` tags. */
const SUMMARY_TAG = /<summary>([\s\S]*?)<\/summary>/gi;

/**
 * Splits the first-turn reply into description and one-line summary. The model is asked to
 * end with "SUMMARY: ..."; a reply in picsense's `<summary>…</summary>` form is read the same
 * way (the last tag wins, every tag is removed from the description). When there is neither,
 * the summary is the first sentence of the description (shortened) so a session always has one.
 */
export function splitSummary(reply: string): { description: string; summary: string } {
  const tags = [...reply.matchAll(SUMMARY_TAG)];
  const tagged = tags.map((m) => m[1]!.replace(/\s+/g, ' ').trim()).filter((t) => t !== '').at(-1);
  if (tagged !== undefined) return { description: withoutSummaryTags(reply), summary: shorten(tagged, 160) };
  const matches = [...reply.matchAll(SUMMARY_LINE)];
  const last = matches.at(-1);
  if (last) {
    const description = (reply.slice(0, last.index) + reply.slice(last.index + last[0].length)).trim();
    return { description, summary: shorten(last[1]!.trim(), 160) };
  }
  const description = reply.trim();
  const firstSentence = /^[\s\S]*?(?:[.!?。！？](?=\s|$)|\n|$)/.exec(description)?.[0] ?? description;
  return { description, summary: shorten(firstSentence.replace(/^[#>*\s-]+/, '').trim(), 160) };
}

/**
 * A follow-up's answer as its description: `<summary>…</summary>` tags are removed (agents that
 * learned picsense's form keep asking for them; the session keeps its first-turn summary), but
 * a "Summary:" line stays, since on a follow-up it is part of the answer.
 */
export function withoutSummaryTags(reply: string): string {
  return reply.replace(SUMMARY_TAG, '').replace(/\n{3,}/g, '\n\n').trim();
}

export function shorten(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
