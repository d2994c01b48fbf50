/** The draft review the reviewer wrote (documents/requirements-review-vN.json), per draft id. */
export interface DraftReview {
  verdict: string;
  /** A Map, so draft ids from the model can never reach an object's prototype. */
  items: ReadonlyMap<string, { verdict: string; note: string }>;
}

/** Reads a requirements review document; fields of the wrong type are left out (it is data from a model). */
export function parseDraftReview(bytes: Uint8Array): DraftReview | null {
  try {
    const raw = JSON.parse(new TextDecoder().decode(bytes)) as { verdict?: unknown; items?: unknown };
    const items = new Map<string, { verdict: string; note: string }>();
    for (const item of Array.isArray(raw.items) ? raw.items : []) {
      if (!item || typeof item !== 'object') continue;
      const row = item as Record<string, unknown>;
      if (typeof row.draft_id === 'string' && typeof row.verdict === 'string') items.set(row.draft_id, { verdict: row.verdict, note: typeof row.note === 'string' ? row.note : '' });
    }
    return typeof raw.verdict === 'string' ? { verdict: raw.verdict, items } : null;
  } catch {
    return null;
  }
}
