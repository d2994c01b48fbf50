/** The draft review the reviewer wrote (documents/requirements-review-vN.json), per draft id. */
export interface DraftReview {
  verdict: string;
  items: Record<string, { verdict: string; note: string }>;
}

/** Reads a requirements review document; fields of the wrong type are left out (it is data from a model). */
export function parseDraftReview(bytes: Uint8Array): DraftReview | null {
  try {
    const raw = JSON.parse(new TextDecoder().decode(bytes)) as { verdict?: unknown; items?: unknown };
    const items: DraftReview['items'] = {};
    for (const item of Array.isArray(raw.items) ? raw.items : []) {
      const row = item as Record<string, unknown>;
      if (typeof row.draft_id === 'string' && typeof row.verdict === 'string') items[row.draft_id] = { verdict: row.verdict, note: typeof row.note === 'string' ? row.note : '' };
    }
    return typeof raw.verdict === 'string' ? { verdict: raw.verdict, items } : null;
  } catch {
    return null;
  }
}
