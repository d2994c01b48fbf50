import type { SmallText } from '../domain/textLegibility';
import type { SessionImage, SessionListing, SessionRecord, SessionTurn, UsageTotals } from '../domain/session';

/** A new image to store with a turn, with its bytes (stored once per content hash). */
export interface NewSessionImage extends SessionImage {
  originalBytes: Uint8Array;
  preparedBytes: Uint8Array;
  /** Bytes of `tiles`, in the same order. */
  tileBytes?: Uint8Array[];
  /** Text too small to read as sent (PreparedImage.smallText); reported with the turn, not stored. */
  smallText?: SmallText;
}

/** Everything one successful turn writes, in one transaction. */
export interface TurnCommit {
  sessionId: string;
  /** Present only for the first turn: creates the session row. */
  create?: { summary: string; createdAt: number; providerId: string; model: string };
  newImages: NewSessionImage[];
  turn: SessionTurn;
  lastAccessAt: number;
  usage: UsageTotals;
}

/**
 * Session persistence. Synchronous on purpose: SQLite write transactions are short and
 * synchronous, so a turn is committed atomically or not at all.
 * Error codes: STORE_CORRUPT (a referenced image blob is missing), STORE_BUSY (lock timeout).
 */
export interface VisionSessionRepository {
  /** The whole session, or undefined when unknown/expired. */
  get(id: string): SessionRecord | undefined;
  /** Bytes by sha256 (original or prepared). Throws STORE_CORRUPT when missing. */
  imageBytes(sha256: string): Uint8Array;
  /** Appends one completed turn (and creates the session on its first turn) atomically. */
  commitTurn(commit: TurnCommit): void;
  /** Snapshot of all sessions, most recently used first. */
  list(): SessionListing[];
  /** Ids of sessions last accessed before `cutoff` (epoch ms). */
  expiredIds(cutoff: number): string[];
  /** Sets a session's summary (its title). */
  rename(id: string, summary: string): void;
  /** Deletes a session, its turns, and blobs no other session references. */
  delete(id: string): void;
}
