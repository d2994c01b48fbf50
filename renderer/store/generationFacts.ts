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

/** A reviewer's verdict on one candidate (revisions/rev_NNN/reviews/candidate-review.json). */
export interface CandidateReview {
  verdict: string;
  evidence: string[];
  issues: string[];
}

/** Reads a candidate review document; like the draft review, only well-typed fields are kept. */
export function parseCandidateReview(bytes: Uint8Array): CandidateReview | null {
  try {
    const raw = JSON.parse(new TextDecoder().decode(bytes)) as { verdict?: unknown; evidence?: unknown; issues?: unknown };
    if (typeof raw.verdict !== 'string') return null;
    const evidence = Array.isArray(raw.evidence) ? raw.evidence.filter((e): e is string => typeof e === 'string') : [];
    const issues = (Array.isArray(raw.issues) ? raw.issues : []).flatMap((issue: unknown) => {
      const row = issue && typeof issue === 'object' ? (issue as Record<string, unknown>) : {};
      return typeof row.message === 'string' ? [typeof row.code === 'string' ? `[${row.code}] ${row.message}` : row.message] : [];
    });
    return { verdict: raw.verdict, evidence, issues };
  } catch {
    return null;
  }
}
